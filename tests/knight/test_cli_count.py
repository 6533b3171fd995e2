"""`knight count` (knight/cli/count.py): one start and the grid, text and
JSON, the memory check of each concurrent unit."""

from cli_run import run, run_json

from knight import machine, validate


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
