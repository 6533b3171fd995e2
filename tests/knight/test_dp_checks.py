"""The frontier DP's own checks: carries into the next limb and out of the
top one, boards past memory refused or sent to disk in shards, options of
the DFS refused, the auto policy."""

import numpy as np
import pytest

from knight import InvalidArgument, count_tours
from knight.counting.dp.model import cell_order, degree_relaxation
from knight.counting.dp.planning import memory_model
from knight.counting.dp.planning.policy import StepPolicy
from knight.counting.dp.runs import run_loop
from knight.counting.dp.steps import hash_kernels, hash_step
from knight.counting.dp.steps.step_arguments import step_arguments
from knight.runtime import machine


def _dp(rows, cols, start=None, closed=False, **options):
    return count_tours(rows, cols, start, closed, method="dp", **options)


# --- checks ---


def _first_step(plan, keys, counts):
    """The kernel's arguments for the first step of ``plan`` (open)."""
    return step_arguments(
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
    made = hash_kernels.frontier_step(*_first_step(plan, keys, counts), 10, 0, 1)
    assert made.counts.tolist() == [[0, 1]] and made.overflow == 0


def test_a_carry_out_of_the_top_limb_is_caught_and_widened():
    plan = cell_order.schedule(3, 4)
    top = (1 << 64) - 1
    keys = np.zeros(2, dtype=np.uint64)
    # two copies of the empty state whose counts add up to exactly 2^128
    counts = np.array([[top, top >> 1], [1, 1 << 63]], dtype=np.uint64)
    assert hash_kernels.frontier_step(*_first_step(plan, keys, counts), 10, 0, 1).overflow == 1
    with pytest.raises(OverflowError, match="2\\^128"):
        run_loop.count_hamiltonian(plan, False, state=(0, keys, counts, 0), max_limbs=2)
    # with more limbs: 3x4 has 8 undirected paths, each now 2^128 ways
    assert run_loop.count_hamiltonian(plan, False, state=(0, keys, counts, 0))[0] == 8 * 2**128


def test_a_board_too_big_for_memory_is_refused(monkeypatch):

    monkeypatch.setattr(machine, "available_memory", lambda: 2**20)
    _dp(4, 6)  # past memory: sharded to disk
    monkeypatch.setattr(memory_model, "spill_space", lambda: 2**20)
    monkeypatch.setattr(machine, "available_memory", lambda: 2**27)  # the bitmaps fit, the tables do not
    with pytest.raises(InvalidArgument, match="GiB of disk"):
        _dp(6, 9)
    with pytest.raises(InvalidArgument, match="frontier spans"):
        _dp(9, 9)
    monkeypatch.setattr(machine, "available_memory", lambda: 2**34)
    with pytest.raises(InvalidArgument, match="pattern bitmaps"):
        _dp(7, 2900)  # 5.4 MB a step, 34 GiB in all; fewer edges than the counts' widest


def test_the_frontier_spans_at_least_a_column_of_the_short_side():
    """The bound by which check_fits refuses a wide board without a schedule."""
    for short in range(3, 26):
        for extra in range(6):
            assert cell_order.widest_frontier(short, short + extra) >= short


@pytest.mark.parametrize("rows, cols", [(18, 18), (300, 300), (3000, 3000), (20, 5000)])
def test_a_wide_board_is_refused_before_a_schedule_is_built(monkeypatch, rows, cols):
    """A board thousands of squares wide once built its whole schedule to
    learn its frontier was too wide: minutes and GiB before the refusal."""

    def no_schedule(*_args, **_kwargs):
        raise AssertionError("a schedule was built")

    monkeypatch.setattr(cell_order, "schedule", no_schedule)
    with pytest.raises(InvalidArgument, match=r"frontier spans at least|knight-move edges"):
        memory_model.check_fits(rows, cols, 2**34)


def test_dfs_only_options_are_refused_with_dp():
    for options in [dict(pruned=False), dict(depth=3), dict(workers=2), dict(budget=10)]:
        with pytest.raises(InvalidArgument, match="only the dfs"):
            _dp(4, 5, **options)
    with pytest.raises(InvalidArgument, match="count method"):
        count_tours(4, 5, method="bfs")


def test_auto_picks_the_engine(monkeypatch):
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
    monkeypatch.setattr(memory_model, "spill_space", lambda: 2**20)
    assert choose_method(6, 7) == "dfs"  # nor its table the memory, nor the disk
    assert choose_method(3, 12) == "dp"
    assert choose_method(6, 7, depth=3) == "dfs"
    assert count_tours(3, 12).method == "dp"


@pytest.mark.parametrize(("rows", "cols", "closed"), [(5, 5, False), (4, 8, False), (5, 6, True)])
def test_tables_too_big_for_memory_go_to_disk_in_shards(monkeypatch, tmp_path, spill_folders, rows, cols, closed):
    """Under a small memory budget the hash step runs in shards whose tables
    are written to disk and read back mapped: the same counts, the same
    tables, and the spill folder removed. The budget, not the machine's
    free memory, sizes the shards."""

    plan = cell_order.schedule(rows, cols)
    in_memory, memory_work = run_loop.count_hamiltonian(plan, closed)
    monkeypatch.setattr(hash_step, "PARALLEL_STATES", 0)
    made = spill_folders
    assert hash_step._shards(10**6, 1, 2, 2**10) == hash_step._MAX_SHARDS
    policy = StepPolicy(table="hash", memory=2**10, min_room=2**10)
    on_disk, disk_work = run_loop.count_hamiltonian(plan, closed, policy=policy)
    assert on_disk == in_memory and disk_work.held == memory_work.held
    assert len(made) == 1 and list(tmp_path.iterdir()) == []
