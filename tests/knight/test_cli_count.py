"""`knight count` (knight/cli/count.py): one start and the grid, text and
JSON, the memory check of each concurrent unit."""

from cli_run import run, run_json
from test_cli_synopsis import README

from knight import cli, validate
from knight.runtime import machine


def test_count_one_start_and_grid():
    record = run_json("count", "3", "4", "--start", "1,1")
    assert (record["tours"], record["start"]) == (2, [1, 1])
    record = run_json("count", "3", "4")
    assert record["grid"] == [[2, 0, 0, 2], [4, 0, 0, 4], [2, 0, 0, 2]]
    assert record["tours"] == 16 and record["complete"] is True
    status, text = run("count", "3", "4")
    assert status == 0 and "16 directed open tours" in text


def test_count_memory_estimate_covers_each_concurrent_unit(monkeypatch):
    needed = {}
    for cores in (1, 8):
        monkeypatch.setattr(machine.os, "sched_getaffinity", lambda pid, cores=cores: set(range(cores)), raising=False)
        needed[cores] = validate.memory_needed(100, 100, "count")
    assert needed[8] > needed[1] > validate.memory_needed(100, 100, "greedy")


def _count_help(option):
    commands = next(action for action in cli.build_parser()._actions if action.choices)
    return next(action.help for action in commands.choices["count"]._actions if option in action.option_strings)


def test_the_scheduler_form_in_the_help_is_what_the_address_check_takes():
    """The help's address form (and the README's, test_cli_synopsis) is
    knight/counting/cluster/dask_client.py's: a protocol of its list, or
    none (tcp), then HOST:PORT."""
    from knight.counting.cluster import dask_client

    assert f"([{'|'.join(dask_client.PROTOCOLS)}://]HOST:PORT)" in _count_help("--scheduler")
    assert dask_client.address("10.0.0.5:8786") == "tcp://10.0.0.5:8786"
    for protocol in dask_client.PROTOCOLS:
        assert dask_client.address(f"{protocol}://host:1") == f"{protocol}://host:1"


def test_the_resume_help_names_the_dfs_units_and_the_dp_checkpoint():
    text = _count_help("--resume")
    assert "dfs's work units" in text and "dp's last finished step (a checkpoint)" in text
    assert "DFS's work units, or the DP's last finished step (a checkpoint" in README


def test_the_memory_option_is_named_where_a_dp_count_takes_it():
    assert "--memory" in _count_help("--total") and "dp's budget of memory" in _count_help("--memory")
