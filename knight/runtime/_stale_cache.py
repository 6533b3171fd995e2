"""This module empties a folder of cached kernels once knight's sources change.

Why: Numba keys each cached kernel on its own module's source file (its
modification time and size) and on the kernel's own bytecode. A kernel
that calls or inlines a helper from another module holds the helper's
machine code too, and Numba keeps that code when only the helper's module
changes. After a ``git pull`` that fixes such a helper, a count would run
the old helper from the cache. So each cache folder carries a stamp, a
digest of every source file of the package, and the folder's cached kernels
are dropped when the stamp differs from the sources at hand.

Only Numba's index and data files (``.nbi``, ``.nbc``) of the package's own
kernels are removed: each cache folder belongs to one folder of the package.
"""

import functools
import hashlib
import os

STAMP_NAME = "knight-sources.sha256"
_CACHE_SUFFIXES = (".nbi", ".nbc")
_checked = set()


@functools.cache
def sources_digest(package_folder):
    """Return the SHA-256 of every ``.py`` file below ``package_folder``, with their paths.

    Examples
    --------
    >>> import os, knight
    >>> len(sources_digest(os.path.dirname(knight.__file__)))
    64
    """
    digest = hashlib.sha256()
    for folder, folders, files in os.walk(package_folder):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, package_folder).encode())
                with open(path, "rb") as source:
                    digest.update(hashlib.sha256(source.read()).digest())
    return digest.hexdigest()


def forget_if_stale(dispatcher, package_folder):
    """Empty ``dispatcher``'s cache folder if its stamp is not the digest of ``package_folder``.

    Each folder is checked once a process, before any kernel in it is loaded:
    Numba reads a cached kernel at its first call, not at its decoration. A
    folder that cannot be read or written is left as it is.
    """
    folder = getattr(getattr(dispatcher, "_cache", None), "_cache_path", None)
    if folder is None or folder in _checked:
        return
    _checked.add(folder)
    digest = sources_digest(package_folder)
    stamp = os.path.join(folder, STAMP_NAME)
    try:
        with open(stamp) as held:
            if held.read().strip() == digest:
                return
    except OSError:
        pass  # no stamp yet: what the folder holds has no known sources
    partial = f"{stamp}.{os.getpid()}"
    try:
        # made now, if Numba has not yet: a folder left unstamped would be emptied by the next process
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):
            if name.endswith(_CACHE_SUFFIXES):
                os.remove(os.path.join(folder, name))
        # written whole, then renamed: a process beside this one reads the old stamp or the new
        with open(partial, "w") as written:
            written.write(digest + "\n")
        os.replace(partial, stamp)
    except OSError:
        pass  # another process removed a file first, or the folder is read-only: Numba copes
    finally:
        if os.path.exists(partial):
            os.remove(partial)
