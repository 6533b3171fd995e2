"""Where runs live: one folder per run under results/, and a pointer to the newest.

``results/latest`` is a relative symlink to the newest run folder, so the
tree can be moved or copied whole. Where symlinks cannot be made, it is a
one-line text file naming the folder instead; ``resolve`` reads either.
"""

import os
from pathlib import Path

from knight.errors import InvalidArgument

RESULTS = Path("results")
LATEST = "latest"


def new_run_folder(parent, date, commit, dirty):
    """Create and return ``parent/DATE-COMMIT[-dirty]``, suffixed -2, -3, ...
    when a run of the same day and commit is already there."""
    parent = Path(parent)
    parent.mkdir(parents=True, exist_ok=True)
    stem = f"{date}-{commit}" + ("-dirty" if dirty else "")
    for attempt in range(1, 10_000):
        folder = parent / (stem if attempt == 1 else f"{stem}-{attempt}")
        try:
            folder.mkdir()
            return folder
        except FileExistsError:
            continue
    raise InvalidArgument(f"too many runs named {stem} in {parent}")


def point_latest(folder):
    """Make ``folder.parent/latest`` name ``folder``, replacing it atomically."""
    folder = Path(folder)
    pointer = folder.parent / LATEST
    temporary = folder.parent / f".{LATEST}.tmp"
    if temporary.is_symlink() or temporary.exists():
        temporary.unlink()
    try:
        os.symlink(folder.name, temporary)
    except OSError:
        temporary.write_text(folder.name + "\n")
    if pointer.is_dir() and not pointer.is_symlink():
        raise InvalidArgument(f"{pointer} is a real folder; move it away so it can point at the newest run")
    os.replace(temporary, pointer)


def resolve(path):
    """The run folder ``path`` names: itself, or what a ``latest`` pointer
    points at. InvalidArgument when there is none."""
    path = Path(path)
    if path.is_symlink():
        path = path.parent / os.readlink(path)
    elif path.is_file():
        path = path.parent / path.read_text().strip()
    if not path.is_dir():
        if path.name == LATEST:
            raise InvalidArgument(f"{path} does not exist yet: run 'make bench' (or python -m bench) first")
        raise InvalidArgument(f"run folder {path} does not exist")
    return path
