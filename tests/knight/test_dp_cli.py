"""The frontier DP at the command line: `count --method dp`, `count --total`
(one line, its options), the memory budget and the projection before a
large run, boards refused before the work."""

import json

import pytest

from knight import InvalidArgument, cli, count_total, count_tours, exit_status
from knight.cli import projection
from knight.counting.dp.planning import memory_model, state_forecast
from knight.runtime import machine


def _dp(rows, cols, start=None, closed=False, **options):
    return count_tours(rows, cols, start, closed, method="dp", **options)


def test_cli_total_is_one_line(capsys):
    assert cli.main(["count", "3", "4", "--total"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.split()[:2] == ["tours", "16"] and "every start" in out
    assert cli.main(["count", "5", "6", "--total", "--closed", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    head = {"rows": 5, "cols": 6, "closed": True, "method": "dp", "tours": 2 * 8 * 30}
    assert {key: record[key] for key in head} == head and list(record)[: len(head)] == list(head)
    # beside the tours, the run's work (tests/knight/test_dp_forecast.py)
    assert set(record) - set(head) == {
        "seconds",
        "transitions",
        "states_peak",
        "ram_peak_bytes",
        "rss_peak_bytes",
        "disk_peak_bytes",
        "states_per_step",
        "transitions_per_step",
        "states_saved",
        "states_saved_per_step",
    }
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
        ["--svg", "x.svg"],
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
    real = memory_model.step_room
    monkeypatch.setattr(memory_model, "step_room", lambda policy: budgets.append(policy.memory) or real(policy))
    assert cli.main(["count", "4", "5", "--total", "--memory", "1GiB"]) == 0
    assert capsys.readouterr().out.split()[1] == str(count_total(4, 5).tours)
    assert cli.main(["count", "4", "5", "--method", "dp", "--memory", "300M", "--start", "1,1"]) == 0
    # the kernels' compilation before the clock runs under no budget of the user's
    budgets = [budget for budget in budgets if budget is not None]
    assert budgets[0] == 1 << 30 and budgets[-1] == 300 << 20
    assert count_tours(4, 5, method="dp", memory=2**30).total_tours == count_tours(4, 5, method="dfs").total_tours
    for options in (["--memory", "1k"], ["--memory", "lots"], ["--method", "dfs", "--memory", "1G"]):
        assert cli.main(["count", "4", "5", *options]) == exit_status.EXIT_USAGE
        error = capsys.readouterr().err
        assert error.count("\n") == 1 and "memory" in error
    with pytest.raises(InvalidArgument, match="each worker's own memory limit"):
        count_total(4, 5, scheduler="tcp://127.0.0.1:1", memory=2**30)
    monkeypatch.setattr(memory_model, "spill_space", lambda: 2**20)
    with pytest.raises(InvalidArgument, match="GiB of disk to run out of core"):
        count_total(8, 8, closed=True, memory=2**30)


def test_a_large_dp_run_first_prints_its_projection(capsys, monkeypatch):
    """Issue 23: before a run projected past PROJECT_DP_STATES_FROM states,
    one line on stderr names its peak states, memory, disk out of core
    and time; smaller runs print none."""
    assert cli.main(["count", "4", "5", "--total"]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(projection, "PROJECT_DP_STATES_FROM", 0)
    for options in (["--total"], ["--method", "dp"], ["--total", "--memory", "300M"]):
        assert cli.main(["count", "4", "5", *options]) == 0
        err = capsys.readouterr().err
        assert err.startswith("knight: about ") and err.count("\n") == 1 and "states at the dp's peak" in err
        assert "cores" in err
    guess = memory_model.projection(8, 8, closed=True)
    assert guess.states == memory_model.projected_peak_states(8, 8, True) and guess.disk_bytes > 0
    one, grid = memory_model.projection(7, 7), memory_model.projection(7, 7, forced_runs=6)
    # a run with no forced end keeps one state for each mirror pair; the
    # forced runs are taken whole
    whole = int(memory_model.TRANSITIONS_PER_STATE_STEP * state_forecast.forecast(7, 7).state_steps)
    assert grid.transitions == int(6 * memory_model.FORCED_SHARE * whole) and one.transitions < whole


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

    monkeypatch.setattr(machine, "available_memory", lambda: 2**20)
    monkeypatch.setattr(memory_model, "spill_space", lambda: 2**20)
    assert cli.main(["count", "6", "9", "--method", "dp"]) == exit_status.EXIT_USAGE
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "GiB" in error
