"""Public searches: validate arguments, build arrays, run a kernel, wrap it.

Kernels trust their inputs; everything a user can get wrong is caught here
(or in ``validate``) with a message that names the valid range.
"""

import time

import numpy as np

from knight import validate
from knight.exit_status import signals_raised_as_such
from knight.geometry.neighbours import neighbour_table
from knight.result import Result
from knight.runtime import status
from knight.search import search_kernels as kernels
from knight.validate import DEFAULT_BUDGET

_TIEBREAK = {"first": kernels.TIEBREAK_FIRST, "roth": kernels.TIEBREAK_ROTH}

_compile_seconds = {}


# Each runner builds the arrays its kernel trusts, scratch included, then
# times the kernel call alone: set-up is not search work. Every array is
# written once before the clock starts (kernels.touched), so that the timed
# call pays no page faults: fresh pages made some repeats 3x slower on
# large boards.


def _run_backtrack(rows, cols, start, closed, budget, tiebreak):
    neighbours = neighbour_table(rows, cols)
    path = kernels.touched(rows * cols, np.int32)
    scratch = kernels.backtrack_scratch(rows * cols)
    began = time.perf_counter()
    code, _, nodes = kernels.backtrack(neighbours, start, closed, budget, True, path, *scratch)
    return code, nodes, path, time.perf_counter() - began


# the bitboard kernel holds the visited set in one uint64
BITBOARD_SQUARES = 64


def warnsdorff_kernel(rows, cols):
    """The Warnsdorff kernel ``solve`` runs on this board: the bitboard one
    (about 1.3x faster, same nodes and tours) when it fits in 64 squares."""
    return kernels.warnsdorff_bits if rows * cols <= BITBOARD_SQUARES else kernels.warnsdorff


def _run_warnsdorff(rows, cols, start, closed, budget, tiebreak):
    neighbours = neighbour_table(rows, cols)
    keys = kernels.tie_keys(rows, cols, _TIEBREAK[tiebreak])
    path = kernels.touched(rows * cols, np.int32)
    kernel = warnsdorff_kernel(rows, cols)
    # the bitboard kernel's scratch is a few hundred bytes, its own
    scratch = () if kernel is kernels.warnsdorff_bits else kernels.warnsdorff_scratch(rows * cols)
    began = time.perf_counter()
    code, nodes = kernel(neighbours, keys, start, closed, budget, path, *scratch)
    return code, nodes, path, time.perf_counter() - began


def _run_greedy(rows, cols, start, closed, budget, tiebreak):
    path = kernels.touched(rows * cols, np.int32)
    degree = kernels.greedy_scratch(rows * cols)
    began = time.perf_counter()
    code, nodes = kernels.greedy(rows, cols, start, _TIEBREAK[tiebreak], closed, budget, path, degree)
    return code, nodes, path, time.perf_counter() - began


_RUNNERS = {"backtrack": _run_backtrack, "warnsdorff": _run_warnsdorff, "greedy": _run_greedy}


def compile_kernels(methods=validate.METHODS):
    """Compile (or load from cache) each method's kernels; return seconds each.

    A method's first call pays this once per process; ``solve`` calls it so
    that ``Result.seconds`` never includes compilation.
    """
    methods = validate.choices(methods, "method", validate.METHODS)
    for method in methods:
        if method not in _compile_seconds:
            began = time.perf_counter()
            # 3x4 and 9x9 exercise every branch and kernel variant the real
            # calls use (9x9 is past the bitboard's 64 squares)
            for closed in (False, True):
                for rows, cols in ((3, 4), (9, 9)):
                    _RUNNERS[method](rows, cols, 0, closed, 10, "first")
            _compile_seconds[method] = time.perf_counter() - began
    return {method: _compile_seconds[method] for method in methods}


@signals_raised_as_such
def solve(rows, cols, start=(0, 0), method="warnsdorff", budget=None, closed=False, tiebreak="first"):
    """Search for one knight's tour of ``rows x cols`` from ``start`` (0-based).

    ``method`` is ``backtrack`` (move order), ``warnsdorff`` (fewest onward
    moves first, with backtracking) or ``greedy`` (Warnsdorff, no
    backtracking). At most ``budget`` nodes are placed
    (default ``DEFAULT_BUDGET``). Returns a ``Result``.
    """
    rows, cols = validate.board(rows, cols)
    row, col = validate.start(rows, cols, start)
    method = validate.choice(method, "method", validate.METHODS)
    tiebreak = validate.choice(tiebreak, "tiebreak", validate.TIEBREAKS)
    budget = validate.budget(budget, DEFAULT_BUDGET)
    closed = validate.flag(closed, "closed")
    validate.fits_in_memory(rows, cols, method)
    compile_kernels([method])
    code, nodes, path, seconds = _RUNNERS[method](rows, cols, row * cols + col, bool(closed), budget, tiebreak)
    return Result(
        rows=rows,
        cols=cols,
        start=(row, col),
        method=method,
        closed=bool(closed),
        budget=budget,
        status=status.WORDS[code],
        nodes=int(nodes),
        seconds=seconds,
        tour=path if code == status.FOUND else None,
        tiebreak=tiebreak,
    )
