"""This module holds the arrays that a run's partitioned steps in memory write over, from step to step.

The holder is ``StepArrays``.

Why: the pages of a new array are new to the process, and the kernel
zeroes each one at its first touch (on this project's virtual machines,
slowly: the host backs the page too). Made new each step, the emit
buffers, partition tables and next table of 7 x 7 open's run spent a large
share of its CPU samples in the kernel's ``clear_page``
(journal: "Arrays a run holds from step to step"). Held, a
run takes most of its pages once.

What is held, and why the run's peak stays what fresh arrays gave:

- two *slots* take turns. A step's emit buffers are carved from the slot
  its input does not lie in; once they are emptied, its next table is
  carved from the same slot, over them, and the slot's pages past the
  table are given back (``trim``): the next step, which reads that table
  and writes in the other slot, holds no more than the table there;
- each thread's partition tables, the largest a step regrew them to. A
  step sizes its tables for a high guess of its states as far as the
  tables held have the pages (``partitioned_step._table_bits``), and lets
  them go first only where that guess would ask for less than a quarter
  of them (a chunk out of core, with no guess: less than half), since
  were it to regrow them it would hold the old and the regrown at once.

A step out of core holds its own (``out_of_core_step``), from chunk to
chunk and through its merge: its chunks' decoded input (``"input"``), a
slot and the tables, and the packing and the merge written over those
done with (``spare``).

An array is made with headroom over what was asked: the pages of it not
yet touched take no memory, and a growing run's next step, a little
larger, finds its array big enough. ``room`` counts only the bytes a step
has touched, which the process's resident memory holds.
"""

import mmap

import numpy as np

# an array made is this much larger than asked: a growing run's next step
# (1.1 to 1.5 times the last's states at their peak) then fits the pages
# the last touched and the untouched ones beyond
_HEADROOM = 1.5
_SLOTS = ("slot-a", "slot-b")
# what the kernel hands and takes back in one piece: a huge page (a
# release inside one would split it)
_PAGE = 1 << 21


class StepArrays:
    """Arrays held by name, handed out as views (``empty``) that stay
    valid until the next ``empty`` of that name; each made ``headroom``
    times the words asked, but not past ``most_bytes`` (None: no bound)
    unless the ask itself is larger.

    Why the bound: the untouched pages take no memory, but the kernel's
    default overcommit refuses a mapping past the machine's memory
    (``ENOMEM``), whatever is touched: a step out of core, whose trial
    chunk asks for an eighth of what the next asks, mapped that next
    chunk's arrays 10 times over on 8 x 8 open and failed."""

    def __init__(self, headroom=_HEADROOM, most_bytes=None):
        self._held = {}
        self._touched = {}
        self._headroom = headroom
        self._most_words = None if most_bytes is None else int(most_bytes) // 8

    def empty(self, name, words, most=None):
        """A uint64 array of ``words`` entries, its contents undefined: the
        front of the one held as ``name``, or a new one, with headroom,
        where that one is smaller, or has touched more than ``most`` times
        ``words`` (the one held goes first)."""
        words = int(words)
        held = self._held.pop(name, None)
        if held is None or held.shape[0] < words or (most and self._touched[name] > most * 8 * words):
            held = None
            held = _mapped(max(self._made_words(words), 1))
            self._touched[name] = 0
        self._held[name] = held
        self._touched[name] = max(self._touched[name], 8 * words)
        return held[:words]

    def _made_words(self, words):
        """The words to make for an ask of ``words``: with headroom, within the bound."""
        made = int(words * self._headroom)
        if self._most_words is not None:
            made = min(made, max(self._most_words, words))
        return made

    def trim(self, name, words):
        """Give back the pages of the array held as ``name`` past its first
        ``words`` entries: a slot that held a step's emit buffers keeps no
        more than the table made over them, which the next step reads
        (resident, its pages would sit under that step's peak)."""
        held = self._held[name]
        start = -(-8 * words // _PAGE) * _PAGE
        mapping = _mapping(held)
        if start < self._touched[name] and mapping is not None:
            mapping.madvise(mmap.MADV_DONTNEED, start, held.nbytes - start)
            self._touched[name] = start

    def hold(self, name, array):
        """Hold ``array`` (written whole) as ``name`` where it is larger
        than the one held: a partition table a step regrew past the one it
        was handed."""
        if name not in self._held or array.nbytes > self._held[name].nbytes:
            self._held[name] = array
            self._touched[name] = array.nbytes

    def touched(self, name):
        """The bytes of the array held as ``name`` that steps have written
        (0 if none is held): what a step may write there and take no new
        pages."""
        return self._touched.get(name, 0)

    def free_slot(self, keys):
        """The slot a step reading ``keys`` writes in: one ``keys`` does not
        lie in."""
        for name in _SLOTS:
            if not _lies_in(keys, self._held.get(name)):
                return name
        raise AssertionError("a table lies in both slots")

    def room(self, keys):
        """The bytes held that a step reading ``keys`` may write over: those
        it has touched (resident) of every array ``keys`` does not lie in."""
        return sum(array.nbytes for array in self.spare(keys))

    def spare(self, *kept):
        """The arrays held that none of ``kept`` lies in, each cut to the
        bytes it has touched: scratch for a caller done with them that
        still reads ``kept`` (a step out of core packs a chunk's tables, and
        its merge each group, over them), whose writes there take no new
        pages."""
        return [
            held[: self._touched[name] // 8]
            for name, held in self._held.items()
            if not any(_lies_in(keys, held) for keys in kept)
        ]

    def release(self):
        """Hold nothing (a view handed out keeps its own array)."""
        self._held.clear()
        self._touched.clear()


def _mapped(words):
    """``words`` uint64 entries in a private anonymous mapping of their own
    (whose pages ``trim`` can give back; numpy's allocator cannot), huge
    pages asked for as numpy asks for its own; under a huge page, numpy's
    (a small step's: a mapping's first touch would zero a whole huge page)."""
    if 8 * words < _PAGE:
        return np.empty(words, dtype=np.uint64)
    size = -(-8 * words // _PAGE) * _PAGE
    mapping = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        mapping.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(mapping, dtype=np.uint64)[:words]


def _mapping(array):
    """The ``mmap`` under ``array`` (a view of ``_mapped``'s), None under
    numpy's own."""
    while isinstance(array, np.ndarray):
        array = array.base
    # a mapping's: the memoryview numpy took of it
    return array.obj if isinstance(array, memoryview) and isinstance(array.obj, mmap.mmap) else None


def _lies_in(keys, held):
    return held is not None and isinstance(keys, np.ndarray) and np.may_share_memory(keys, held)
