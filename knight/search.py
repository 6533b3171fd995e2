"""Public searches: validate arguments, build arrays, run a kernel, wrap it.

Kernels trust their inputs; everything a user can get wrong is caught here
(or in ``validate``) with a message that names the valid range.
"""

import time

import numpy as np

from knight import kernels, validate
from knight.errors import InvalidArgument
from knight.board import neighbour_table
from knight.result import Count, Result

DEFAULT_BUDGET = 100_000_000
DEFAULT_COUNT_BUDGET = 10**12

_STATUS = {
    kernels.FOUND: "found",
    kernels.NONE: "none",
    kernels.BUDGET: "budget",
    kernels.DEAD_END: "dead-end",
}
_TIEBREAK = {"first": kernels.TIEBREAK_FIRST, "roth": kernels.TIEBREAK_ROTH}

_compile_seconds = {}


# Each runner builds the arrays its kernel trusts, then times the kernel
# call alone: set-up is not search work.


def _run_backtrack(rows, cols, start, closed, budget, tiebreak):
    neighbours = neighbour_table(rows, cols)
    path = np.zeros(rows * cols, dtype=np.int32)
    began = time.perf_counter()
    status, _, nodes = kernels.backtrack(neighbours, start, closed, budget, True, path)
    return status, nodes, path, time.perf_counter() - began


# the bitboard kernel holds the visited set in one uint64
BITBOARD_SQUARES = 64


def warnsdorff_kernel(rows, cols):
    """The Warnsdorff kernel ``solve`` runs on this board: the bitboard one
    (about 1.3x faster, same nodes and tours) when it fits in 64 squares."""
    return kernels.warnsdorff_bits if rows * cols <= BITBOARD_SQUARES else kernels.warnsdorff


def _run_warnsdorff(rows, cols, start, closed, budget, tiebreak):
    neighbours = neighbour_table(rows, cols)
    keys = kernels.tie_keys(rows, cols, _TIEBREAK[tiebreak])
    path = np.zeros(rows * cols, dtype=np.int32)
    kernel = warnsdorff_kernel(rows, cols)
    began = time.perf_counter()
    status, nodes = kernel(neighbours, keys, start, closed, budget, path)
    return status, nodes, path, time.perf_counter() - began


def _run_greedy(rows, cols, start, closed, budget, tiebreak):
    path = np.zeros(rows * cols, dtype=np.int32)
    began = time.perf_counter()
    status, nodes = kernels.greedy(rows, cols, start, _TIEBREAK[tiebreak], closed, budget, path)
    return status, nodes, path, time.perf_counter() - began


_RUNNERS = {"backtrack": _run_backtrack, "warnsdorff": _run_warnsdorff, "greedy": _run_greedy}


def compile_kernels(methods=validate.METHODS):
    """Compile (or load from cache) each method's kernels; return seconds each.

    A method's first call pays this once per process; ``solve`` calls it so
    that ``Result.seconds`` never includes compilation.
    """
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
    validate.fits_in_memory(rows, cols, method)
    compile_kernels([method])
    status, nodes, path, seconds = _RUNNERS[method](rows, cols, row * cols + col, bool(closed), budget, tiebreak)
    return Result(
        rows=rows,
        cols=cols,
        start=(row, col),
        method=method,
        closed=bool(closed),
        budget=budget,
        status=_STATUS[status],
        nodes=int(nodes),
        seconds=seconds,
        tour=path if status == kernels.FOUND else None,
        tiebreak=tiebreak,
    )


COUNT_METHODS = ("auto", "dfs", "dp")


def count_tours(rows, cols, start=None, closed=False, budget=None, progress=None, *, pruned=True,
                symmetry=True, depth=None, workers=None, scheduler=None, resume=None, method=None):
    """Count every tour (directed: a path and its reverse are two) from
    ``start``, or from every start square when ``start`` is None.

    ``pruned`` cuts branches that provably cannot finish a tour (same
    counts, far fewer nodes); ``symmetry`` searches one start per class of
    symmetric squares. The search is split into work units at ``depth``
    moves from the start (None: an automatic cut; 0: one unit per start),
    run on ``workers`` local threads (default all cores) or on the Dask
    cluster whose scheduler is at ``scheduler``. ``resume`` names a file
    recording finished units; units already there are not run again. Each
    work unit places at most ``budget`` nodes (default
    ``DEFAULT_COUNT_BUDGET``). ``progress``, if given, is called with
    ``(units finished, units in all)``. Returns a ``Count``.

    ``method``: ``dfs`` (the search above), ``dp`` (the frontier dynamic
    program of ``knight.frontier``: same counts, no enumeration; it takes
    ``start``, ``closed``, ``resume`` and ``progress``, called with
    ``(steps done, steps in all, states held)``), or None / ``auto``: the
    one expected to finish first on this board (see ``choose_count_method``).
    """
    from knight import counting

    rows, cols = validate.board(rows, cols)
    method = choose_count_method(rows, cols, closed, method, pruned=pruned, symmetry=symmetry, depth=depth,
                                 workers=workers, scheduler=scheduler, budget=budget)
    if method == "dp":
        return _count_dp(rows, cols, start, closed, progress, resume)
    budget = validate.budget(budget, DEFAULT_COUNT_BUDGET)
    validate.fits_in_memory(rows, cols, "count")
    if start is None:
        starts = range(rows * cols)
    else:
        row, col = validate.start(rows, cols, start)
        starts = [row * cols + col]
    if depth is not None:
        depth = validate.integer(depth, "depth", minimum=0, maximum=rows * cols - 1)
    if workers is not None:
        workers = validate.integer(workers, "workers", minimum=1)
    counting.count_unit(3, 4, False, pruned, 10, [0])  # compile (or load) before the clock starts
    executor = counting.local_executor(workers) if scheduler is None else counting.dask_executor(scheduler)
    plan, totals, seconds = counting.count(
        rows, cols, starts, bool(closed), bool(pruned), symmetry, depth, budget, executor, resume, progress
    )
    tours = np.zeros(rows * cols, dtype=np.int64)
    nodes = np.zeros(rows * cols, dtype=np.int64)
    for searched, members in plan.classes.items():
        tours[members] = totals.tours[searched]
        nodes[searched] = totals.nodes[searched]
    if start is None:
        tours, nodes = tours.reshape(rows, cols), nodes.reshape(rows, cols)
    else:
        tours, nodes = int(tours[starts[0]]), int(nodes[starts[0]])
    return Count(
        rows=rows,
        cols=cols,
        start=None if start is None else (row, col),
        closed=bool(closed),
        budget=budget,
        tours=tours,
        nodes=nodes,
        complete=all(totals.complete.values()),
        seconds=seconds,
        pruned=bool(pruned),
        depth=plan.depth,
        units=len(plan.units),
        method="dfs",
    )


# Measured crossover (grids, 2-core machine, 2026-11-30, medians under
# load; docs/counting-dp.md): the DFS finishes first up to 20 squares on
# boards with a side of 3 or 4 (4x5: a tie; 4x6, 3x10: the DP), and up to
# 40 squares with both sides 5 or more (5x7: DFS 1.2 s, DP 12.6 s; 6x6:
# DFS about 1.5 s, DP over a minute); past those the DFS's tree grows by
# a factor per column and the DP's work only linearly.
DFS_SQUARES_AT_MOST = 40
DFS_NARROW_SQUARES_AT_MOST = 20


def choose_count_method(rows, cols, closed, method=None, *, pruned=True, symmetry=True, depth=None, workers=None,
                        scheduler=None, budget=None):
    """The counting engine for ``count_tours``: ``method`` checked, or
    (None, ``auto``) the one expected to finish first. Options that only
    the DFS has are refused with ``dp``, and make ``auto`` pick the DFS."""
    method = validate.choice("auto" if method is None else method, "count method", COUNT_METHODS)
    dfs_only = {
        "plain (pruned=False)": not pruned,
        "symmetry=False": not symmetry,
        "depth": depth is not None,
        "workers": workers is not None,
        "scheduler": scheduler is not None,
        "budget": budget is not None,
    }
    asked = [name for name, given in dfs_only.items() if given]
    if method == "dp" and asked:
        raise InvalidArgument(f"{', '.join(asked)}: only the dfs count takes {'it' if len(asked) == 1 else 'them'}, not --method dp")
    if method != "auto":
        return method
    if asked:
        return "dfs"
    limit = DFS_NARROW_SQUARES_AT_MOST if min(rows, cols) <= 4 else DFS_SQUARES_AT_MOST
    if rows * cols <= limit:
        return "dfs"
    from knight import frontier

    try:
        frontier.check_fits(rows, cols, validate.available_memory())
    except InvalidArgument:
        return "dfs"  # slow, but the DP could not run at all
    return "dp"


def _count_dp(rows, cols, start, closed, progress, resume):
    from knight import frontier

    frontier.check_fits(rows, cols, validate.available_memory())
    if start is None:
        starts = range(rows * cols)
    else:
        row, col = validate.start(rows, cols, start)
        starts = [row * cols + col]
    frontier.compile_kernels()
    store = None if resume is None else frontier.Checkpoint.open(resume, rows, cols, bool(closed), starts)
    outcome = frontier.count(rows, cols, starts, bool(closed), progress, store)
    if start is None:
        tours, nodes = outcome.tours.reshape(rows, cols), np.zeros((rows, cols), dtype=np.int64)
    else:
        tours, nodes = int(outcome.tours[starts[0]]), 0
    return Count(
        rows=rows,
        cols=cols,
        start=None if start is None else (row, col),
        closed=bool(closed),
        budget=0,
        tours=tours,
        nodes=nodes,
        complete=True,
        seconds=outcome.seconds,
        method="dp",
        states_peak=outcome.work.states_peak,
        transitions=outcome.work.transitions,
        merges=outcome.work.merges,
        runs=outcome.runs,
    )
