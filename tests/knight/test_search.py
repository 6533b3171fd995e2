"""The compiled kernels against the plain-Python references in bench/baselines/python.py:
identical status, node count and tour on every start of every small board."""

import numpy as np
import pytest

from bench.baselines import python as naive
from knight import count_tours, is_tour, solve
from knight.geometry.neighbours import neighbour_table
from knight.geometry.tour_check import tour_problem
from knight.search import search_kernels as kernels
from knight.search.solver import warnsdorff_kernel

SHAPES = [(rows, cols) for rows in range(1, 7) for cols in range(1, 7)]


def _budget(rows, cols):
    # whole search trees on the boards under 20 squares (each fits in
    # 20,000 nodes); on 4x5 and the larger ones, whose trees pass any such
    # budget, enough nodes for a deep search and many backtracks, cheap for
    # the reference (20,000 on 4x5 cost the reference 7 s of the file's 9)
    return 20_000 if rows * cols < 20 else 3_000


def _starts(rows, cols):
    return [(row, col) for row in range(rows) for col in range(cols)]


def _assert_same(result, expected, rows, cols, closed):
    status, nodes, tour = expected
    assert (result.status, result.nodes) == (status, nodes)
    if status == "found":
        assert tour_problem(rows, cols, result.tour, closed) is None
        assert result.coordinates().tolist() == [list(cell) for cell in tour]
    else:
        assert result.tour is None


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize("method", ["backtrack", "warnsdorff"])
@pytest.mark.parametrize(("rows", "cols"), SHAPES, ids=[f"{r}x{c}" for r, c in SHAPES])
def test_dfs_matches_reference(rows, cols, method, closed):
    budget = _budget(rows, cols)
    reference = getattr(naive, method)
    for start in _starts(rows, cols):
        result = solve(rows, cols, start, method=method, budget=budget, closed=closed)
        _assert_same(result, reference(rows, cols, start, closed, budget), rows, cols, closed)


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize(("rows", "cols"), SHAPES, ids=[f"{r}x{c}" for r, c in SHAPES])
def test_greedy_matches_reference(rows, cols, closed):
    for start in _starts(rows, cols):
        result = solve(rows, cols, start, method="greedy", closed=closed)
        _assert_same(result, naive.greedy(rows, cols, start, closed), rows, cols, closed)


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
# 5 x 4, the slowest, is 4 x 5 transposed, which the default run checks
@pytest.mark.parametrize(
    ("rows", "cols"), [(3, 4), (4, 3), (4, 4), (3, 5), (4, 5), pytest.param(5, 4, marks=pytest.mark.slow), (3, 6)]
)
def test_count_matches_reference(rows, cols, closed):
    for start in _starts(rows, cols):
        counted = count_tours(rows, cols, start, closed=closed, pruned=False)
        _, tours, nodes = naive.count(rows, cols, start, closed)
        assert (counted.tours, counted.nodes, counted.complete) == (tours, nodes, True)


@pytest.mark.parametrize("budget", [1, 2, 7, 100, 1234])
def test_budget_is_never_exceeded(budget):
    for method in ("backtrack", "warnsdorff", "greedy"):
        result = solve(6, 6, (2, 3), method=method, budget=budget)
        expected = getattr(naive, method)(6, 6, (2, 3), False, budget)
        assert result.nodes <= budget
        assert (result.status, result.nodes) == expected[:2]


def test_count_reports_budget_hit_as_incomplete():
    counted = count_tours(5, 5, (0, 0), budget=1000, pruned=False, depth=0)
    assert not counted.complete
    assert counted.nodes == 1000
    assert counted.tours == naive.count(5, 5, (0, 0), budget=1000)[1]


def test_greedy_follows_warnsdorff_rule_on_large_board():
    # every step of the walk must pick a fewest-onward candidate: check the
    # rule on each step independently of the kernel's incremental degrees
    rows, cols = 23, 31
    result = solve(rows, cols, (0, 0), method="greedy")
    status, nodes, path = naive.greedy(rows, cols, (0, 0))
    assert (result.status, result.nodes) == (status, nodes)
    assert status == "found"  # else the walk below would check nothing
    assert result.coordinates().tolist() == [list(cell) for cell in path]
    assert is_tour(rows, cols, result.tour)


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize(("rows", "cols"), [(5, 5), (5, 6), (6, 5), (6, 6), (6, 7), (8, 8)])
def test_roth_tiebreak_matches_reference(rows, cols, closed):
    # on 5x6, 6x7 and 8x8 the Roth walk from the corner differs from the
    # move-order walk in more than 25 squares, so a wrong key would show
    for start in _starts(rows, cols):
        result = solve(rows, cols, start, method="warnsdorff", budget=3000, closed=closed, tiebreak="roth")
        expected = naive.warnsdorff(rows, cols, start, closed, 3000, tiebreak="roth")
        _assert_same(result, expected, rows, cols, closed)
        result = solve(rows, cols, start, method="greedy", closed=closed, tiebreak="roth")
        _assert_same(result, naive.greedy(rows, cols, start, closed, tiebreak="roth"), rows, cols, closed)


def test_large_boards_run_without_recursion():
    result = solve(300, 300, (0, 0), method="greedy", tiebreak="roth")
    assert result.status == "found"
    assert is_tour(300, 300, result.tour)
    assert np.unique(result.tour).size == 300 * 300


BITBOARD_SHAPES = [(3, 4), (5, 5), (4, 7), (6, 6), (7, 7), (5, 12), (8, 8), (1, 64), (2, 32)]


@pytest.mark.parametrize("tiebreak", [kernels.TIEBREAK_FIRST, kernels.TIEBREAK_ROTH])
@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize(("rows", "cols"), BITBOARD_SHAPES, ids=[f"{r}x{c}" for r, c in BITBOARD_SHAPES])
def test_bitboard_warnsdorff_matches_array_kernel(rows, cols, closed, tiebreak):
    # solve() picks the bitboard kernel up to 64 squares; the array kernel
    # must stay identical to it, since it serves every larger board
    neighbours = neighbour_table(rows, cols)
    keys = kernels.tie_keys(rows, cols, tiebreak)
    for start in range(rows * cols):
        paths = np.zeros((2, rows * cols), dtype=np.int32)
        scratch = kernels.warnsdorff_scratch(rows * cols)
        array = kernels.warnsdorff(neighbours, keys, start, closed, 20_000, paths[0], *scratch)
        bits = kernels.warnsdorff_bits(neighbours, keys, start, closed, 20_000, paths[1])
        assert array == bits
        if array[0] == kernels.FOUND:
            assert (paths[0] == paths[1]).all()
            assert is_tour(rows, cols, paths[0], closed)


def test_solve_switches_kernel_at_64_squares():
    assert warnsdorff_kernel(8, 8) is kernels.warnsdorff_bits
    assert warnsdorff_kernel(5, 13) is kernels.warnsdorff


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_kernels_ignore_what_their_scratch_held(closed):
    # search.py hands kernels scratch it allocated (and may one day reuse):
    # whatever it held, the answer is the same
    rows, cols = 9, 10
    neighbours = neighbour_table(rows, cols)
    keys = kernels.tie_keys(rows, cols, kernels.TIEBREAK_ROTH)
    for start in (0, 37, 89):
        answers = []
        for garbage in (0, 0x5A):
            scratches = [
                kernels.backtrack_scratch(rows * cols),
                kernels.warnsdorff_scratch(rows * cols),
                (kernels.greedy_scratch(rows * cols),),
            ]
            for scratch in scratches:
                for array in scratch:
                    array.view(np.uint8).fill(garbage)
            paths = np.full((3, rows * cols), garbage, dtype=np.int32)
            found = (
                kernels.backtrack(neighbours, start, closed, 20_000, True, paths[0], *scratches[0]),
                kernels.warnsdorff(neighbours, keys, start, closed, 20_000, paths[1], *scratches[1]),
                kernels.greedy(rows, cols, start, kernels.TIEBREAK_ROTH, closed, 20_000, paths[2], *scratches[2]),
            )
            # a tour fills the path; a greedy walk fills its first nodes squares
            walked = paths[2][: found[2][1]].tolist()
            tours = [path.tolist() for path, answer in zip(paths, found, strict=True) if answer[0] == kernels.FOUND]
            answers.append((found, walked, tours))
        assert answers[0] == answers[1]
