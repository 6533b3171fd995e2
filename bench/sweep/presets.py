"""The named sweeps: ``default`` (make bench) and ``quick`` (make bench-quick).

Sized by measurement on the project's 2-core machine (docs/outputs.md has
the figures: on 2026-11-30 the default run took 3 min 14 s, the quick one
15 s, on the idle machine; with the counting study added, 5 min 1 s and
20 s at a load average of 2.5 to 4, the study 47 s and 4 s of it). Budgets
are what makes that possible: plain backtracking from a bad start square
of an 8x8 board would run for years.
"""

from bench.studies.count_study import Engine, Series, Study
from bench.sweep.plan import Part, Sweep

# greedy runs in linear time, so the sweep can afford every size up to 400
# (it first fails from the corner at 41 with move-order ties and at 248 with
# Roth's) and a sample of sizes beyond
GREEDY_SIZES = tuple(range(5, 401)) + tuple(range(420, 2001, 20))

RECTANGLES = ((3, 4), (3, 5), (3, 7), (3, 8), (3, 10), (4, 4), (4, 5), (4, 6), (4, 8), (5, 6), (5, 7), (6, 8), (7, 8))


def squares(sizes):
    return tuple((n, n) for n in sizes)


def _span(sizes):
    """Square boards named as a part's title names them: ``5x5 to 8x8``."""
    sizes = sorted(sizes)
    first, last = f"{sizes[0]}x{sizes[0]}", f"{sizes[-1]}x{sizes[-1]}"
    if len(sizes) == 1:
        return first
    return f"{first} and {last}" if len(sizes) == 2 else f"{first} to {last}"


def _sweep(backtrack, every_start, corners, greedy, rectangles, closed, budget, closed_backtrack=()):
    """A preset's parts, in the order the report shows them, at its sizes.
    The searches that can run long get ``budget`` nodes, backtracking ten
    times that; greedy always gets 10^8, since it runs in linear time."""
    both = ("first", "roth")
    parts = [
        Part(f"backtrack from every start, {_span(backtrack)}", squares(backtrack), ("backtrack",), "all",
             budget=10 * budget),
        Part(f"warnsdorff and greedy from every start, {_span(every_start)}, both tie rules", squares(every_start),
             ("warnsdorff", "greedy"), "all", budget=budget, tiebreaks=both),
        Part(f"warnsdorff from the four corners, {_span(corners)}", squares(corners), ("warnsdorff",), "corners",
             budget=budget),
        Part(f"greedy from the corner, {_span(greedy)}, both tie rules", squares(greedy), ("greedy",), "1,1",
             budget=10**8, tiebreaks=both),
        Part("rectangles from every start, every method", rectangles, ("backtrack", "warnsdorff", "greedy"), "all",
             budget=budget),
    ]
    if closed_backtrack:
        parts.append(Part(f"closed tours from every start, backtrack on {_span(closed_backtrack)}",
                          squares(closed_backtrack), ("backtrack",), "all", (True,), budget=10 * budget))
    parts.append(Part(f"closed tours from every start, warnsdorff, {_span(closed)}", squares(closed),
                      ("warnsdorff",), "all", (True,), budget=budget))
    return Sweep(parts=tuple(parts), repeats=3)


def default():
    return _sweep(range(5, 9), range(5, 31), range(31, 201), GREEDY_SIZES, RECTANGLES, (6, 8, 10, 12), 10**6,
                  closed_backtrack=(6,))


def quick():
    return _sweep((5, 6), range(5, 11), range(11, 61), range(5, 301), ((3, 4), (4, 4), (4, 5), (5, 6)), (6,), 10**5)


PRESETS = {"default": default, "quick": quick}


def _count_series(largest_n, largest_k):
    """n x n from n = 4, and 3 x k, 4 x k, 5 x k from the first k not
    below the short side (5 x 4 is 4 x 5 turned)."""
    return (
        Series("n x n", squares(range(4, largest_n + 1))),
        *(Series(f"{rows} x k", tuple((rows, k) for k in range(max(rows, 4), largest_k + 1))) for rows in (3, 4, 5)),
    )


def counting(quick=False):
    """The counting study of a preset (bench/count_study.py): n x n for n =
    4..7 and 3 x k, 4 x k, 5 x k, the DFS up to k = 12 and the DP to 20,
    each engine under its time cap; the DFS also under a node budget per
    work unit (10^8: one to four seconds of one unit here). The pruned DFS
    gets 3 s, enough for 6x6 (1.4 s on the idle machine); the plain DFS 1 s,
    the DP 1.5 s. Sized so that the study takes under a minute on the idle
    2-core machine (docs/outputs.md has the figures). Quick: n <= 5, the DP
    to k = 8, the DFS to 6, every cap 0.3 s: a few seconds."""
    budget = 10**8
    if quick:
        series = _count_series(5, 8)
        caps = {"dfs-plain": 0.3, "dfs-pruned": 0.3, "dp": 0.3, "dp-total": 0.3}
        dfs_longest, dp_longest, repeat_below = 6, 8, 0.05
    else:
        series = _count_series(7, 20)
        caps = {"dfs-plain": 1.0, "dfs-pruned": 3.0, "dp": 1.5, "dp-total": 1.5}
        dfs_longest, dp_longest, repeat_below = 12, 20, 0.1
    engines = (
        Engine("dfs-plain", caps["dfs-plain"], dfs_longest, budget),
        Engine("dfs-pruned", caps["dfs-pruned"], dfs_longest, budget),
        Engine("dp", caps["dp"], dp_longest),
        Engine("dp-total", caps["dp-total"], dp_longest),
    )
    return Study(series, engines, repeats=3, repeat_below=repeat_below)
