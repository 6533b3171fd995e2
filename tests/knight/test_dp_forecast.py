"""The DP's projection from measured per-step states (state_forecast,
step_curves.json): each way of projecting held against a measured board it did
not see, and the up-front refusal it drives (memory_model.check_fits,
``--disk``) against the boards that fit."""

import json
import math

import pytest

from knight import cli, exit_status
from knight.counting import driver
from knight.counting.dp import engine
from knight.counting.dp.engine import total_with_work
from knight.counting.dp.planning import memory_model, state_forecast
from knight.counting.dp.planning.policy import StepPolicy
from knight.errors import InvalidArgument
from knight.runtime import machine

HELD = state_forecast.measured_curves()


def _peak(short, long, closed):
    return max(HELD[(short, long, closed)])


def _without(*boards):
    return {key: held for key, held in HELD.items() if key not in boards}


def test_the_curves_are_states_held_after_each_step_of_a_board():
    for (short, long, closed), held in HELD.items():
        assert 3 <= short <= long and isinstance(closed, bool)
        assert 0 < len(held) <= short * long and max(held) > 0
        assert all(isinstance(value, int) and value >= 0 for value in held)


def test_a_measured_board_is_its_own_curve():
    for short, long, closed in [(6, 8, False), (7, 7, False), (7, 8, True)]:
        guess = state_forecast.forecast(long, short, closed)  # either way round
        assert guess.measured and guess.peak == _peak(short, long, closed)
        assert guess.how == state_forecast.MEASURED
    # 8 x 8 open, counted: its whole run is its curve
    guess = state_forecast.forecast(8, 8, False)
    assert guess.measured and guess.peak == _peak(8, 8, False) and guess.how == state_forecast.MEASURED


# held out: each way of projecting, on a measured board it is not given.
# The factors are what the method meets on today's curves (docs/counting-dp.md)
def test_a_short_side_past_the_measured_is_fitted_within_a_factor_of_1_5():
    """7 x 7 open from the boards of short sides 4 to 6 alone."""
    curves = {key: held for key, held in HELD.items() if key[0] <= 6}
    guess = state_forecast.forecast(7, 7, False, curves)
    assert not guess.measured and "fitted" in guess.how
    assert 1 / 1.5 < guess.peak / _peak(7, 7, False) < 1.5


@pytest.mark.parametrize("short, long", [(6, 6), (6, 7), (6, 8)])
@pytest.mark.parametrize("closed", [False, True])
def test_a_measured_prefix_continued_by_the_other_kind_meets_its_peak_within_a_factor_of_1_5(short, long, closed):
    """Cut where 8 x 8 open's run stopped (step 33 of 64) and continued by
    the same board's other kind's ratios."""
    steps = short * long
    cut = HELD[(short, long, closed)][: steps * 33 // 64]
    curves = {**HELD, (short, long, closed): cut}
    guess = state_forecast.forecast(short, long, closed, curves)
    assert "continued by" in guess.how and not guess.measured
    assert 1 / 1.5 < guess.peak / _peak(short, long, closed) < 1.5


# between the short side and twice it the fit's growth is a guess (5 x 10
# from 5 x 8: 6x high; short side 3, not fitted, 3 x 12 from 3 x 10: 0.35;
# docs/counting-dp.md)
@pytest.mark.parametrize("short, long, base", [(5, 12, 10), (4, 12, 10), (4, 10, 8), (6, 8, 7)])
def test_a_longer_board_grows_from_the_longest_measured_within_a_factor_of_1_5(short, long, base):
    curves = {key: held for key, held in HELD.items() if not (key[0] == short and key[1] > base)}
    guess = state_forecast.forecast(short, long, False, curves)
    assert "fit's growth" in guess.how and f"{short}x{base} open" in guess.how
    assert 1 / 1.5 < guess.peak / _peak(short, long, False) < 1.5


def test_8x8_closed_is_its_measured_prefix_continued_by_8x8_open():
    """8 x 8 closed's run was measured to step 57; 8 x 8 open's, whole,
    continues it."""
    guess = memory_model.projection(8, 8, closed=True)
    assert f"measured to step {len(HELD[(8, 8, True)])} of 64" in guess.how and "8x8 open" in guess.how
    # never below the measured prefix's peak (the steps the other kind
    # continues fall below it: the prefix is past 8 x 8's peak step)
    whole = state_forecast.forecast(8, 8, True)
    assert whole.peak >= max(HELD[(8, 8, True)])
    assert guess.states == math.ceil(whole.peak * state_forecast.quotient_shares()[8][0])
    assert guess.disk_bytes == memory_model.step_disk_bytes(guess.states, guess.states)


def test_the_projection_covers_every_board_the_dp_may_take():
    for rows in range(1, 12):
        for cols in range(rows, 14):
            for closed in (False, True):
                guess = memory_model.projection(rows, cols, closed)
                assert guess.states >= 0 and guess.transitions >= 0 and guess.how


# --- the refusal ---


@pytest.fixture
def this_machine(monkeypatch):
    """23 GiB of memory and 67 GiB of free disk, as the project's machine."""
    monkeypatch.setattr(machine, "available_memory", lambda: 23 << 30)
    monkeypatch.setattr(memory_model, "spill_space", lambda: 67 << 30)


@pytest.mark.parametrize("rows, cols, closed", [(6, 6, False), (7, 7, False), (8, 8, True), (6, 8, False)])
def test_boards_that_fit_by_a_wide_margin_are_accepted(this_machine, rows, cols, closed):
    job = driver.prepare(rows, cols, None, closed, method="dp", memory=7 << 30, total=True)
    assert job.method == "dp"


def test_8x8_open_is_refused_before_it_starts_naming_both_budgets(this_machine, capsys):
    # a disk budget below the least the projection takes, whatever the
    # curves say: a fixed one that the projection later fitted started the
    # whole count in the test (once, when the measured curve lowered the peak)
    disk = memory_model.projection(8, 8).least_disk_bytes // 2**30 // 2
    status = cli.main(["count", "8", "8", "--total", "--memory", "16GiB", "--disk", f"{disk}GiB"])
    assert status == exit_status.EXIT_USAGE
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "Traceback" not in error
    assert "memory budget" in error and f"{disk}.0 GiB disk budget (--disk)" in error
    assert "16.0 GiB memory budget" in error and "its own measured run" in error


def test_8x8_open_fits_60_gib_of_disk_and_the_refusal_takes_the_runs_merged_early(this_machine):
    """Issue 30's 60 GiB holds 8 x 8 open's peak out of core. A disk budget
    between the least the run takes, its runs merged early as the disk runs
    short (``EARLY_RUN_ENTRIES``), and the most, its runs as the chunks make
    them (``RUN_ENTRIES_PER_STATE``), is accepted: the refusal takes the least."""
    guess = memory_model.projection(8, 8)
    assert guess.least_disk_bytes < guess.disk_bytes < 60 << 30
    assert guess.least_disk_bytes == memory_model.step_disk_bytes(guess.states, guess.states, early=True)
    between = (guess.least_disk_bytes + guess.disk_bytes) // 2
    for disk in (60 << 30, between):
        job = driver.prepare(8, 8, None, False, method="dp", memory=16 << 30, disk=disk, total=True)
        assert job.method == "dp"


def test_the_disk_budget_refuses_what_the_free_disk_would_take(this_machine, monkeypatch):
    # 8 x 8 closed, past 2 GiB of memory, is projected to need more than half a GiB of disk out of core
    driver.prepare(8, 8, None, True, method="dp", memory=2 << 30, disk=20 << 30, total=True)
    with pytest.raises(InvalidArgument, match=r"past the 0\.5 GiB disk budget \(--disk\)"):
        driver.prepare(8, 8, None, True, method="dp", memory=2 << 30, disk=1 << 29, total=True)
    monkeypatch.setattr(memory_model, "spill_space", lambda: 1 << 29)
    with pytest.raises(InvalidArgument, match=r"past the 0\.5 GiB disk budget \(free in"):
        driver.prepare(8, 8, None, True, method="dp", memory=2 << 30, disk=100 << 40)


def test_disk_is_read_and_refused_as_memory_is(capsys):
    for options in (["--disk", "lots"], ["--method", "dfs", "--disk", "1G"], ["--disk", "-1"]):
        assert cli.main(["count", "4", "5", *options]) == exit_status.EXIT_USAGE
        error = capsys.readouterr().err
        assert error.count("\n") == 1 and "disk" in error
    with pytest.raises(InvalidArgument, match="each worker's own disk"):
        driver.count_total(4, 5, scheduler="tcp://127.0.0.1:1", disk=2**30)
    assert cli.main(["count", "4", "5", "--total", "--disk", "0"]) == 0  # in memory: no disk needed


# --- the work a total prints ---


def test_total_json_tells_the_work(capsys):
    assert cli.main(["count", "5", "6", "--total"]) == 0
    text = capsys.readouterr().out
    assert cli.main(["count", "5", "6", "--total", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    tours, work = total_with_work(5, 6, False)
    assert record["tours"] == tours and text.split()[1] == str(tours)
    assert record["transitions"] == work.transitions and record["states_per_step"] == work.held
    assert record["transitions_per_step"] == work.emitted and sum(work.emitted) == work.transitions
    assert record["states_peak"] == max(work.held) and record["seconds"] > 0
    assert 0 < record["ram_peak_bytes"] <= record["rss_peak_bytes"] and record["disk_peak_bytes"] == 0


def test_the_disk_peak_is_what_the_spill_folder_held(monkeypatch, tmp_path, spill_folders):
    """Steps sent to disk: the spill folder's bytes at a step's end are seen."""
    from knight.counting.dp.steps import hash_step

    # 5x5: every step sent to disk under a budget of 1 KiB, as 5x6's, in a fifteenth of its time
    job = driver.prepare(5, 5, None, False, method="dp", total=True)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    monkeypatch.setattr(hash_step, "PARALLEL_STATES", 0)
    total = engine.total(job, policy=StepPolicy(table="hash", memory=2**10, min_room=2**10))
    assert total.tours == total_with_work(5, 5, False)[0]
    assert total.disk_peak_bytes >= 16 * max(total.states_per_step)
    assert spill_folders and not any(folder.exists() for folder in spill_folders)


def test_a_board_timed_at_its_scale_is_projected_at_its_own_rate():
    """8 x 8 open's steps were timed out of core at about twice the core
    seconds a state that the smaller boards' transitions give: its time is
    projected from its own rate, and a board with no such timing from the
    transitions."""
    open_8x8 = memory_model.projection(8, 8)
    rate = memory_model.MEASURED_CORE_SECONDS_PER_STATE_STEP[(8, 8, False)]
    work = state_forecast.forecast(8, 8, False).state_steps * state_forecast.quotient_shares()[8][1]
    assert open_8x8.core_seconds == pytest.approx(work * rate)
    assert open_8x8.core_seconds > 1.5 * open_8x8.transitions * memory_model.CORE_SECONDS_PER_TRANSITION
    closed = memory_model.projection(8, 8, closed=True)
    assert closed.core_seconds == closed.transitions * memory_model.CORE_SECONDS_PER_TRANSITION
