"""This module lists the searches of the toolchain comparison.

The comparison (bench/studies/versus/versus_study.py) and the Numba matrix
(bench/by_hand/numba_matrix/matrix_run.py) both time them. The list is a
module of its own, so that the matrix takes it without importing a study.
The list is append-only, like asv benchmarks, and a search keeps its place.
"""

from bench.timing.named_search import Search

WORKLOADS = (
    *(Search("backtrack", n, n, (0, 0), closed=False, budget=10**8) for n in (5, 6, 7, 8)),
    Search("count", 5, 5, (0, 0), closed=False, budget=10**12),
    *(Search("warnsdorff", n, n, (0, 0), closed=False, budget=10**8) for n in (5, 6, 7, 8)),
    # parity rules this start out, so the search exhausts its whole tree
    Search("warnsdorff", 5, 5, (0, 1), closed=False, budget=10**8),
    Search("warnsdorff", 6, 6, (0, 0), closed=True, budget=3_000_000),
    # past 64 squares: the array kernel, not the bitboard one
    Search("warnsdorff", 60, 60, (0, 0), closed=False, budget=3_000_000),
    Search("greedy", 2000, 2000, (0, 0), closed=False, budget=10**8, tiebreak="roth"),
)

# the headline searches (a call's cost under 1% of their time): backtrack
# 7x7 and 8x8, the 5x5 count, Warnsdorff 5x5 exhausted, 6x6 closed and
# 60x60, greedy 2000x2000; the rest take microseconds and time a call
HEADLINE = tuple(WORKLOADS[index] for index in (2, 3, 4, 9, 10, 11, 12))
