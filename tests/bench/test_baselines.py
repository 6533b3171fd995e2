"""The C baselines search exactly as the kernels do: same statuses, nodes
and tours, so their speed ratios compare equal work."""

import numpy as np
import pytest

from bench.baselines import c as c_baseline
from bench.baselines import python as python_baseline
from knight.geometry.neighbours import neighbour_table
from knight.search import search_kernels as kernels

try:
    C = c_baseline.load()
except c_baseline.CompilerMissing:  # CI has a compiler; a laptop may not
    C = None

needs_c = pytest.mark.skipif(C is None, reason="no C compiler")

CASES = [
    (rows, cols, start)
    for rows, cols in [(1, 1), (3, 4), (4, 4), (5, 5), (5, 6), (6, 6), (8, 8)]
    for start in {0, rows * cols // 2, rows * cols - 1}
]


@needs_c
@pytest.mark.parametrize("closed", [False, True])
@pytest.mark.parametrize(("rows", "cols", "start"), CASES)
def test_c_backtrack_and_count_match_kernels(rows, cols, start, closed):
    neighbours = neighbour_table(rows, cols)
    for first_only, budget in [(True, 200_000), (False, 300_000)]:
        paths = [np.zeros(rows * cols, np.int32) for _ in range(2)]
        scratch = kernels.backtrack_scratch(rows * cols)
        ours = kernels.backtrack(neighbours, start, closed, budget, first_only, paths[0], *scratch)
        theirs = C.backtrack(neighbours, start, closed, budget, first_only, paths[1])
        assert ours == theirs
        if first_only and ours[0] == kernels.FOUND:
            assert (paths[0] == paths[1]).all()


@needs_c
@pytest.mark.parametrize("tiebreak", [kernels.TIEBREAK_FIRST, kernels.TIEBREAK_ROTH])
@pytest.mark.parametrize("closed", [False, True])
@pytest.mark.parametrize(("rows", "cols", "start"), CASES)
def test_c_warnsdorff_and_greedy_match_kernels(rows, cols, start, closed, tiebreak):
    neighbours = neighbour_table(rows, cols)
    keys = kernels.tie_keys(rows, cols, tiebreak)
    paths = [np.zeros(rows * cols, np.int32) for _ in range(4)]
    scratch = kernels.warnsdorff_scratch(rows * cols)
    assert kernels.warnsdorff(neighbours, keys, start, closed, 100_000, paths[0], *scratch) == C.warnsdorff(
        neighbours, keys, start, closed, 100_000, paths[1]
    )
    degree = kernels.greedy_scratch(rows * cols)
    assert kernels.greedy(rows, cols, start, tiebreak, closed, 10**9, paths[2], degree) == C.greedy(
        rows, cols, start, tiebreak, closed, 10**9, paths[3]
    )
    assert (paths[0] == paths[1]).all() and (paths[2] == paths[3]).all()
    if rows * cols <= 64:
        bits = [np.zeros(rows * cols, np.int32) for _ in range(2)]
        assert kernels.warnsdorff_bits(neighbours, keys, start, closed, 100_000, bits[0]) == C.warnsdorff_bits(
            neighbours, keys, start, closed, 100_000, bits[1]
        )
        assert (bits[0] == bits[1]).all()


@needs_c
def test_c_greedy_on_a_large_board():
    path_ours, path_c = np.zeros(300 * 301, np.int32), np.zeros(300 * 301, np.int32)
    degree = kernels.greedy_scratch(300 * 301)
    ours = kernels.greedy(300, 301, 0, kernels.TIEBREAK_ROTH, False, 10**12, path_ours, degree)
    assert ours == C.greedy(300, 301, 0, kernels.TIEBREAK_ROTH, False, 10**12, path_c)
    assert (path_ours == path_c).all()


def test_missing_compiler_is_reported(monkeypatch):
    monkeypatch.setenv("CC", "")
    monkeypatch.setenv("PATH", "")
    with pytest.raises(c_baseline.CompilerMissing, match="no C compiler"):
        c_baseline.compiler()


def test_library_is_rebuilt_in_a_fresh_cache(tmp_path, monkeypatch):
    if C is None:
        pytest.skip("no C compiler")
    monkeypatch.setenv("KNIGHT_CACHE", str(tmp_path))
    built = c_baseline.build()
    assert built.parent == tmp_path and built.exists()
    assert c_baseline.build() == built  # cached: same file, no rebuild


def test_python_baseline_is_the_test_reference():
    assert python_baseline.backtrack(5, 5, (0, 0))[:2] == ("found", 41)
