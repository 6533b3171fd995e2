"""A run is complete only when every planned part finished: a study cut
short by SIGTERM (raised as ``Terminated``) or Ctrl-C leaves meta.json
incomplete, and meta.json and REPORT.md name the parts that did not run."""

import json
from dataclasses import dataclass

import pytest

import bench.__main__ as bench_main
from bench.report import run_report
from bench.run_folder import record
from bench.sweep import sweep_runner
from knight.exit_status import EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated

TINY = ["--sizes", "5", "--methods", "greedy", "--repeats", "1", "--no-plots"]


@dataclass
class FakeStudy:
    """A study that writes its file, or is cut short by ``ending``."""

    name: str
    extra: str
    ending: type = None
    data_file: str = ""
    announcement: str = "a study ({setting})"
    skip_help: str = "skip it"

    def __post_init__(self):
        self.data_file = f"{self.name}.json"

    def run(self, folder, setting):
        if self.ending is not None:
            raise self.ending
        record.write_json(folder / self.data_file, {"setting": setting})


def _run_with(monkeypatch, tmp_path, studies):
    monkeypatch.setattr(bench_main, "STUDIES", studies)
    monkeypatch.setattr(bench_main, "_extras", lambda args: {study.extra: 1 for study in studies})
    status = bench_main.main([*TINY, "--out", str(tmp_path)])
    folder = (tmp_path / "latest").resolve()
    return status, json.loads((folder / record.META).read_text())


@pytest.mark.parametrize(("ending", "status"), [(Terminated, EXIT_TERMINATED), (KeyboardInterrupt, EXIT_INTERRUPTED)])
def test_a_study_cut_short_leaves_the_run_incomplete_and_named(monkeypatch, tmp_path, ending, status):
    studies = [FakeStudy("first", "one"), FakeStudy("second", "two", ending), FakeStudy("third", "three")]
    ended, meta = _run_with(monkeypatch, tmp_path, studies)
    assert ended == status
    assert meta["runs_done"] == meta["runs_planned"] and not meta["complete"]
    assert meta["not_run"] == ["two", "three"] and meta["extras_done"] == ["one"]
    assert meta["finished"] is None
    text = run_report.render(meta, [], {})
    assert "**incomplete**" in text and "not run: two; three" in text


def test_a_run_whose_parts_all_finished_is_complete(monkeypatch, tmp_path):
    ended, meta = _run_with(monkeypatch, tmp_path, [FakeStudy("first", "one"), FakeStudy("second", "two")])
    assert ended == 0 and meta["complete"] and meta["not_run"] == [] and meta["finished"]
    assert ", complete." in run_report.render(meta, [], {})


def test_the_sweeps_missing_runs_are_a_part_not_run():
    meta = {"runs_done": 3, "runs_planned": 5, "extras": {"corners_largest": 9, "counts": None}}
    assert sweep_runner.parts_not_run(meta) == [sweep_runner.SWEEP_PART, "corners_largest"]
    meta |= {"runs_done": 5, "extras_done": ["corners_largest"]}
    assert sweep_runner.parts_not_run(meta) == []
