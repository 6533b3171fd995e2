"""The frontier dynamic program (knight.counting.dp): the same counts as the
DFS and a brute force, per start and in total, open and closed, in any cell
order and thread split; published values; what a count reports. Its
checks, checkpoints and command line have their own files (test_dp_checks,
test_dp_process_checkpoint, test_dp_cli).

Published values: directed open tours on n x n, OEIS A165134; 3 x n
directed, A118067; 4 x n and 5 x n undirected Hamiltonian paths, A079137
and A083386 (via A389755, a(5n) = A083386(n)); closed tours undirected,
A001230 (6x6) and A383661 (5x10: its a(25), the first 50 cells of a 5-row
board). A closed tour passes through every square, so each start has twice
the undirected count.
"""

import random

import numpy as np
import pytest

from knight import InvalidArgument, Progress, count_total, count_tours
from knight.counting.dp.model import cell_order
from knight.counting.dp.planning import memory_model
from knight.counting.dp.runs import run_loop
from knight.counting.dp.steps import hash_step


def _dp(rows, cols, start=None, closed=False, **options):
    return count_tours(rows, cols, start, closed, method="dp", **options)


def _dfs(rows, cols, start=None, closed=False, pruned=True):
    return count_tours(rows, cols, start, closed, method="dfs", pruned=pruned)


# --- an independent reference: Held and Karp's subset DP, plain Python ---


def _knight_graph(rows, cols):
    squares = rows * cols
    neighbours = [[] for _ in range(squares)]
    for square in range(squares):
        row, col = divmod(square, cols)
        for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)):
            r, c = row + dr, col + dc
            if 0 <= r < rows and 0 <= c < cols:
                neighbours[square].append(r * cols + c)
    return neighbours


def _paths_by_subset(rows, cols, start):
    """``ways[mask][v]``: directed paths from ``start`` covering ``mask``
    and ending at ``v``."""
    neighbours = _knight_graph(rows, cols)
    squares = rows * cols
    ways = [dict() for _ in range(1 << squares)]
    ways[1 << start][start] = 1
    for mask in range(1 << squares):
        for end, count in ways[mask].items():
            for nxt in neighbours[end]:
                if not mask >> nxt & 1:
                    bucket = ways[mask | 1 << nxt]
                    bucket[nxt] = bucket.get(nxt, 0) + count
    return neighbours, ways[(1 << squares) - 1]


def brute_force(rows, cols, closed):
    """Per-start directed tours, by a method that shares nothing with the
    DFS or the frontier DP."""
    grid = np.zeros(rows * cols, dtype=np.int64)
    for start in range(rows * cols):
        neighbours, full = _paths_by_subset(rows, cols, start)
        if closed:
            grid[start] = sum(count for end, count in full.items() if start in neighbours[end])
            if rows * cols == 1:
                grid[start] = 0  # the DFS's convention: no move back to the start
        else:
            grid[start] = sum(full.values())
    return grid.reshape(rows, cols)


_SMALL = [(r, c) for r in range(1, 5) for c in range(1, 6) if r * c <= 15]


@pytest.mark.parametrize(("rows", "cols"), [*random.Random(9).sample(_SMALL, 8), (3, 4), (5, 3)])
@pytest.mark.parametrize("closed", [False, True])
def test_grid_equals_a_brute_force_on_small_rectangles(rows, cols, closed):
    assert (_dp(rows, cols, closed=closed).tours == brute_force(rows, cols, closed)).all()


# --- the DFS, plain and pruned ---


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (3, 4), (4, 3), (4, 5), (5, 4), (3, 7), (3, 8), (5, 5), (4, 4)])
@pytest.mark.parametrize("closed", [False, True])
def test_grid_equals_the_dfs(rows, cols, closed):
    dp = _dp(rows, cols, closed=closed)
    assert dp.method == "dp" and dp.complete
    assert (dp.tours == _dfs(rows, cols, closed=closed).tours).all()


@pytest.mark.parametrize("parts", [2, 3])
@pytest.mark.parametrize(("rows", "cols", "closed"), [(4, 5, False), (5, 5, False), (3, 8, True), (5, 6, True)])
def test_threads_split_the_table_without_changing_it(monkeypatch, rows, cols, closed, parts):
    """Every step's successors split over threads by pattern: the same
    counts and the same table sizes as on one thread."""
    plan = cell_order.schedule(rows, cols)
    monkeypatch.setattr(hash_step, "PARALLEL_STATES", 10**12)
    alone, alone_work = run_loop.count_hamiltonian(plan, closed)
    monkeypatch.setattr(hash_step, "PARALLEL_STATES", 0)
    monkeypatch.setattr(hash_step, "step_threads", lambda: parts)
    split, split_work = run_loop.count_hamiltonian(plan, closed)
    assert split == alone and split_work.held == alone_work.held and split_work.emitted == alone_work.emitted


@pytest.mark.parametrize(
    ("rows", "cols", "closed"), [(4, 5, False), (5, 5, False), (6, 4, False), (3, 10, True), (5, 6, True)]
)
def test_the_count_does_not_depend_on_the_cell_order(rows, cols, closed):
    """The order only decides how wide the frontier grows: random orders
    within each column (as ``WITHIN_COLUMN`` tunes them) and, on a board
    small enough for any frontier, random orders of all the squares, give
    the default order's count, with a forced end too (open boards)."""
    chooser = random.Random(rows * 100 + cols)
    short = min(rows, cols)
    default = cell_order.schedule(rows, cols)
    forced = default.order[chooser.randrange(rows * cols)]
    ends = (None,) if closed else (None, forced)
    expected = [run_loop.count_hamiltonian(default, closed, end)[0] for end in ends]
    assert expected[0] > 0
    for _ in range(3):
        shuffled = [chooser.sample(range(short), short) for _ in range(max(rows, cols))]
        plan = cell_order.schedule(rows, cols, cell_order.column_order(rows, cols, shuffled.__getitem__))
        assert [run_loop.count_hamiltonian(plan, closed, end)[0] for end in ends] == expected
    squares = chooser.sample(range(12), 12)
    anywhere = [run_loop.count_hamiltonian(cell_order.schedule(3, 4, order), False)[0] for order in (squares, None)]
    assert anywhere[0] == anywhere[1] > 0


def _rectangles_up_to(squares):
    return [(r, c) for r in range(3, 7) for c in range(3, 7) if r * c <= squares]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rows", "cols"), [*_rectangles_up_to(36), (3, 9), (3, 10), (3, 11), (3, 12), (4, 7), (4, 8), (5, 7)]
)
@pytest.mark.parametrize("closed", [False, True])
def test_grid_equals_the_pruned_dfs_on_rectangles(rows, cols, closed):
    assert (_dp(rows, cols, closed=closed).tours == _dfs(rows, cols, closed=closed).tours).all()


@pytest.mark.slow
@pytest.mark.parametrize(("rows", "cols"), _rectangles_up_to(25))
@pytest.mark.parametrize("closed", [False, True])
def test_grid_equals_the_plain_dfs(rows, cols, closed):
    assert (_dp(rows, cols, closed=closed).tours == _dfs(rows, cols, closed=closed, pruned=False).tours).all()


def test_one_start_is_its_grid_square():
    grid = _dp(4, 5).tours
    for start in [(0, 0), (1, 2), (2, 3), (3, 4)]:
        counted = _dp(4, 5, start)
        assert counted.start == start
        assert counted.tours == grid[start]
    assert _dp(5, 5, (0, 0)).tours == 304
    assert _dp(5, 5, (0, 1)).tours == 0  # colour parity: no run at all


# --- the total over every start, from one run ---


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 3), (2, 3), (3, 4), (4, 3), (3, 7), (4, 5), (5, 4)])
@pytest.mark.parametrize("closed", [False, True])
def test_the_total_is_the_sum_of_the_dfs_grid(rows, cols, closed):
    assert count_total(rows, cols, closed).tours == _dfs(rows, cols, closed=closed).total_tours


@pytest.mark.parametrize(("rows", "cols", "closed"), [(5, 5, False), (5, 6, True), (3, 10, False), (4, 8, True)])
def test_the_total_is_the_sum_of_the_per_start_dp_grid(rows, cols, closed):
    grid = _dp(rows, cols, closed=closed).tours
    assert count_total(rows, cols, closed).tours == int(grid.sum())
    assert count_total(rows, cols, closed).tours > 0 or not grid.any()


def test_the_total_reports_its_steps_and_checks_its_arguments():
    seen = []
    assert count_total(3, 4, progress=seen.append).tours == 16
    assert all(isinstance(now, Progress) for now in seen)
    assert [(now.done, now.total) for now in seen] == [(done, 12) for done in range(1, 13)]
    assert all(now.held > 0 and now.rates is None for now in seen[:-1])
    with pytest.raises(InvalidArgument, match="rows must be"):
        count_total(0, 4)
    with pytest.raises(InvalidArgument, match="frontier spans"):
        count_total(9, 9)
    with pytest.raises(InvalidArgument, match="progress"):
        count_total(3, 4, progress=3)


# --- published values ---


@pytest.mark.parametrize(("n", "directed"), [(1, 1), (2, 0), (3, 0), (4, 0), (5, 1728)])
def test_square_boards_open_a165134(n, directed):
    assert _dp(n, n).total_tours == directed


def test_rectangles_open():
    assert _dp(3, 4).total_tours == 16
    assert _dp(4, 5).total_tours == 164
    assert _dp(3, 12).total_tours == 114_496  # A118067
    assert count_total(4, 12, closed=False).tours == 2 * 36_486_328  # A079137


def test_closed_from_one_start():
    assert _dp(5, 6, (0, 0), closed=True).tours == 2 * 8
    assert _dp(3, 10, (1, 4), closed=True).tours == 2 * 16
    assert (_dp(3, 10, closed=True).tours == 32).all()


@pytest.mark.slow
def test_6x6():
    assert count_total(6, 6, closed=False).tours == 6_637_920  # A165134
    assert count_total(6, 6, closed=True).tours == 2 * 9862 * 36  # A001230, every start
    assert _dp(6, 6, (0, 0), closed=True).tours == 2 * 9862


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rows", "cols", "directed"),
    [
        (3, 28, 58_641_619_298_000),  # A118067
        (4, 24, 2 * 12_270_473_056_485_396),  # A079137
        (4, 20, 2 * 20_241_304_810_488),  # A079137
        (5, 8, 2 * 18_061_054),  # A083386
        (5, 9, 2 * 264_895_640),
        (5, 40, None),  # past 2^128: only that it runs, in more limbs
        (9, 5, 2 * 264_895_640),
    ],
)
def test_long_rectangles_open(rows, cols, directed):
    counted = count_total(rows, cols, closed=False).tours
    assert counted == directed if directed is not None else counted > 2**128


@pytest.mark.slow
def test_5x10_closed_a383661():
    assert count_total(5, 10, closed=True).tours == 2 * 13_311_268 * 50


def test_totals_add_up_the_grid():
    for rows, cols in [(3, 8), (5, 5), (4, 6)]:
        assert count_total(rows, cols, closed=False).tours == _dp(rows, cols).total_tours
        assert count_total(rows, cols, closed=True).tours == _dp(rows, cols, closed=True).total_tours


# --- what the count reports ---


def test_work_is_reported():
    counted = _dp(5, 5)
    assert counted.states_peak > 0 and counted.transitions >= counted.merges > 0
    assert counted.runs == 4  # symmetry classes of the corner's colour on 5x5
    assert counted.total_nodes == 0
    assert _dfs(5, 5).method == "dfs"


def test_schedule_frontier_is_at_most_two_short_sides_and_one():
    # top to bottom in each column it is exactly that; the tuned orders
    # within columns save a square on every short side from 3 to 8
    assert cell_order.widest_frontier(7, 7) == cell_order.widest_frontier(7, 100) == 14
    assert cell_order.widest_frontier(100, 6) == 12
    assert cell_order.widest_frontier(8, 8) == memory_model.MAX_SLOTS - 1
    for short in (7, 8):
        top_to_bottom = cell_order.column_order(short, short, lambda column, short=short: range(short))
        assert cell_order.schedule(short, short, top_to_bottom).widest == 2 * short + 1
    plan = cell_order.schedule(4, 6)
    assert sorted(plan.order) == list(range(24))
    assert plan.frontiers[-1] == []
