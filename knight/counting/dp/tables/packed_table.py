"""This module keeps the DP's table on disk, packed, as a few files of blocks in a spill folder.

``packed_kernels`` writes each block's keys as gaps and each count in the
bytes it needs. An index lists the blocks, with the file, the byte each
block starts at, and its states. A step reads the table a chunk of blocks at
a time, decoded into the dense arrays its kernels take, and never holds the
whole table in memory.

A ``PackedTable`` stands in for both arrays of a dense table where the
run loop passes them on: its ``shape`` is the counts' (states, limbs),
so ``keys.shape[0]`` and ``counts.shape[1]`` read as they do of arrays.
"""

import contextlib
import functools
import itertools
import os
import re

import numpy as np

from knight.counting.dp.runs import worker_threads
from knight.counting.dp.tables import packed_kernels
from knight.exit_status import naming

# a table written from memory (``pack``): blocks of this many rows, each
# sorted (larger blocks, smaller gaps; a block's sort stays cheap), in
# files of this many blocks
BLOCK_ROWS = 1 << 18
FILE_BLOCKS = 8
_NAME = re.compile(r"t(\d+)-\d+\.packed")


class PackedTable:
    """A packed table: ``files`` (paths), the index's columns ``file``,
    ``start`` and ``states`` (one row a block), ``limbs`` its counts are
    decoded into. ``disposable``: its files are the run's spill files,
    removed once stepped (a checkpoint's links are never removed here)."""

    def __init__(self, files, index, limbs, disposable):
        self.files = list(files)
        self.index = np.asarray(index, dtype=np.int64).reshape(-1, 3)
        self.limbs = int(limbs)
        self.disposable = disposable

    @property
    def shape(self):
        return (int(self.index[:, 2].sum()), self.limbs)

    def widened(self, limbs):
        """The same table, decoded into ``limbs`` limbs."""
        return PackedTable(self.files, self.index, limbs, self.disposable)

    def disk_bytes(self):
        return sum(os.path.getsize(path) for path in self.files)

    def decoded(self, first, end, arrays=None, threads=1):
        """Blocks ``first`` .. ``end`` - 1 as dense ``(keys, counts)``, in
        new arrays or over the one ``arrays`` (a ``StepArrays``) holds as
        ``"input"``, decoded by ``threads`` threads, a run of blocks each."""
        blocks = self.index[first:end]
        rows = np.concatenate(([0], np.cumsum(blocks[:, 2]))).astype(np.int64)
        states = int(rows[-1])
        if arrays is None:
            keys = np.empty(states, dtype=np.uint64)
            counts = np.empty((states, self.limbs), dtype=np.uint64)
        else:
            held = arrays.empty("input", states * (1 + self.limbs))
            keys, counts = held[:states], held[states:].reshape(states, self.limbs)
        # each thread a run of whole blocks of about as many states
        bounds = [*np.searchsorted(rows, [states * t // threads for t in range(threads)]).tolist(), len(blocks)]
        spans = [(int(low), int(high)) for low, high in itertools.pairwise(bounds) if low < high]

        def decode(span):
            low, high = span
            mine = blocks[low:high]
            row = int(rows[low])
            for number in np.unique(mine[:, 0]).tolist():
                # contiguous columns: the kernel's one signature, the tests' too
                in_file = mine[:, 0] == number
                starts, held = np.ascontiguousarray(mine[in_file, 1]), np.ascontiguousarray(mine[in_file, 2])
                data = np.memmap(self.files[number], dtype=np.uint8, mode="r")
                row = packed_kernels.decode_blocks(data, starts, held, keys, counts, row)
                del data
            return row

        worker_threads.map_all(decode, spans, threads=threads)
        return keys, counts

    def chunks(self, rows):
        """``key_chunks``' chunks of this table: whole blocks, about
        ``rows`` states each (at least one block)."""
        states = self.index[:, 2]
        made, first, block = [], 0, 0
        while block < states.shape[0]:
            end = _block_end(states, block, rows)
            made.append((first, functools.partial(self._keys_of, block, end)))
            first += int(states[block:end].sum())
            block = end
        return made

    def _keys_of(self, first, end):
        return self.decoded(first, end)[0]

    def remove(self):
        """Remove the files if they are the run's own (``disposable``)."""
        if self.disposable:
            for path in self.files:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)


def dense(keys, counts):
    """The table as dense arrays: a packed one decoded whole (for a step
    that fits in memory), arrays as they are."""
    if isinstance(keys, PackedTable):
        return keys.decoded(0, keys.index.shape[0])
    return keys, counts


class Reader:
    """A step's input, a chunk at a time: rows of dense arrays, or whole
    blocks of a packed table (at least one), decoded."""

    def __init__(self, keys, counts):
        self.packed = keys if isinstance(keys, PackedTable) else None
        self.keys, self.counts = keys, counts
        self.states = keys.shape[0]
        self.read = 0
        self._block = 0

    def done(self):
        return self.read >= self.states

    def take(self, rows, arrays=None, threads=1):
        """About ``rows`` states (dense: exactly, up to the end); a packed
        table's decoded by ``threads`` threads over the ``"input"`` that
        ``arrays`` holds (None: into new arrays), valid until the next
        ``take``."""
        if self.packed is None:
            first = self.read
            self.read = min(self.states, first + max(rows, 1))
            return self.keys[first : self.read], self.counts[first : self.read]
        states = self.packed.index[:, 2]
        end = _block_end(states, self._block, rows)
        chunk = self.packed.decoded(self._block, end, arrays, threads)
        self._block, self.read = end, self.read + int(states[self._block : end].sum())
        return chunk


def _block_end(states, block, rows):
    """The end of the blocks from ``block`` on that hold at most ``rows``
    states (``states``: each block's), at least one block."""
    end = block + 1
    held = int(states[block]) if block < states.shape[0] else 0
    while end < states.shape[0] and held + states[end] <= rows:
        held += int(states[end])
        end += 1
    return end


def key_chunks(keys, rows):
    """A table's keys (arrays, or a ``PackedTable``) in chunks of about
    ``rows`` states, in order, as ``(first, read)``: ``read()`` gives the
    chunk's keys, its first the table's state ``first``. A chunk is read
    (a packed one decoded) only when asked, apart from the others: threads
    can share them out."""
    if isinstance(keys, PackedTable):
        return keys.chunks(rows)
    return [(first, functools.partial(_rows, keys, first, first + rows)) for first in range(0, keys.shape[0], rows)]


def _rows(keys, first, end):
    return keys[first:end]


def next_prefix(folder):
    """A name prefix no packed table in ``folder`` has yet."""
    taken = [int(match.group(1)) for name in os.listdir(folder) if (match := _NAME.fullmatch(name))]
    return os.path.join(folder, f"t{max(taken, default=-1) + 1}")


class Writer:
    """A packed table written a file at a time (``add``), then ``finish``ed."""

    def __init__(self, prefix, limbs):
        self.prefix, self.limbs = prefix, limbs
        self.files, self.index = [], []

    def add(self, data, ends, states):
        """A file of ``data`` (bytes up to ``ends[-1]``), blocks ending at
        ``ends`` with ``states`` states each; a file of no states is not made."""
        if not len(ends) or not int(np.sum(states)):
            return
        number = len(self.files)
        path = f"{self.prefix}-{number}.packed"
        with open(path, "wb") as handle:
            handle.write(memoryview(data[: int(ends[-1])]))
        self.files.append(path)
        starts = np.concatenate(([0], np.asarray(ends[:-1], dtype=np.int64)))
        self.index.append(np.stack([np.full(len(ends), number), starts, np.asarray(states)], axis=1))

    def finish(self):
        index = np.concatenate(self.index) if self.index else np.zeros((0, 3), dtype=np.int64)
        return PackedTable(self.files, index, self.limbs, disposable=True)


def pack(keys, counts, folder):
    """The dense table ``keys``/``counts`` written packed into ``folder``."""
    writer = Writer(next_prefix(folder), counts.shape[1])
    rows = keys.shape[0]
    step = BLOCK_ROWS * FILE_BLOCKS
    with naming(folder):
        for first in range(0, rows, step):
            end = min(rows, first + step)
            bounds = np.arange(first, end, BLOCK_ROWS, dtype=np.int64)
            bounds = np.append(bounds, end) - first
            part_keys, part_counts = keys[first:end], np.ascontiguousarray(counts[first:end])
            data = np.empty(packed_kernels.most_bytes(end - first, counts.shape[1]), dtype=np.uint8)
            ends = packed_kernels.encode_blocks(part_keys, part_counts, bounds, data)
            writer.add(data, ends, np.diff(bounds))
    return writer.finish()
