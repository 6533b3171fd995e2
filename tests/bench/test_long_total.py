"""bench.by_hand.long_total: a DP total logged a line a step, with a
checkpoint or without, its log made a table with each step's rate."""

import json

from bench.by_hand import long_total, long_total_table
from knight import count_total


def _records(log):
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_a_run_without_a_checkpoint_logs_every_step_and_its_transitions(tmp_path, capsys):
    log = tmp_path / "run.log"
    assert long_total.main(["4", "5", "--log", str(log), "--every", "0.01"]) == 0
    records = _records(log)
    assert records[0]["start"] == [4, 5] and [record["step"] for record in records[1:-1]] == list(range(1, 21))
    last = records[-1]
    assert last["tours"] == count_total(4, 5).tours == json.loads(capsys.readouterr().out)["tours"]
    per_step = last["work"]["transitions_per_step"]
    assert len(per_step) == 20 and sum(per_step) == last["work"]["transitions"] > 0
    steps = long_total_table.read_steps(log.read_text().splitlines())
    assert [step["emitted"] for step in steps] == per_step
    assert "M transitions a second" in long_total_table.table(steps)
    assert not list(tmp_path.glob("*.npz")) and [path.name for path in tmp_path.iterdir()] == ["run.log"]


def test_a_run_with_a_checkpoint_is_not_counted_again(tmp_path, capsys):
    log, checkpoint = tmp_path / "run.log", tmp_path / "run.ckpt"
    for _ in range(2):
        assert long_total.main(["5", "6", "--closed", "--log", str(log), "--resume", str(checkpoint)]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["tours"] == second["tours"] == count_total(5, 6, closed=True).tours > 0
    assert (
        first["transitions"] > 0 and second["transitions"] == 0
    )  # the finished run's count read back from its checkpoint


def test_a_run_takes_a_disk_budget_and_logs_it(tmp_path, capsys):
    log = tmp_path / "run.log"
    assert long_total.main(["4", "5", "--log", str(log), "--memory", "256MiB", "--disk", "1GiB"]) == 0
    records = _records(log)
    assert records[0]["disk"] == 1 << 30 and records[0]["memory"] == 256 << 20
    assert records[-1]["tours"] == count_total(4, 5).tours == json.loads(capsys.readouterr().out)["tours"]


def test_a_disk_budget_it_cannot_read_is_one_line_before_any_log(tmp_path, capsys):
    log = tmp_path / "run.log"
    assert long_total.main(["4", "5", "--log", str(log), "--disk", "lots"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--disk" in err
    assert not log.exists()
