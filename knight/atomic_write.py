"""A file written whole or not at all: the one way knight replaces a file.

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
    handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        if shared:
            os.fchmod(handle, 0o666 & ~_umask())
        with os.fdopen(handle, "wb" if binary else "w", encoding=None if binary else "utf-8") as file:
            fill(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
