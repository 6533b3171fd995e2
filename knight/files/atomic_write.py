"""This module writes a file whole or not at all, the one way knight replaces a file.

The content goes to a fresh temporary name beside the target (``mkstemp``,
so a file of the user's that happens to carry the temporary's name is never
touched), is flushed and fsynced, then renamed over the target:
``os.replace`` is atomic, so a reader, or a kill at any moment, sees the old
file or the new one, never half of one. On any failure, Ctrl-C included,
the temporary is removed before the error goes on.
"""

import contextlib
import os
import tempfile

from knight.files import owned_files


def _umask():
    # os.umask can only be read by setting it; set it straight back
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def replace(path, fill, binary=False, shared=False):
    """Write ``path`` through ``fill(file)``, an open temporary file (bytes
    if ``binary``, else UTF-8 text). ``shared``: the file gets the
    permissions a new file of this user gets (mkstemp's are 0600, right for
    a checkpoint, wrong for a picture). Raises OSError, nothing written."""
    folder, name = os.path.split(os.path.abspath(path))
    owned_files.remove_stale_temporaries(folder, name)
    try:
        handle, temporary = tempfile.mkstemp(prefix=owned_files.temporary_prefix(name), suffix=".tmp", dir=folder)
    except OSError as error:
        raise _naming(error, path) from None
    try:
        if shared:
            os.fchmod(handle, 0o666 & ~_umask())
        with os.fdopen(handle, "wb" if binary else "w", encoding=None if binary else "utf-8") as file:
            fill(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise _naming(error, path) from None
        raise


def _naming(error, path):
    """The OSError of a write naming ``path``, the file the user asked for,
    not the temporary (a full disk's names no file at all)."""
    return OSError(error.errno, error.strerror, os.fspath(path))
