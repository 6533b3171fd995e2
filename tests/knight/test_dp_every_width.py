"""Every width in one run (knight/counting/dp/runs/width_sweep.py,
model/sweep_relaxation.py; ``knight count R N --total --every-width``): each
board the run passes, its long side cut to 1, 2, ... squares, has the count
of its own run (``count_total``, which answers the boards the theorems rule
out with 0 and no run: the sweep's run must count 0 there), of the DFS, and
the published rows: OEIS A118067 (3 x n, directed), A079137 (4 x n,
undirected) and A389755 (the first 5n cells of a 5-row board: a(5n) =
A083386(n), 5 x n undirected). And why the sweep needs its own relaxation:
the board's own drops the narrower boards' tours.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knight import count_total, count_tours
from knight.counting import driver
from knight.counting.dp import engine
from knight.counting.dp.engine import width_boards
from knight.counting.dp.model import cell_order, degree_relaxation, sweep_relaxation
from knight.counting.dp.planning.policy import StepPolicy
from knight.counting.dp.runs import run_loop, width_sweep


def every_width(rows, cols, closed=False, policy=None):
    """Every width's ``(rows, cols, tours)``, from one run under ``policy``."""
    job = driver.prepare(rows, cols, None, closed, method="dp", total=True, every_width=True)
    return [(width.rows, width.cols, width.tours) for width in engine.every_width(job, policy=policy).widths]


def _swept(rows, cols, closed=False, **options):
    return [tours for _, _, tours in every_width(rows, cols, closed, **options)]


def _each_alone(rows, cols, closed=False):
    return [count_total(r, c, closed=closed).tours for r, c in width_boards(rows, cols)]


# short sides 1 to 7; the last three boards are swept row by row (rows > cols)
BOARDS = [(1, 5), (2, 7), (3, 12), (4, 9), (5, 7), (6, 5), (7, 4), (9, 4), (7, 5)]


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize(("rows", "cols"), BOARDS, ids=[f"{r}x{c}" for r, c in BOARDS])
def test_every_width_is_the_count_of_its_own_run(rows, cols, closed):
    swept = every_width(rows, cols, closed)
    assert [(r, c) for r, c, _ in swept] == width_boards(rows, cols)
    assert [tours for _, _, tours in swept] == _each_alone(rows, cols, closed)


@pytest.mark.slow
@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize(("rows", "cols"), [(6, 7), (5, 10), (4, 16), (8, 5)])
def test_every_width_of_larger_boards(rows, cols, closed):
    assert _swept(rows, cols, closed) == _each_alone(rows, cols, closed)


@pytest.mark.parametrize(("rows", "cols"), [(3, 10), (4, 7), (5, 6), (6, 4)])
def test_every_width_is_the_dfs_count(rows, cols):
    boards = width_boards(rows, cols)
    assert _swept(rows, cols) == [count_tours(r, c, method="dfs").total_tours for r, c in boards]
    # closed: from one start twice the cycles, so every start together that times the squares
    closed = [r * c * count_tours(r, c, (0, 0), closed=True, method="dfs").tours for r, c in boards]
    assert _swept(rows, cols, closed=True) == closed


# fmt: off
A118067 = [0, 0, 0, 16, 0, 0, 104, 792, 1120, 6096, 21344, 114496, 257728, 1292544, 3677568, 17273760,
           46801984, 211731376, 611507360, 2645699504, 7725948608, 32451640000, 97488160384, 397346625760,
           1214082434112, 4835168968464, 15039729265856, 58641619298000]
A079137 = [0, 0, 8, 0, 82, 744, 6378, 31088, 189688, 1213112, 6683852, 36486328, 201282470, 1083585304,
           5706117458, 29819231288, 154430502724, 790787799376, 4014945695196, 20241304810488,
           101336136490228, 504096313001272, 2493533648002492, 12270473056485396]
# A389755(5n), n = 1..9: A083386, 5 x n
A083386 = [0, 0, 0, 82, 864, 18784, 622868, 18061054, 264895640]
# fmt: on


def test_the_published_rows_from_one_run_each():
    assert _swept(3, 28) == A118067
    assert _swept(4, 24) == [2 * paths for paths in A079137]
    assert _swept(9, 5) == [2 * paths for paths in A083386]  # swept row by row: 1x5 to 9x5


def test_counts_past_one_limb():
    # 3 x 40 passes 2^64 at width 38: the table's counts are widened on the way
    swept = _swept(3, 40)
    assert swept[-1] > 2**64
    assert swept[33:] == [count_total(3, width).tours for width in range(34, 41)]


def test_a_harvest_whose_sum_passes_its_limbs_is_counted_in_more():
    plan = cell_order.schedule(5, 7)
    sweep = width_sweep.WidthSweep(plan, False, run_loop.MAX_LIMBS)
    seen = {}
    harvest = sweep.before_step

    def keep(step, keys, counts, before):
        if sweep.widths.get(step) == 6:
            seen.update(step=step, keys=keys.copy(), before=before.copy())
        harvest(step, keys, counts, before)

    sweep.before_step = keep
    run_loop.count_hamiltonian(plan, False, sweep=sweep)
    ones = np.ones((seen["keys"].shape[0], 1), dtype=np.uint64)
    harvest(seen["step"], seen["keys"], ones, seen["before"])
    completing = sweep.found[6]  # every count 1: the states that finish 5 x 6
    assert completing > 1
    harvest(seen["step"], seen["keys"], ones * np.uint64(2**64 - 1), seen["before"])
    assert sweep.found[6] == completing * (2**64 - 1)


@settings(max_examples=12, deadline=None)
@given(st.integers(1, 5), st.integers(1, 8), st.booleans())
def test_any_small_board_every_width(rows, cols, closed):
    assert _swept(rows, cols, closed) == _each_alone(rows, cols, closed)


def test_out_of_core_steps_harvest_the_same():
    everything_on_disk = StepPolicy(partitioned_states=0, min_room=4_000, memory=1)
    assert _swept(4, 8, policy=everything_on_disk) == _swept(4, 8)


# --- the relaxation it needs ---


def test_the_sweep_keeps_every_pattern_the_board_keeps_and_more():
    plan = cell_order.schedule(5, 8)
    prefixes = width_sweep.WidthSweep(plan, False, run_loop.MAX_LIMBS).prefixes
    own = degree_relaxation.live_patterns(plan, False)
    swept = sweep_relaxation.sweep_live_patterns(plan, False, prefixes)
    assert all(((mine & ~theirs) == 0).all() for mine, theirs in zip(own, swept, strict=True))
    assert any((theirs & ~mine).any() for mine, theirs in zip(own, swept, strict=True))


def test_the_boards_own_relaxation_loses_narrower_tours(monkeypatch):
    monkeypatch.setattr(
        width_sweep.WidthSweep,
        "live_patterns",
        lambda self, plan, closed, forced, threads: degree_relaxation.live_patterns(plan, closed, forced, threads),
    )
    assert _swept(5, 7) != _each_alone(5, 7)


def test_an_odd_short_side_needs_the_colour_test_of_each_cut(monkeypatch):
    # the columns cut off an odd short side change the colour balance of
    # the squares to come: with the whole board's alone, prefixes' states go
    monkeypatch.setattr(sweep_relaxation, "_balance_offsets", lambda plan: [0])
    assert _swept(3, 12) != _each_alone(3, 12)


def test_one_square_and_the_driver():
    assert every_width(1, 1, False) == [(1, 1, 1)] and every_width(1, 1, True) == [(1, 1, 0)]
    assert every_width(1, 3) == [(1, 1, 1), (1, 2, 0), (1, 3, 0)]


def test_a_board_the_theorems_rule_out_still_runs_for_its_narrower_ones():
    # 3 x 11 has no closed tour (an odd board), 3 x 10 has 16
    assert every_width(3, 11, closed=True)[9] == (3, 10, 16 * 2 * 30)


def test_no_run_where_the_theorems_rule_out_every_width(monkeypatch):
    monkeypatch.setattr(engine, "one_run", None)  # a run would fail here
    totals = driver.count_every_width(4, 9, closed=True)
    assert [(w.rows, w.cols, w.tours) for w in totals.widths] == [(4, width, 0) for width in range(1, 10)]
    assert totals.method == "theory" and all(w.ruled_out for w in totals.widths)
    assert engine.width_boards(4, 2) == [(1, 2), (2, 2), (3, 2), (4, 2)]
