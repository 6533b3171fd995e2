"""This module builds one search's inputs and scratch once and times each call of the toolchain comparison.

Every compiled implementation (Numba, C by gcc and by clang, and Cython)
shares the same prepared arrays.

Everything is allocated and written before any clock starts (knight's
``kernels.touched``), so a timed call pays no allocation and no page fault;
each kernel resets inside its call what it reads (the Numba kernels do, and
the C and Cython ones copy them). An implementation's ``bind(prepared)``
gives two argument-free callables, the kernel and an empty function of the
same arguments, and bench/baselines/call_clock.py's ``timed`` reads the
clocks around either the same way for every implementation. Knight's kernels are looked up on first use (they
load Numba), so importing this module stays cheap.
"""

from dataclasses import dataclass

import numpy as np

from knight import harness_api
from knight.harness_api import status

_TIEBREAK = {"first": 0, "roth": 1}
# the kinds of kernel a search runs on: their calls differ, so does their fixed cost
KINDS = ("backtrack", "count", "warnsdorff", "warnsdorff_bits", "greedy")


@dataclass
class Prepared:
    """``kind`` is one of ``KINDS``; ``out`` (int64 x 3) takes the answer of
    kernels that write it (status first, then tours and nodes, or nodes)."""

    kind: str
    rows: int
    cols: int
    start: int
    closed: bool
    budget: int
    tiebreak: int
    neighbours: np.ndarray | None
    keys: np.ndarray | None
    path: np.ndarray
    scratch: tuple
    out: np.ndarray

    @property
    def squares(self):
        return self.rows * self.cols

    def arguments(self, bits_scratch=True):
        """The kernel's arguments in knight's kernels' order, which the
        Numba and Cython kernels share; ``bits_scratch`` False for Numba's
        bitboard kernel, which allocates its scratch inside the call."""
        common = (self.start, self.closed, self.budget)
        if self.kind == "greedy":
            return (self.rows, self.cols, self.start, self.tiebreak, self.closed, self.budget, self.path, *self.scratch)
        if self.kind in ("backtrack", "count"):
            return (self.neighbours, *common, self.kind == "backtrack", self.path, *self.scratch)
        scratch = self.scratch if self.kind == "warnsdorff" or bits_scratch else ()
        return (self.neighbours, self.keys, *common, self.path, *scratch)


def kind_of(search):
    """Which kernel ``search`` runs on, chosen as ``knight.solve`` chooses."""
    if search.method == "warnsdorff":
        return "warnsdorff_bits" if search.rows * search.cols <= harness_api.BITBOARD_SQUARES else "warnsdorff"
    return search.method


def bits_scratch(n):
    """The bitboard kernel's scratch for C and Cython, touched before the
    clock: masks, candidates, their degrees, and per depth their number
    and the next one. The Numba kernel allocates the same inside its call,
    less the degrees, which it recounts."""
    kernels = harness_api.search_kernels
    return (
        kernels.touched(n, np.uint64),
        kernels.touched(8 * n, np.int32),
        kernels.touched(8 * n, np.int64),
        kernels.touched(n, np.int64),
        kernels.touched(n, np.int64),
    )


def prepare(search):
    """The ``Prepared`` of a ``Search`` (bench/timing/named_search.py)."""
    kernels = harness_api.search_kernels
    rows, cols = search.rows, search.cols
    n = rows * cols
    kind = kind_of(search)
    tiebreak = _TIEBREAK[search.tiebreak]
    needs_table = kind != "greedy"
    scratch = {
        "backtrack": kernels.backtrack_scratch,
        "count": kernels.backtrack_scratch,
        "warnsdorff": kernels.warnsdorff_scratch,
        "warnsdorff_bits": bits_scratch,
        "greedy": lambda squares: (kernels.greedy_scratch(squares),),
    }[kind](n)
    return Prepared(
        kind=kind,
        rows=rows,
        cols=cols,
        start=search.start[0] * cols + search.start[1],
        closed=bool(search.closed),
        budget=search.budget,
        tiebreak=tiebreak,
        neighbours=harness_api.neighbour_table(rows, cols) if needs_table else None,
        keys=kernels.tie_keys(rows, cols, tiebreak) if kind.startswith("warnsdorff") else None,
        path=kernels.touched(n, np.int32),
        scratch=scratch,
        out=kernels.touched(3, np.int64),
    )


def answer_words(prepared, answer):
    """``(status word, nodes)`` of a kernel's return: its tuple (Numba,
    Cython; nodes last), or None when it wrote ``prepared.out`` (C)."""
    if answer is None:
        nodes = prepared.out[2] if prepared.kind in ("backtrack", "count") else prepared.out[1]
        return status.WORDS[int(prepared.out[0])], int(nodes)
    return status.WORDS[int(answer[0])], int(answer[-1])
