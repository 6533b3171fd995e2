"""This module runs the public searches.

It validates the arguments, builds the arrays, runs a kernel and wraps its
answer in a ``Result``.

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
    """Compile the search kernels of each method now, or load them from Numba's cache.

    A method's first search in a process pays for its compilation once.
    ``solve`` calls this function first, so that ``Result.seconds`` never
    includes compilation; call it yourself to pay that cost at a time of your
    choosing.

    Parameters
    ----------
    methods : str or iterable of str, default ("backtrack", "warnsdorff", "greedy")
        The methods whose kernels to compile: ``"backtrack"``,
        ``"warnsdorff"`` or ``"greedy"``.

    Returns
    -------
    dict of str to float
        For each method, the seconds its compilation took in this process.
        A method compiled earlier in the process shows its first time again.

    Raises
    ------
    InvalidArgument
        If ``methods`` is empty or names an unknown method.

    See Also
    --------
    solve : Search for one tour, compiling its method's kernels first.

    Examples
    --------
    >>> import knight
    >>> seconds = knight.compile_kernels(["greedy", "warnsdorff"])
    >>> sorted(seconds)
    ['greedy', 'warnsdorff']
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
    """Search for one knight's tour of a board from a start square.

    Parameters
    ----------
    rows, cols : int
        The board's number of rows and columns, each at least 1.
    start : tuple of int, default (0, 0)
        The start square as a 0-based ``(row, col)`` pair.
    method : {"warnsdorff", "backtrack", "greedy"}, default "warnsdorff"
        How to search. ``"backtrack"`` tries the moves in a fixed order and
        backtracks. ``"warnsdorff"`` tries first the moves to the squares
        with the fewest onward moves, and backtracks. ``"greedy"`` follows
        Warnsdorff's rule without backtracking, so it can end in a dead end.
    budget : int, optional
        The most nodes (squares placed) the search may visit before it gives
        up. None means ``knight.validate.DEFAULT_BUDGET``, 100,000,000.
    closed : bool, default False
        Whether the tour must be closed: its last square a knight's move
        from its first.
    tiebreak : {"first", "roth"}, default "first"
        How Warnsdorff's rule orders squares with equally few onward moves.
        ``"first"`` keeps the move order, and ``"roth"`` prefers the square
        farthest from the board's centre.

    Returns
    -------
    Result
        The outcome. ``Result.status`` is ``"found"`` with the tour in
        ``Result.tour``, ``"none"`` when the whole search found no tour,
        ``"budget"`` when the search gave up after ``budget`` nodes, or
        ``"dead-end"`` when the greedy search got stuck.

    Raises
    ------
    InvalidArgument
        If an argument is out of range, or if the board would not fit in the
        memory available.

    See Also
    --------
    is_tour : Check a tour independently of the search.
    tour_exists : Say whether a board has a tour at all, without searching.

    Examples
    --------
    >>> import knight
    >>> result = knight.solve(5, 5)
    >>> result.status, result.nodes
    ('found', 25)
    >>> result.tour[:5]
    array([ 0,  7,  4, 13, 24], dtype=int32)
    >>> knight.is_tour(5, 5, result.tour)
    True
    >>> knight.solve(4, 4, method="backtrack").status
    'none'
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
