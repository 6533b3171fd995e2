"""This module saves a checkpoint's table without copying it.

When a step ran out of core, its next table is already files in the spill
folder. These are a packed table's files (``packed_table``) or the hash
step's shards, which are two dense files. The checkpoint links them into a
folder beside it (``FILE.tables``) with hard links, which give the same data
a second name and write nothing. The header names the files, and a packed
table's block index too, instead of writing the table into the checkpoint's
own ``.npz``.

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

from knight.counting.dp.tables import packed_table, table_format
from knight.files import owned_files

TABLES_SUFFIX = ".tables"
TABLES_MARK = "knight-dp-tables"
_FOLDER_KIND = "a table folder"
_TABLE_FILE = re.compile(r"run-?\d+-step\d+(\.keys|\.counts|-\d+\.packed)")
_PACKED_FIELDS = {"packed", "index", "rows", "limbs"}


def folder_of(path):
    """The linked tables' folder of the checkpoint at ``path``."""
    return path + TABLES_SUFFIX


def check_folder(folder):
    """InvalidArgument if ``folder`` is there and is not a tables folder of ours."""
    owned_files.check_marked_folder(folder, TABLES_MARK, _FOLDER_KIND)


def link(folder, run_key, step, keys, counts):
    """Link the files ``keys`` and ``counts`` are mapped from into
    ``folder``; returns the header's ``table`` field (``{"keys", "counts",
    "rows", "limbs"}``; a packed table's: ``{"packed", "index", "rows",
    "limbs"}``), or None where the table is not on disk or the links
    cannot be made (it is then embedded)."""
    if isinstance(keys, packed_table.PackedTable):
        return _link_packed(folder, run_key, step, keys)
    sources = [table_format.mapped_file(array) for array in (keys, counts)]
    if None in sources:
        return None
    names = {kind: f"run{run_key}-step{step}.{kind}" for kind in ("keys", "counts")}
    if not _linked(folder, zip(sources, names.values(), strict=True)):
        return None
    return {**names, "rows": int(keys.shape[0]), "limbs": int(counts.shape[1])}


def _link_packed(folder, run_key, step, table):
    names = [f"run{run_key}-step{step}-{number}.packed" for number in range(len(table.files))]
    if not _linked(folder, zip(table.files, names, strict=True)):
        return None
    index = table.index.tolist()
    return {"packed": names, "index": index, "rows": table.shape[0], "limbs": table.limbs}


def _linked(folder, pairs):
    """Whether every ``(source, name)`` was linked as ``folder/name``."""
    owned_files.make_marked_folder(
        folder, TABLES_MARK, _FOLDER_KIND, "the tables of a knight dp checkpoint; removed when its count ends\n"
    )
    try:
        for source, name in pairs:
            target = os.path.join(folder, name)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(target)  # named as ours, in our folder: a step saved again
            os.link(source, target)
    except OSError:
        return False  # another filesystem, or no hard links there: embed it
    return True


def load(folder, table, damaged):
    """The ``(keys, counts)`` a header's ``table`` field names, mapped;
    ``damaged(what)`` makes the error for a field or file that is wrong.
    The checkpoint's checksum covers their bytes (checked after)."""
    if isinstance(table, dict) and set(table) == _PACKED_FIELDS:
        return _load_packed(folder, table, damaged)
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


def _load_packed(folder, table, damaged):
    """The packed table a header's ``table`` field names, as both arrays."""
    names, index, rows, limbs = (table[field] for field in ("packed", "index", "rows", "limbs"))
    if not (
        isinstance(names, list)
        and all(isinstance(name, str) and _TABLE_FILE.fullmatch(name) and name.endswith(".packed") for name in names)
        and isinstance(index, list)
        and all(isinstance(row, list) and len(row) == 3 and all(_whole(v) for v in row) for row in index)
        and _whole(rows)
        and _whole(limbs)
        and limbs > 0
    ):
        raise damaged(f"'table' is {str(table)[:80]}")
    files = [os.path.join(folder, name) for name in names]
    sizes = []
    for file in files:
        if not os.path.isfile(file):
            raise damaged(f"its table file {file} is missing")
        sizes.append(os.path.getsize(file))
    blocks = np.array(index, dtype=np.int64).reshape(-1, 3)
    if blocks.shape[0] and (
        int(blocks[:, 2].sum()) != rows
        or (blocks[:, 0] >= len(files)).any()
        or (blocks[:, 1] > np.array([*sizes, 0])[blocks[:, 0]]).any()
    ):
        raise damaged(f"its table's index does not fit its {len(files)} files")
    packed = packed_table.PackedTable(files, blocks, limbs, disposable=False)
    return packed, packed


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def remove_unnamed(folder, table):
    """Remove the table files of ours in ``folder`` that ``table`` (a
    header's field, or None) does not name; the folder too once only its
    mark is left."""
    named = set() if table is None else set(table.get("packed") or (table["keys"], table["counts"]))
    owned_files.remove_unnamed(folder, _TABLE_FILE, named)
    owned_files.remove_if_only_mark(folder, TABLES_MARK)
