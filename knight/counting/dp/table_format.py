"""The DP's dense table on disk: a table is two arrays, ``keys`` (one
``uint64`` a state) and ``counts`` (``(states, limbs)`` ``uint64``, least
significant limb first), and on disk it is two files of their raw bytes,
``keys`` and ``counts``, in a spill folder. Mapped back, the page cache
holds them, not this process; the steps that go out of core write them,
and a checkpoint links them (``checkpoints.linked_table``)."""

import os

import numpy as np

from knight.exit_status import naming


def mapped(path, shape):
    """The table in the file at ``path`` as an array of ``shape``, mapped
    (the page cache holds it, not this process)."""
    if shape[0] == 0:
        return np.zeros(shape, dtype=np.uint64)
    # copy-on-write: the kernel's argument type is a plain writable array
    return np.asarray(np.memmap(path, dtype=np.uint64, mode="c", shape=shape))


def is_mapped(array):
    """Whether ``array``'s data is a mapped file (page cache), not memory."""
    return mapped_file(array) is not None


def to_disk(keys, counts, folder):
    """The table ``keys``/``counts`` written to ``folder`` and mapped back,
    so that the memory it held can be freed."""
    with naming(folder):
        for name, array in (("keys", keys), ("counts", counts)):
            with open(os.path.join(folder, name + ".next"), "wb") as handle:
                handle.write(memoryview(np.ascontiguousarray(array)))
            os.replace(os.path.join(folder, name + ".next"), os.path.join(folder, name))
    return (
        mapped(os.path.join(folder, "keys"), keys.shape),
        mapped(os.path.join(folder, "counts"), counts.shape),
    )


def mapped_file(array):
    """The file ``array``'s data is mapped from (``mapped`` made it), or None."""
    while array is not None:
        if isinstance(array, np.memmap):
            return array.filename
        array = getattr(array, "base", None)
    return None
