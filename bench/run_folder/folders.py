"""This module says where runs live, one folder for each run under results/, with a pointer to the newest.

``results/latest`` is a relative symlink to the newest run folder, so the
tree can be moved or copied whole. Where symlinks cannot be made, it is a
one-line text file naming the folder instead; ``resolve`` reads either.
"""

import os
import re
import secrets
from pathlib import Path

from knight import InvalidArgument

LATEST = "latest"
# what new_run_folder names a folder: DATE-COMMIT[-dirty][-N]
_RUN_NAME = re.compile(r"\d{4}-\d{2}-\d{2}-[A-Za-z0-9]+(?:-dirty)?(?:-\d+)?")


def check_parent(parent):
    """InvalidArgument, before anything is made, if run folders cannot go
    in ``parent``: it is a file, cannot be created or written, or holds a
    ``latest`` this program did not write (it would be replaced)."""
    parent = Path(parent)
    existing = next((p for p in (parent, *parent.parents) if p.exists()), None)
    if existing is not None and not existing.is_dir():
        raise InvalidArgument(f"cannot put run folders in {parent}: {existing} is not a folder")
    if existing is not None and not os.access(existing, os.W_OK | os.X_OK):
        raise InvalidArgument(f"cannot put run folders in {parent}: {existing} is not writable")
    pointer = parent / LATEST
    if (pointer.exists() or pointer.is_symlink()) and not _is_pointer(pointer):
        raise InvalidArgument(
            f"{pointer} was not written by python -m bench; move it away so it can point at the newest run"
        )


def _is_pointer(pointer):
    """Whether ``pointer`` is a ``latest`` this program wrote: a symlink to
    a run folder's name beside it (that folder may since have been removed),
    or a one-line file naming a run folder beside it. A user's own link
    (elsewhere, or to a folder of another name) is not ours to replace."""
    if pointer.is_symlink():
        try:
            return _RUN_NAME.fullmatch(os.readlink(pointer)) is not None
        except OSError:
            return False
    if not pointer.is_file() or pointer.stat().st_size > 4096:
        return False
    try:
        name = pointer.read_text().strip()
    except (OSError, UnicodeDecodeError):
        return False
    return _RUN_NAME.fullmatch(name) is not None and (pointer.parent / name).is_dir()


def new_run_folder(parent, date, commit, dirty):
    """Create and return ``parent/DATE-COMMIT[-dirty]``, suffixed -2, -3, ...
    when a run of the same day and commit is already there."""
    parent = Path(parent)
    check_parent(parent)
    stem = f"{date}-{commit}" + ("-dirty" if dirty else "")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        for attempt in range(1, 10_000):
            folder = parent / (stem if attempt == 1 else f"{stem}-{attempt}")
            try:
                folder.mkdir()
                return folder
            except FileExistsError:
                continue
    except OSError as error:
        raise InvalidArgument(f"cannot make a run folder in {parent}: {error.strerror or error}") from None
    raise InvalidArgument(f"too many runs named {stem} in {parent}")


def point_latest(folder):
    """Make ``folder.parent/latest`` name ``folder``, replacing it atomically."""
    folder = Path(folder)
    pointer = folder.parent / LATEST
    if pointer.is_dir() and not pointer.is_symlink():
        raise InvalidArgument(f"{pointer} is a real folder; move it away so it can point at the newest run")
    check_parent(folder.parent)
    # a name of our own, never one a user's file may carry: nothing of
    # theirs is replaced or removed on the way
    temporary = folder.parent / f".{LATEST}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
    try:
        os.symlink(folder.name, temporary)
    except FileExistsError:
        raise
    except OSError:  # no symlinks here: a file naming the folder
        with open(temporary, "x") as stream:
            stream.write(folder.name + "\n")
    try:
        os.replace(temporary, pointer)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def resolve(path):
    """The run folder ``path`` names: itself, or what a ``latest`` pointer
    points at. InvalidArgument when there is none."""
    path = Path(path)
    if path.is_symlink():
        path = path.parent / os.readlink(path)
    elif path.is_file():
        if not _is_pointer(path):
            raise InvalidArgument(f"{path} is a file, not a run folder (nor a 'latest' naming one)")
        path = path.parent / path.read_text().strip()
    if not path.is_dir():
        if path.name == LATEST:
            raise InvalidArgument(f"{path} does not exist yet: run 'make bench' (or python -m bench) first")
        raise InvalidArgument(f"run folder {path} does not exist")
    return path
