"""The frontier dynamic program (knight.counting.dp): the same counts as the
DFS, per start and in total, open and closed; published values; its
checks (overflow, memory, resume, options).

Published values: directed open tours on n x n, OEIS A165134; 3 x n
directed, A118067; 4 x n and 5 x n undirected Hamiltonian paths, A079137
and A083386 (via A389755, a(5n) = A083386(n)); closed tours undirected,
A001230 (6x6) and A383661 (5x10: its a(25), the first 50 cells of a 5-row
board). A closed tour passes through every square, so each start has twice
the undirected count.
"""

import json
import os
import random

import numpy as np
import pytest

from knight import InvalidArgument, cli, count_total, count_tours, exit_status, machine, validate
from knight.counting.dp import (
    cell_order,
    degree_relaxation,
    dp_checkpoint,
    dp_kernels,
    dp_memory,
    dp_run,
    dp_shards,
    spill_step,
)


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
    monkeypatch.setattr(dp_shards, "PARALLEL_STATES", 10**12)
    alone, alone_work = dp_run.count_hamiltonian(plan, closed)
    monkeypatch.setattr(dp_shards, "PARALLEL_STATES", 0)
    monkeypatch.setattr(dp_shards, "step_threads", lambda: parts)
    split, split_work = dp_run.count_hamiltonian(plan, closed)
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
    expected = [dp_run.count_hamiltonian(default, closed, end)[0] for end in ends]
    assert expected[0] > 0
    for _ in range(3):
        shuffled = [chooser.sample(range(short), short) for _ in range(max(rows, cols))]
        plan = cell_order.schedule(rows, cols, cell_order.column_order(rows, cols, shuffled.__getitem__))
        assert [dp_run.count_hamiltonian(plan, closed, end)[0] for end in ends] == expected
    squares = chooser.sample(range(12), 12)
    anywhere = [dp_run.count_hamiltonian(cell_order.schedule(3, 4, order), False)[0] for order in (squares, None)]
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
    assert count_total(rows, cols, closed) == _dfs(rows, cols, closed=closed).total_tours


@pytest.mark.parametrize(("rows", "cols", "closed"), [(5, 5, False), (5, 6, True), (3, 10, False), (4, 8, True)])
def test_the_total_is_the_sum_of_the_per_start_dp_grid(rows, cols, closed):
    grid = _dp(rows, cols, closed=closed).tours
    assert count_total(rows, cols, closed) == int(grid.sum())
    assert count_total(rows, cols, closed) > 0 or not grid.any()


def test_the_total_reports_its_steps_and_checks_its_arguments():
    seen = []
    assert count_total(3, 4, progress=lambda *step: seen.append(step)) == 16
    assert [step[:2] for step in seen] == [(done, 12) for done in range(1, 13)]
    with pytest.raises(InvalidArgument, match="rows must be"):
        count_total(0, 4)
    with pytest.raises(InvalidArgument, match="frontier spans"):
        count_total(9, 9)
    with pytest.raises(InvalidArgument, match="progress"):
        count_total(3, 4, progress=3)


def test_cli_total_is_one_line(capsys):
    assert cli.main(["count", "3", "4", "--total"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.split()[:2] == ["tours", "16"] and "every start" in out
    assert cli.main(["count", "5", "6", "--total", "--closed", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record == {"rows": 5, "cols": 6, "closed": True, "method": "dp", "tours": 2 * 8 * 30}
    assert cli.main(["count", "3", "4", "--total", "--method", "dp"]) == 0
    assert capsys.readouterr().out.split()[1] == "16"


@pytest.mark.parametrize(
    "options",
    [
        ["--start", "1,1"],
        ["--method", "dfs"],
        ["--plain"],
        ["--depth", "2"],
        ["--budget", "9"],
        ["--workers", "1"],
        ["--resume", "x"],
        ["--method", "nope"],
    ],
)
def test_cli_total_refuses_the_options_of_other_counts(capsys, options):
    assert cli.main(["count", "3", "4", "--total", *options]) == exit_status.EXIT_USAGE
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("knight: error: ")


def test_a_memory_budget_reaches_the_run(capsys, monkeypatch):
    """--memory (issue 23): the budget each step's room is taken from, at
    the command line and in the API; refused in one line where it means
    nothing (the dfs, a cluster) or cannot be met."""
    budgets = []
    real = dp_run.step_room
    monkeypatch.setattr(dp_run, "step_room", lambda memory=None: budgets.append(memory) or real(memory))
    assert cli.main(["count", "4", "5", "--total", "--memory", "1GiB"]) == 0
    assert capsys.readouterr().out.split()[1] == str(count_total(4, 5))
    assert cli.main(["count", "4", "5", "--method", "dp", "--memory", "300M", "--start", "1,1"]) == 0
    assert budgets[0] == 1 << 30 and budgets[-1] == 300 << 20
    assert count_tours(4, 5, method="dp", memory=2**30).total_tours == count_tours(4, 5, method="dfs").total_tours
    for options in (["--memory", "1k"], ["--memory", "lots"], ["--method", "dfs", "--memory", "1G"]):
        assert cli.main(["count", "4", "5", *options]) == exit_status.EXIT_USAGE
        error = capsys.readouterr().err
        assert error.count("\n") == 1 and "memory" in error
    with pytest.raises(InvalidArgument, match="each worker's own memory limit"):
        count_total(4, 5, scheduler="tcp://127.0.0.1:1", memory=2**30)
    monkeypatch.setattr(dp_memory, "spill_space", lambda: 2**20)
    with pytest.raises(InvalidArgument, match="GiB of disk to run out of core"):
        count_total(7, 8, closed=True, memory=2**28)


def test_a_large_dp_run_first_prints_its_projection(capsys, monkeypatch):
    """Issue 23: before a run projected past PROJECT_DP_STATES_FROM states,
    one line on stderr names its peak states, memory, disk out of core
    and time; smaller runs print none."""
    assert cli.main(["count", "4", "5", "--total"]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(cli, "PROJECT_DP_STATES_FROM", 0)
    for options in (["--total"], ["--method", "dp"], ["--total", "--memory", "300M"]):
        assert cli.main(["count", "4", "5", *options]) == 0
        err = capsys.readouterr().err
        assert err.startswith("knight: about ") and err.count("\n") == 1 and "states at the dp's peak" in err
        assert "cores" in err
    guess = dp_memory.projection(8, 8, closed=True)
    assert guess.states == dp_memory.projected_peak_states(8, 8, True) and guess.disk_bytes > 0
    one, grid = dp_memory.projection(7, 7), dp_memory.projection(7, 7, forced_runs=6)
    assert grid.transitions == int(6 * dp_memory.FORCED_SHARE * one.transitions)


# --- published values ---


@pytest.mark.parametrize(("n", "directed"), [(1, 1), (2, 0), (3, 0), (4, 0), (5, 1728)])
def test_square_boards_open_a165134(n, directed):
    assert _dp(n, n).total_tours == directed


def test_rectangles_open():
    assert _dp(3, 4).total_tours == 16
    assert _dp(4, 5).total_tours == 164
    assert _dp(3, 12).total_tours == 114_496  # A118067
    assert count_total(4, 12, closed=False) == 2 * 36_486_328  # A079137


def test_closed_from_one_start():
    assert _dp(5, 6, (0, 0), closed=True).tours == 2 * 8
    assert _dp(3, 10, (1, 4), closed=True).tours == 2 * 16
    assert (_dp(3, 10, closed=True).tours == 32).all()


@pytest.mark.slow
def test_6x6():
    assert count_total(6, 6, closed=False) == 6_637_920  # A165134
    assert count_total(6, 6, closed=True) == 2 * 9862 * 36  # A001230, every start
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
    counted = count_total(rows, cols, closed=False)
    assert counted == directed if directed is not None else counted > 2**128


@pytest.mark.slow
def test_5x10_closed_a383661():
    assert count_total(5, 10, closed=True) == 2 * 13_311_268 * 50


def test_totals_add_up_the_grid():
    for rows, cols in [(3, 8), (5, 5), (4, 6)]:
        assert count_total(rows, cols, closed=False) == _dp(rows, cols).total_tours
        assert count_total(rows, cols, closed=True) == _dp(rows, cols, closed=True).total_tours


# --- what the count reports ---


def test_work_is_reported():
    counted = _dp(5, 5)
    assert counted.states_peak > 0 and counted.transitions >= counted.merges > 0
    assert counted.runs == 4  # symmetry classes of the corner's colour on 5x5
    assert counted.total_nodes == 0
    assert _dfs(5, 5).method == "dfs"


def test_schedule_frontier_is_at_most_two_short_sides_and_one():
    # top to bottom in each column it is exactly that; the tuned orders
    # within columns save a square on short sides 3, 4, 5, 7 and 8
    assert cell_order.widest_frontier(7, 7) == cell_order.widest_frontier(7, 100) == 14
    assert cell_order.widest_frontier(100, 6) == 13
    assert cell_order.widest_frontier(8, 8) == dp_memory.MAX_SLOTS - 1
    for short in (7, 8):
        top_to_bottom = cell_order.column_order(short, short, lambda column, short=short: range(short))
        assert cell_order.schedule(short, short, top_to_bottom).widest == 2 * short + 1
    plan = cell_order.schedule(4, 6)
    assert sorted(plan.order) == list(range(24))
    assert plan.frontiers[-1] == []


# --- checks ---


def _first_step(plan, keys, counts):
    """The kernel's arguments for the first step of ``plan`` (open)."""
    return dp_run.step_arguments(
        plan,
        0,
        keys,
        counts,
        False,
        None,
        degree_relaxation.start_bits(2),
        degree_relaxation.live_patterns(plan, False)[0],
    )


def test_counts_carry_into_the_high_word():
    plan = cell_order.schedule(3, 4)
    # two copies of the empty state, each with 2^63 ways: they merge
    keys = np.zeros(2, dtype=np.uint64)
    counts = np.array([[1 << 63, 0], [1 << 63, 0]], dtype=np.uint64)
    _, merged, _, _, _, overflow, _ = dp_kernels.frontier_step(*_first_step(plan, keys, counts), 10, 0, 1)
    assert merged.tolist() == [[0, 1]] and overflow == 0


def test_a_carry_out_of_the_top_limb_is_caught_and_widened():
    plan = cell_order.schedule(3, 4)
    top = (1 << 64) - 1
    keys = np.zeros(2, dtype=np.uint64)
    # two copies of the empty state whose counts add up to exactly 2^128
    counts = np.array([[top, top >> 1], [1, 1 << 63]], dtype=np.uint64)
    overflow = dp_kernels.frontier_step(*_first_step(plan, keys, counts), 10, 0, 1)[5]
    assert overflow == 1
    with pytest.raises(OverflowError, match="2\\^128"):
        dp_run.count_hamiltonian(plan, False, state=(0, keys, counts, 0), max_limbs=2)
    # with more limbs: 3x4 has 8 undirected paths, each now 2^128 ways
    assert dp_run.count_hamiltonian(plan, False, state=(0, keys, counts, 0))[0] == 8 * 2**128


def test_a_board_too_big_for_memory_is_refused(monkeypatch):
    from knight import machine

    monkeypatch.setattr(machine, "available_memory", lambda: 2**20)
    _dp(4, 6)  # past memory: sharded to disk
    monkeypatch.setattr(dp_memory, "spill_space", lambda: 2**20)
    monkeypatch.setattr(machine, "available_memory", lambda: 2**27)  # the bitmaps fit, the tables do not
    with pytest.raises(InvalidArgument, match="GiB of disk"):
        _dp(6, 9)
    with pytest.raises(InvalidArgument, match="frontier spans"):
        _dp(9, 9)
    monkeypatch.setattr(machine, "available_memory", lambda: 2**34)
    with pytest.raises(InvalidArgument, match="pattern bitmaps"):
        _dp(7, 40000)  # 5.4 MB a step


def test_dfs_only_options_are_refused_with_dp():
    for options in [dict(pruned=False), dict(depth=3), dict(workers=2), dict(budget=10)]:
        with pytest.raises(InvalidArgument, match="only the dfs"):
            _dp(4, 5, **options)
    with pytest.raises(InvalidArgument, match="count method"):
        count_tours(4, 5, method="bfs")


def test_auto_picks_the_engine(monkeypatch):
    from knight import machine
    from knight.counting.driver import choose_method

    monkeypatch.setattr(machine, "available_memory", lambda: 2**40)
    # either side of each measured crossover (knight/counting/driver.py)
    assert choose_method(5, 5) == "dfs"
    assert choose_method(6, 6) == "dfs"
    assert choose_method(5, 8) == "dp"
    assert choose_method(4, 7) == "dfs"
    assert choose_method(3, 10) == "dfs"
    assert choose_method(4, 8) == "dp"
    assert choose_method(6, 7) == "dp"
    assert choose_method(9, 9) == "dfs"  # the DP's frontier would not fit a key
    monkeypatch.setattr(machine, "available_memory", lambda: 2**20)
    monkeypatch.setattr(dp_memory, "spill_space", lambda: 2**20)
    assert choose_method(6, 7) == "dfs"  # nor its table the memory, nor the disk
    assert choose_method(3, 12) == "dp"
    assert choose_method(6, 7, depth=3) == "dfs"
    assert count_tours(3, 12).method == "dp"


# --- resume ---


@pytest.mark.parametrize(("stop", "out_of_core"), [(40, False), (40, True), (36, True)])
def test_resume_after_an_interruption(tmp_path, monkeypatch, stop, out_of_core):
    """Stopped after any step, in memory or with every step out of core
    (issue 23: the table then comes from mapped files), a resumed count
    equals the uninterrupted one and does not redo finished work."""
    monkeypatch.setattr(dp_checkpoint, "CHECKPOINT_SECONDS", 0.0)
    path = tmp_path / "4x6.npz"
    expected = _dp(4, 6).tours
    memory = None
    if out_of_core:
        monkeypatch.setattr(dp_run, "PARTITIONED_STATES", 0)
        monkeypatch.setattr(dp_run, "MIN_ROOM", 4_000)
        monkeypatch.setattr(machine, "anonymous_memory", lambda: 2**40)  # past any budget
        memory = validate.MIN_MEMORY  # so every step gets MIN_ROOM
    spilled = []
    real = spill_step.step_out_of_core
    monkeypatch.setattr(spill_step, "step_out_of_core", lambda *arguments: spilled.append(1) or real(*arguments))

    def interrupt(done, total, held):
        if done == stop:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        count_tours(4, 6, method="dp", resume=path, progress=interrupt, memory=memory)
    with np.load(path) as saved:
        header = json.loads(bytes(saved["header"]).decode())
        embedded = saved["keys"].shape[0]
    assert header["finished"] and header["current"] is not None
    # out of core, the checkpoint links the step's table files, not a copy
    tables = tmp_path / "4x6.npz.tables"
    assert (header["table"] is not None) == out_of_core == tables.is_dir()
    assert (embedded == 0) == out_of_core
    if out_of_core:
        assert sorted(p.name for p in tables.iterdir()) == sorted(
            [header["table"]["keys"], header["table"]["counts"], "knight-dp-tables"]
        )
    steps = []
    resumed = count_tours(
        4, 6, method="dp", resume=path, progress=lambda done, total, held: steps.append(done), memory=memory
    )
    assert (resumed.tours == expected).all()
    runs, squares = resumed.runs, 24
    assert len(steps) < runs * squares - squares  # finished runs and steps were not done again
    assert bool(spilled) == out_of_core
    again = count_tours(4, 6, method="dp", resume=path)
    assert (again.tours == expected).all() and again.transitions == 0
    assert not tables.exists()  # the count ended: its links went with it


def test_a_linked_table_edited_or_gone_is_refused_in_one_line(tmp_path, monkeypatch):
    """Issue 23: a checkpoint whose table is linked files beside it is
    checked as an embedded one: a byte changed in them, or a file gone, is
    refused in one line naming the checkpoint, and nothing is deleted; a
    folder of that name that is not knight's is refused before a count."""
    monkeypatch.setattr(dp_checkpoint, "CHECKPOINT_SECONDS", 0.0)
    monkeypatch.setattr(dp_run, "PARTITIONED_STATES", 0)
    monkeypatch.setattr(dp_run, "MIN_ROOM", 4_000)
    monkeypatch.setattr(machine, "anonymous_memory", lambda: 2**40)
    path = tmp_path / "c.npz"

    def interrupt(done, total, held):
        if done == 16:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        count_tours(4, 6, method="dp", resume=path, progress=interrupt, memory=validate.MIN_MEMORY)
    tables = tmp_path / "c.npz.tables"
    counts_file = next(tables.glob("*.counts"))
    data = bytearray(counts_file.read_bytes())
    data[3] ^= 1
    counts_file.write_bytes(bytes(data))
    before = sorted(p.name for p in tables.iterdir())
    with pytest.raises(InvalidArgument, match="damaged or was edited") as refused:
        count_tours(4, 6, method="dp", resume=path)
    assert "\n" not in str(refused.value) and sorted(p.name for p in tables.iterdir()) == before
    counts_file.unlink()
    with pytest.raises(InvalidArgument, match="is missing"):
        count_tours(4, 6, method="dp", resume=path)
    stranger = tmp_path / "d.npz.tables"
    stranger.mkdir()
    with pytest.raises(InvalidArgument, match="not a table folder of knight's"):
        count_tours(4, 6, method="dp", resume=tmp_path / "d.npz")
    assert stranger.is_dir()


def test_resume_refuses_other_files(tmp_path):
    foreign = tmp_path / "notes.txt"
    foreign.write_text("mine\n")
    with pytest.raises(InvalidArgument, match="not a knight dp checkpoint"):
        _dp(4, 5, resume=foreign)
    assert foreign.read_text() == "mine\n"
    path = tmp_path / "4x5.npz"
    _dp(4, 5, resume=path)
    with pytest.raises(InvalidArgument, match="different count"):
        _dp(4, 6, resume=path)
    with pytest.raises(InvalidArgument, match="different count"):
        _dp(4, 5, closed=True, resume=path)
    assert not os.path.exists(f"{path}.tmp") and not list(tmp_path.glob(".*.tmp"))
    with pytest.MonkeyPatch.context() as patch:
        # a table made in another cell order (a checkpoint of older code)
        patch.setattr(dp_checkpoint, "ORDER_NAME", "columns-across-short-side/another")
        _dp(4, 6, resume=tmp_path / "4x6.npz")
    with pytest.raises(InvalidArgument, match="different count: order"):
        _dp(4, 6, resume=tmp_path / "4x6.npz")
    with pytest.raises(InvalidArgument, match="folder"):
        _dp(4, 5, resume=tmp_path)
    with pytest.raises(InvalidArgument, match="does not exist"):
        _dp(4, 5, resume=tmp_path / "missing" / "4x5.npz")
    with pytest.raises(InvalidArgument, match="must be a path"):
        _dp(4, 5, resume=5)


def test_a_checkpoint_never_overwrites_a_file_named_like_its_temporary(tmp_path):
    path = tmp_path / "4x5.npz"
    bystander = tmp_path / "4x5.npz.tmp"
    bystander.write_text("mine\n")
    _dp(4, 5, resume=path)
    assert bystander.read_text() == "mine\n" and path.exists()


# --- the command line ---


def test_cli_count_with_dp(capsys):
    assert cli.main(["count", "5", "5", "--method", "dp"]) == 0
    text = capsys.readouterr().out
    assert "304" in text and "1728 directed open tours" in text and "states" in text
    assert cli.main(["count", "3", "4", "--method", "dp", "--json", "--start", "1,1"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["method"] == "dp" and record["tours"] == 2 and record["start"] == [1, 1]
    assert record["states_peak"] > 0 and record["runs"] == 1


def test_cli_refuses_dfs_options_with_dp(capsys):
    assert cli.main(["count", "5", "5", "--method", "dp", "--plain"]) == exit_status.EXIT_USAGE
    assert "only the dfs" in capsys.readouterr().err
    assert cli.main(["count", "5", "5", "--method", "nope"]) == exit_status.EXIT_USAGE


@pytest.mark.parametrize("method", [None, "auto", "dp"])
def test_a_count_that_runs_the_dp_checks_its_fit_once(monkeypatch, method):
    from knight.counting import driver

    calls = []

    def counted(*arguments):
        calls.append(arguments)
        return real(*arguments)

    real = driver.check_fits
    monkeypatch.setattr(driver, "check_fits", counted)
    assert count_tours(3, 12, method=method).method == "dp"
    assert len(calls) == 1


def test_cli_refuses_a_board_too_big(capsys, monkeypatch):
    from knight import machine

    monkeypatch.setattr(machine, "available_memory", lambda: 2**20)
    monkeypatch.setattr(dp_memory, "spill_space", lambda: 2**20)
    assert cli.main(["count", "6", "9", "--method", "dp"]) == exit_status.EXIT_USAGE
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "GiB" in error


@pytest.mark.parametrize(("rows", "cols", "closed"), [(5, 5, False), (4, 8, False), (5, 6, True)])
def test_tables_too_big_for_memory_go_to_disk_in_shards(monkeypatch, tmp_path, spill_folders, rows, cols, closed):
    """With (pretend) little memory a step runs in shards whose tables are
    written to disk and read back mapped: the same counts, the same tables,
    and the spill folder removed."""
    from knight import machine

    plan = cell_order.schedule(rows, cols)
    in_memory, memory_work = dp_run.count_hamiltonian(plan, closed)
    monkeypatch.setattr(dp_shards, "PARALLEL_STATES", 0)
    monkeypatch.setattr(machine, "available_memory", lambda: 2**10)
    made = spill_folders
    assert dp_shards._shards(10**6, 1, 2) == dp_shards._MAX_SHARDS
    on_disk, disk_work = dp_run.count_hamiltonian(plan, closed)
    assert on_disk == in_memory and disk_work.held == memory_work.held
    assert len(made) == 1 and list(tmp_path.iterdir()) == []
