"""This module lists the timed searches of the speed guard, which are append-only like asv benchmarks.

Each is sized long enough that timer resolution and scheduling jitter
are small against it, short enough that many interleaved rounds fit in a
CI minute (journal: "bench/'s comments").
Between them they cover every kernel and code path: move-order DFS to a
budget, exhaustive counting, Warnsdorff DFS with each tie-break on a small
board (deep backtracking) and a large one, the greedy walk on a board of
millions of squares, and the frontier DP.
"""

from bench.timing.named_search import Search
from knight import InvalidArgument

WORKLOADS = (
    Search("backtrack", 8, 8, (0, 0), closed=True, budget=5_000_000),
    Search("count", 3, 10, (0, 0), closed=False, budget=10**12),
    Search("warnsdorff", 5, 5, (2, 1), closed=False, budget=10**8, tiebreak="first"),
    Search("warnsdorff", 6, 6, (0, 0), closed=True, budget=1_000_000, tiebreak="roth"),
    Search("warnsdorff", 300, 300, (0, 0), closed=False, budget=1_000_000, tiebreak="first"),
    Search("greedy", 1500, 1500, (0, 0), closed=False, budget=10**8, tiebreak="roth"),
    # The guard's CPU time covers the whole call, set-up included, and the
    # references build their neighbour tables in NumPy as knight did before
    # (several times knight's whole call; journal: "What the check's design
    # rests on"): a set-up
    # built in NumPy again, or scratch faulted in twice, shows in these two.
    Search("warnsdorff", 300, 300, (0, 0), closed=False, budget=10**8, tiebreak="roth"),
    Search("backtrack", 300, 300, (0, 0), closed=False, budget=900_000),
    # the plain count of a whole 5x5 tree from one start: its kernel path
    # compiled apart from the pruned one
    Search("count", 5, 5, (0, 0), closed=False, budget=10**12),
    # the frontier DP (count_tours(method="dp")) from the corner of 5x6: one
    # run with the corner a forced tour end, 4,542 tours; it has no budget.
    # Its work is the count (bench/timing/named_search.py), so it must have tours.
    Search("dp", 5, 6, (0, 0), closed=False, budget=0),
)


def matching(text=None):
    """The workloads whose name (``Search.key``) contains ``text``, every
    one when None; InvalidArgument listing the names when none does."""
    chosen = [search for search in WORKLOADS if text is None or text in search.key]
    if not chosen:
        names = "; ".join(search.key for search in WORKLOADS)
        raise InvalidArgument(f"no workload's name contains {text!r}; the names: {names}")
    return chosen


# The instruction-sized twins of WORKLOADS, one for each at the same place:
# the same kernel and code path at a tenth of the work or less, since a call
# runs many times slower counted under callgrind (`make bench-check`:
# bench/guard/base_check.py, bench/guard/instructions.py). Too short to time
# under load (one read far off against itself; journal: "bench/'s
# comments"), so
# WORKLOADS are what is timed. Append-only too, in step with WORKLOADS.
INSTRUCTION_WORKLOADS = (
    Search("backtrack", 8, 8, (0, 0), closed=True, budget=400_000),
    Search("count", 3, 9, (0, 0), closed=False, budget=10**12),
    Search("warnsdorff", 5, 5, (2, 1), closed=False, budget=200_000, tiebreak="first"),
    Search("warnsdorff", 6, 6, (0, 0), closed=True, budget=200_000, tiebreak="roth"),
    Search("warnsdorff", 300, 300, (0, 0), closed=False, budget=150_000, tiebreak="first"),
    Search("greedy", 400, 400, (0, 0), closed=False, budget=10**8, tiebreak="roth"),
    Search("warnsdorff", 150, 150, (0, 0), closed=False, budget=10**8, tiebreak="roth"),
    Search("backtrack", 150, 150, (0, 0), closed=False, budget=200_000),
    Search("count", 5, 5, (2, 2), closed=False, budget=10**12),
    Search("dp", 4, 6, (0, 0), closed=False, budget=0),
)

# each timed workload and its instruction-sized twin
PAIRS = tuple(zip(WORKLOADS, INSTRUCTION_WORKLOADS, strict=True))
