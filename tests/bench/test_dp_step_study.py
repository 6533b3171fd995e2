"""The DP step-engine study: its worker's engines on tiny boards (in this
process, and once through its own process), its agreement checks with a
scripted worker, and its figure, table and REPORT.md section from
dp_steps.json alone."""

from pathlib import Path

import pytest

from bench.report import run_report
from bench.studies.dp_steps import dp_step_report, dp_step_study, dp_step_worker
from bench.studies.dp_steps.dp_step_study import DONE, STOPPED, StepPlan
from bench.studies.dp_steps.dp_step_worker import ENGINES
from knight.harness_api import StepPolicy, count_hamiltonian


def test_each_engine_counts_4x5_its_own_way_and_leaves_the_defaults_as_they_were():
    before = (StepPolicy(), count_hamiltonian.__defaults__)
    measured = dp_step_worker.measure_board(4, 5, False, repeats=1)
    assert (StepPolicy(), count_hamiltonian.__defaults__) == before
    assert list(measured) == list(ENGINES)
    assert {answer["tours"] for answer in measured.values()} == {164}  # A079137: 82 undirected
    assert len({answer["transitions"] for answer in measured.values()}) == 1
    assert measured["hash"]["out_of_core_steps"] == measured["partitioned"]["out_of_core_steps"] == 0
    spilled = measured["out-of-core"]
    assert 0 < spilled["out_of_core_steps"] < spilled["steps"]  # the large steps only
    assert spilled["room"] == dp_step_worker.room_for(measured["hash"]["states_peak"]) > 0
    assert measured["hash"]["room"] is None
    for answer in measured.values():
        assert answer["anon_peak"] >= answer["anon_before"] > 0 and answer["seconds"] > 0
    # the spill folders held packed tables while the large steps ran, and none in memory
    assert spilled["disk_peak"] > 0 and measured["hash"]["disk_peak"] == measured["partitioned"]["disk_peak"] == 0


def _answer(tours=164, transitions=1_000, out_of_core=3, seconds=0.5, peak=10_000, cpu=None, disk=0):
    return {
        "tours": tours,
        "transitions": transitions,
        "states_peak": 100,
        "steps": 20,
        "out_of_core_steps": out_of_core,
        "seconds": seconds,
        "cpu_seconds": seconds if cpu is None else cpu,
        "repeats": 1,
        "anon_before": 1_000,
        "anon_peak": peak,
        "disk_peak": disk,
        "room": None,
    }


class ScriptedWorker:
    """``ask`` answers from ``script``: board -> {engine: answer}, or None (no answer in time)."""

    def __init__(self, script):
        self.script, self.asked, self.warm_ups = script, [], [0.4]

    def ask(self, request, timeout):
        self.asked.append((request, timeout))
        return self.script[request["rows"], request["cols"], request["closed"]]


def _script(**changed):
    """4x5 open, each engine answering alike but for ``changed[engine]``."""
    return {
        (4, 5, False): {
            "hash": _answer(out_of_core=0, **changed.get("hash", {})),
            "partitioned": _answer(out_of_core=0, seconds=0.25, cpu=0.4, **changed.get("partitioned", {})),
            "out-of-core": _answer(peak=3_000, disk=1_500, **changed.get("out-of-core", {})),
        }
    }


def test_the_study_asks_each_board_once_and_keeps_a_row_per_engine():
    worker = ScriptedWorker(_script() | {(6, 6, True): None})
    plan = StepPlan(((4, 5, False), (6, 6, True)), repeats=5, repeat_below=0.2, seconds=9.0)
    measured = dp_step_study.measure(plan, worker)
    assert worker.asked[0] == ({"rows": 4, "cols": 5, "closed": False, "repeats": 5, "repeat_below": 0.2}, 9.0)
    assert [(row["rows"], row["engine"], row["status"]) for row in measured["rows"]] == [
        (4, "hash", DONE),
        (4, "partitioned", DONE),
        (4, "out-of-core", DONE),
        (6, "hash", STOPPED),
        (6, "partitioned", STOPPED),
        (6, "out-of-core", STOPPED),
    ]
    first = measured["rows"][1]
    assert first["transitions_per_second"] == 4_000 and first["bytes_per_state"] == 90
    assert measured["rows"][2]["bytes_per_state"] == 20 and first["published"] == "A079137"
    assert measured["rows"][2]["disk_bytes_per_state"] == 15 and first["disk_bytes_per_state"] is None
    assert measured["warm_up_seconds"] == [0.4] and len(measured["load_average"]["start"]) == 3


@pytest.mark.parametrize(
    ("changed", "message"),
    [
        ({"partitioned": {"tours": 166}}, "4x5 open: the step engines' totals differ"),
        ({"out-of-core": {"transitions": 999}}, "4x5 open: the step engines' transitions differ"),
        (
            {name: {"tours": 162} for name in ENGINES},
            r"4x5 open: the step engines counted 162, published 164 \(A079137\)",
        ),
        ({"out-of-core": {"out_of_core": 0}}, "4x5 open: no step of the out-of-core engine ran out of core"),
    ],
)
def test_a_count_that_disagrees_stops_the_study(changed, message):
    script = _script()
    for engine, fields in changed.items():
        for key, value in fields.items():
            script[4, 5, False][engine]["out_of_core_steps" if key == "out_of_core" else key] = value
    with pytest.raises(AssertionError, match=message):
        dp_step_study.measure(StepPlan(((4, 5, False),)), ScriptedWorker(script))


def test_the_study_runs_its_worker_process():
    measured = dp_step_study.measure(StepPlan(((4, 5, False),), repeats=2, repeat_below=10.0, seconds=120.0))
    rows = measured["rows"]
    assert [row["status"] for row in rows] == [DONE] * 3 and {row["tours"] for row in rows} == {164}
    assert all(row["repeats"] == 2 for row in rows) and len(measured["warm_up_seconds"]) == 1
    assert rows[2]["out_of_core_steps"] > 0


def _measured():
    worker = ScriptedWorker(_script() | {(6, 6, True): None})
    return dp_step_study.measure(StepPlan(((4, 5, False), (6, 6, True))), worker)


def test_the_figure_draws_what_was_measured(tmp_path, assert_png):
    assert_png(dp_step_report.draw(_measured(), tmp_path / dp_step_study.STUDY.figure_file))
    nothing = dp_step_study.measure(StepPlan(((6, 6, True),)), ScriptedWorker({(6, 6, True): None}))
    assert_png(dp_step_report.draw(nothing, tmp_path / "empty.png"))


def test_the_section_gives_the_ratios_the_load_and_a_line_per_engine():
    lines = dp_step_report.section(_measured(), Path("9-dp-steps.png"))
    text = "\n".join(lines)
    assert lines[0] == "## The DP's step engines: hash against partitioned, in memory and out of core"
    assert (
        "**Rate over the hash step's**, per wall second (per CPU second, every thread): "
        "4x5 open: partitioned 2.00x (1.25x), out of core 1.00x (1.00x)."
    ) in text
    assert "load average" in text and "![DP step engines](9-dp-steps.png)" in text
    assert "| 4x5 open | partitioned | 164 (A079137) | 250 ms\u00b9 (400 ms) | 1,000 | 0.00 (0.00) |" in text
    assert "| 6x6 closed | out of core | stopped |" in text
    assert "| 0.0 MiB \u00b7 20 | 0.0 MiB \u00b7 15.0 | 3 of 20 |" in text  # out of core: RAM, then disk
    assert "| 0.0 MiB \u00b7 90 | - | 0 of 20 |" in text  # in memory: no disk


def test_a_run_with_dp_steps_json_gets_figure_9_and_the_section(tmp_path):
    from bench.__main__ import main
    from bench.run_folder import record

    assert main(["--sizes", "5", "--methods", "greedy", "--repeats", "1", "--no-plots", "--out", str(tmp_path)]) == 0
    folder = (tmp_path / "latest").resolve()
    record.write_json(folder / dp_step_study.DP_STEPS, _measured())
    text = run_report.write(folder).read_text()
    assert text.count("## The DP's step engines") == 1 and "](9-dp-steps.png)" in text
    assert (folder / "9-dp-steps.png").exists()
    page = (folder / "index.html").read_text()
    assert "<h2>The DP's step engines: hash against partitioned, in memory and out of core</h2>" in page
    assert 'alt="DP step engines"' in page


def test_alone_it_refuses_a_folder_that_holds_a_study(tmp_path, capsys):
    (tmp_path / dp_step_study.DP_STEPS).write_text("{}")
    with pytest.raises(SystemExit) as stopped:
        dp_step_study.main([str(tmp_path)])
    assert stopped.value.code == 2 and "exists" in capsys.readouterr().err
    assert (tmp_path / dp_step_study.DP_STEPS).read_text() == "{}"
