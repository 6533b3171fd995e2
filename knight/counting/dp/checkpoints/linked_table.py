"""A checkpoint's table that costs no copy: when a step ran out of core its
next table is already two files in the spill folder (``out_of_core_step``), so
the checkpoint links them into a folder beside it (``FILE.tables``, hard
links: the same data under a second name, nothing written) and names them
in its header, instead of writing the table into its own ``.npz``.

The spill folder replaces its table files step after step; a link keeps the
data of the step the checkpoint names until the checkpoint names another.
Where the link cannot be made (another filesystem, a table in memory) the
checkpoint embeds the table as before. The folder carries a mark file, a
folder of that name without it is refused, and inside it only files named
as table files are ever removed.
"""

import contextlib
import os
import re

import numpy as np

from knight.counting.dp import table_format
from knight.files import owned_files

TABLES_SUFFIX = ".tables"
TABLES_MARK = "knight-dp-tables"
_FOLDER_KIND = "a table folder"
_TABLE_FILE = re.compile(r"run-?\d+-step\d+\.(keys|counts)")


def folder_of(path):
    """The linked tables' folder of the checkpoint at ``path``."""
    return path + TABLES_SUFFIX


def check_folder(folder):
    """InvalidArgument if ``folder`` is there and is not a tables folder of ours."""
    owned_files.check_marked_folder(folder, TABLES_MARK, _FOLDER_KIND)


def link(folder, run_key, step, keys, counts):
    """Link the files ``keys`` and ``counts`` are mapped from into
    ``folder``; returns the header's ``table`` field (``{"keys", "counts",
    "rows", "limbs"}``), or None where the table is not two mapped files or
    the links cannot be made (it is then embedded)."""
    sources = [table_format.mapped_file(array) for array in (keys, counts)]
    if None in sources:
        return None
    owned_files.make_marked_folder(
        folder, TABLES_MARK, _FOLDER_KIND, "the tables of a knight dp checkpoint; removed when its count ends\n"
    )
    names = {kind: f"run{run_key}-step{step}.{kind}" for kind in ("keys", "counts")}
    try:
        for source, kind in zip(sources, ("keys", "counts"), strict=True):
            target = os.path.join(folder, names[kind])
            with contextlib.suppress(FileNotFoundError):
                os.unlink(target)  # named as ours, in our folder: a step saved again
            os.link(source, target)
    except OSError:
        return None  # another filesystem, or no hard links there: embed it
    return {**names, "rows": int(keys.shape[0]), "limbs": int(counts.shape[1])}


def load(folder, table, damaged):
    """The ``(keys, counts)`` a header's ``table`` field names, mapped;
    ``damaged(what)`` makes the error for a field or file that is wrong.
    The checkpoint's checksum covers their bytes (checked after)."""
    if not (
        isinstance(table, dict)
        and set(table) == {"keys", "counts", "rows", "limbs"}
        and all(isinstance(table[kind], str) and _TABLE_FILE.fullmatch(table[kind]) for kind in ("keys", "counts"))
        and all(isinstance(table[n], int) and not isinstance(table[n], bool) for n in ("rows", "limbs"))
        and table["rows"] > 0
        and table["limbs"] > 0
    ):
        raise damaged(f"'table' is {str(table)[:80]}")
    shapes = {"keys": (table["rows"],), "counts": (table["rows"], table["limbs"])}
    arrays = []
    for kind in ("keys", "counts"):
        file = os.path.join(folder, table[kind])
        size = int(np.prod(shapes[kind])) * 8
        if not os.path.isfile(file) or os.path.getsize(file) != size:
            raise damaged(f"its table file {file} is missing or not {size} bytes")
        arrays.append(table_format.mapped(file, shapes[kind]))
    return tuple(arrays)


def remove_unnamed(folder, table):
    """Remove the table files of ours in ``folder`` that ``table`` (a
    header's field, or None) does not name; the folder too once only its
    mark is left."""
    named = set() if table is None else {table["keys"], table["counts"]}
    owned_files.remove_unnamed(folder, _TABLE_FILE, named)
    owned_files.remove_if_only_mark(folder, TABLES_MARK)
