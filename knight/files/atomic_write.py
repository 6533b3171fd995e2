"""This module writes a file whole or not at all, the one way knight replaces a file.

The content goes to a fresh temporary name beside the target (``mkstemp``,
so a file of the user's that happens to carry the temporary's name is never
touched), is flushed and fsynced, then renamed over the target:
``os.replace`` is atomic, so a reader, or a kill at any moment, sees the old
file or the new one, never half of one. On any failure, Ctrl-C included,
the temporary is removed before the error goes on.

A target can be checked before the work that fills it (``check``): its
names, the temporary's too, are tried in its folder, and the identity of
the file there is kept with the path (``CheckedPath``). ``replace`` renames
over a checked target only if the file there is still that one; a file
written or made meanwhile is left alone, and the new content is kept
under a side name (``TargetChanged``).
"""

import contextlib
import errno
import os
import tempfile

from knight.errors import InvalidArgument
from knight.files import owned_files

# bytes written into the probe that ``check`` makes: a full disk refuses them
_PROBE_BYTES = 4096


class CheckedPath(str):
    """A path that ``check`` found writable, as a ``str``, with the
    ``identity`` of the file there when it was checked (None: there was
    none)."""

    identity = None


class TargetChanged(OSError):
    """The target of a checked ``replace`` changed after it was checked:
    the new content is in ``kept``, the target is left as it is."""

    def __init__(self, path, kept):
        super().__init__(
            errno.EEXIST,
            f"another program wrote it since it was checked, so it was left alone; the new file is {kept}",
            os.fspath(path),
        )
        self.kept = kept


def identity(path):
    """The identity of the file at ``path``: what a rewrite or a
    replacement by another program changes.

    Parameters
    ----------
    path : str
        The file.

    Returns
    -------
    tuple or None
        ``(device, inode, size, mtime_ns)``, or None where there is no file.

    Examples
    --------
    >>> identity("/no/such/file") is None
    True
    """
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns)


def check(path, kind):
    """``path`` as a ``CheckedPath``, if ``replace`` can write it.

    Parameters
    ----------
    path : str
        The target; its folder must exist (the caller checks what else
        it must be).
    kind : str
        What the file is, for the refusal ("the drawing").

    Returns
    -------
    CheckedPath
        ``path``, with the identity of the file there now.

    Raises
    ------
    InvalidArgument
        For a name that ends in a slash or names no file, a name longer
        than the system takes, or a folder where the temporary cannot be
        made and written (no permission, a read-only or full file system).

    Examples
    --------
    >>> target = check("tour.svg", "the drawing")
    >>> target == "tour.svg", target.identity is None
    (True, True)
    """
    name = os.path.basename(path)
    if path.endswith(os.sep) or name in ("", ".", ".."):
        raise InvalidArgument(f"{path} names a folder; give a file name for {kind}")
    if owned_files.name_bytes(name) > owned_files.NAME_MAX:
        raise InvalidArgument(
            f"cannot write {path[:40]}...: its name passes the {owned_files.NAME_MAX} bytes a file name may have"
        )
    _probe(path)
    checked = CheckedPath(path)
    checked.identity = identity(path)
    return checked


def _probe(path):
    """Make, write and remove a temporary of ``path`` under the name
    ``replace`` gives it: InvalidArgument naming ``path`` if that fails."""
    folder, name = os.path.split(os.path.abspath(path))
    try:
        handle, temporary = tempfile.mkstemp(prefix=owned_files.temporary_prefix(name), suffix=".tmp", dir=folder)
    except OSError as error:
        raise InvalidArgument(f"cannot write {path}: {error.strerror or error}") from None
    try:
        os.write(handle, b"\0" * _PROBE_BYTES)
    except OSError as error:
        raise InvalidArgument(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        os.close(handle)
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _umask():
    # os.umask can only be read by setting it; set it straight back
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def replace(path, fill, binary=False, shared=False):
    """Write ``path`` through ``fill(file)``, an open temporary file (bytes
    if ``binary``, else UTF-8 text). ``shared``: the file gets the
    permissions a new file of this user gets (mkstemp's are 0600, right for
    a checkpoint, wrong for a picture). A ``CheckedPath`` is replaced only
    if the file there is the one checked (``TargetChanged`` otherwise).
    Raises OSError, nothing written."""
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
        if isinstance(path, CheckedPath) and identity(path) != path.identity:
            raise TargetChanged(path, _keep_aside(temporary, path))
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError) and not isinstance(error, TargetChanged):
            raise _naming(error, path) from None
        raise


def _keep_aside(temporary, path):
    """Rename ``temporary`` to a free name beside ``path`` (``NAME.new.EXT``,
    then ``NAME.new-2.EXT`` and on), never over a file; that name."""
    folder, name = os.path.split(os.path.abspath(path))
    stem, extension = os.path.splitext(name)
    for number in range(1, 1000):
        tail = f".new{'' if number == 1 else f'-{number}'}{extension}"
        side = os.path.join(folder, owned_files.fitted(stem, tail))
        try:
            # the name is taken first, so that the rename replaces only a file of ours
            os.close(os.open(side, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            continue
        try:
            os.replace(temporary, side)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(side)
            raise
        return side
    raise OSError(errno.EEXIST, "no free name beside it for the new file", os.fspath(path))


def _naming(error, path):
    """The OSError of a write naming ``path``, the file the user asked for,
    not the temporary (a full disk's names no file at all)."""
    return OSError(error.errno, error.strerror, os.fspath(path))
