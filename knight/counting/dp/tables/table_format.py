"""This module says how the DP's table is kept, in memory and on disk.

A table is two arrays, ``keys`` (one ``uint64`` a state) and ``counts``
(``(states, limbs)`` of ``uint64``, least significant limb first). On disk
it is packed (``packed_table``), as the out-of-core step writes and reads it
and as ``to_disk`` writes it. The hash step's disk shards leave it instead
as two files of raw bytes, ``keys`` and ``counts``, mapped back, so that the
page cache holds them, not this process. A checkpoint links either
(``checkpoints.linked_table``)."""

import numpy as np

from knight.counting.dp.tables import packed_table


def mapped(path, shape):
    """The table in the file at ``path`` as an array of ``shape``, mapped
    (the page cache holds it, not this process)."""
    if shape[0] == 0:
        return np.zeros(shape, dtype=np.uint64)
    # copy-on-write: the kernel's argument type is a plain writable array
    return np.asarray(np.memmap(path, dtype=np.uint64, mode="c", shape=shape))


def is_mapped(array):
    """Whether ``array``'s data is on disk (a packed table, or a mapped
    file: page cache), not memory."""
    return isinstance(array, packed_table.PackedTable) or mapped_file(array) is not None


def to_disk(keys, counts, folder):
    """The table ``keys``/``counts`` written packed to ``folder``, so that
    the memory it held can be freed; returns the ``PackedTable`` as both."""
    table = packed_table.pack(keys, counts, folder)
    return table, table


def mapped_file(array):
    """The file ``array``'s data is mapped from (``mapped`` made it), or None."""
    while array is not None:
        if isinstance(array, np.memmap):
            return array.filename
        array = getattr(array, "base", None)
    return None
