"""The sweep end to end on a tiny grid: what it writes, resuming after an
interrupt, and refusing bad settings before any work."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import knight
from bench.__main__ import main
from bench.run_folder import record
from bench.sweep import sweep_runner

ROOT = Path(__file__).resolve().parents[2]
TINY = ["--sizes", "5", "--shapes", "3x4", "--budget", "20000", "--repeats", "2"]
META_KEYS = {
    "schema",
    "command",
    "sweep",
    "extras",
    "runs_planned",
    "runs_done",
    "complete",
    "not_run",
    "extras_done",
    "started",
    "finished",
    "machine",
    "software",
    "numba",
    "git",
    "compile_seconds",
    "sessions",
}


def _run(tmp_path, *options):
    assert main([*TINY, "--out", str(tmp_path), *options]) == 0
    return (tmp_path / "latest").resolve()


def _keys(folder):
    return [row.key for row in record.read_runs(folder / record.RUNS)]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """One tiny sweep, shared by the tests that only read it."""
    return _run(tmp_path_factory.mktemp("results"))


def test_a_tiny_sweep_records_every_run(tiny):
    rows = record.read_runs(tiny / record.RUNS)
    # 5x5 and 3x4, every start, three methods
    assert len(rows) == (25 + 12) * 3
    assert len(set(_keys(tiny))) == len(rows)
    impossible = [row for row in rows if row.status == record.IMPOSSIBLE]
    assert len(impossible) == 12 * 3
    assert all(row.reason.startswith("colour parity") and row.nodes == 0 and row.median_s is None for row in impossible)
    for row in rows:
        if row.searched:
            again = knight.solve(row.rows, row.cols, (row.start_row - 1, row.start_col - 1), row.method, row.budget)
            assert (row.status, row.nodes) == (again.status, again.nodes)
            assert row.repeats == 2 and 0 < row.min_s <= row.median_s <= row.max_s
            assert row.nodes_per_s == pytest.approx(row.nodes / row.median_s, rel=1e-5)


def test_meta_records_machine_software_and_compile_times(tiny):
    meta = json.loads((tiny / record.META).read_text())
    assert set(meta) == META_KEYS
    assert meta["complete"] and meta["runs_done"] == meta["runs_planned"] == 111
    assert set(meta["machine"]) >= {"cpu_model", "logical_cores", "usable_cores", "os"}
    assert set(meta["software"]) >= {"python", "numba", "llvmlite", "numpy"}
    assert set(meta["numba"]) == {"threading_layer", "num_threads", "disable_jit", "environment"}
    assert set(meta["git"]) == {"commit", "short", "dirty"}
    assert set(meta["compile_seconds"]) == {"backtrack", "warnsdorff", "greedy"}
    assert [session["ended"] for session in meta["sessions"]] == ["complete"]
    assert meta["sweep"]["parts"][0]["shapes"] == ["5x5", "3x4"]


def test_the_run_folder_holds_every_output(tiny):
    names = {path.name for path in tiny.iterdir()}
    tours = {name for name in names if name.startswith("tour-") and name.endswith(".svg")}
    assert len(tours) >= 3 and names - tours == {
        "runs.csv",
        "meta.json",
        "REPORT.md",
        "index.html",
        "tours.json",
        "1-time-vs-size.png",
        "2-nodes-vs-size.png",
        "3-heatmaps.png",
        "4-success-vs-size.png",
        "5-throughput.png",
    }


def test_symmetry_sampling_searches_one_start_per_class(tmp_path):
    folder = _run(tmp_path, "--starts", "symmetry", "--methods", "warnsdorff", "--no-plots")
    rows = record.read_runs(folder / record.RUNS)
    assert [(row.rows, row.cols, row.start_row, row.start_col, row.represents) for row in rows] == [
        (5, 5, 1, 1, 4),
        (5, 5, 1, 2, 8),
        (5, 5, 1, 3, 4),
        (5, 5, 2, 2, 4),
        (5, 5, 2, 3, 4),
        (5, 5, 3, 3, 1),
        (3, 4, 1, 1, 4),
        (3, 4, 1, 2, 4),
        (3, 4, 2, 1, 2),
        (3, 4, 2, 2, 2),
    ]


def test_resume_finishes_an_interrupted_sweep(tmp_path, monkeypatch, capsys, tiny):
    measure = sweep_runner.measure
    calls = []

    def interrupt_on_the_tenth(*args):
        calls.append(1)
        if len(calls) == 10:
            raise KeyboardInterrupt
        return measure(*args)

    monkeypatch.setattr(sweep_runner, "measure", interrupt_on_the_tenth)
    assert main([*TINY, "--out", str(tmp_path)]) == 130
    folder = (tmp_path / "latest").resolve()
    assert "--resume" in capsys.readouterr().err
    assert len(_keys(folder)) == 9
    meta = json.loads((folder / record.META).read_text())
    assert (meta["complete"], meta["runs_done"]) == (False, 9)
    assert not (folder / "REPORT.md").exists()

    monkeypatch.setattr(sweep_runner, "measure", measure)
    assert main(["--resume", str(tmp_path / "latest")]) == 0
    assert sorted(_keys(folder)) == sorted(_keys(tiny))  # the same sweep's, run whole
    meta = json.loads((folder / record.META).read_text())
    assert meta["complete"] and [s["ended"] for s in meta["sessions"]] == ["interrupted", "complete"]


def test_resume_after_a_crash_mid_line(tmp_path, tiny):
    folder = _run(tmp_path, "--no-plots")
    lines = (folder / record.RUNS).read_text().splitlines(keepends=True)
    # as if killed while writing the 6th row: 5 rows and half a line
    (folder / record.RUNS).write_text("".join(lines[:6]) + lines[6][:7])
    assert main(["--resume", str(folder), "--no-plots"]) == 0
    assert sorted(_keys(folder)) == sorted(_keys(tiny))


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--methods", "dfs"], "unknown method 'dfs'"),
        (["--sizes", "8-5"], "size range '8-5' is empty"),
        (["--budget", "0"], "budget must be in 1..9223372036854775807, got 0"),
        # item 1 of issue 13: an OverflowError, and a run folder --resume could never finish
        (["--budget", "99999999999999999999"], "budget must be in 1..9223372036854775807"),
        (["--quick", "--budget", "99999999999999999999"], "budget must be in 1..9223372036854775807"),
        (["--sizes", "1-99999999999"], "board size must be in 1..46340"),
        (["--repeats", "99999999999999"], "repeats must be in 1..1000"),
        (["--repeats", "0"], "repeats must be"),
        (["--starts", "9,9"], "start row must be in 1..5"),
        (["--tours", "round"], "invalid choice"),
        (["--resume", "/nonexistent/run"], "does not exist"),
        (["--quick", "--sizes", "5"], "--quick is a preset"),
        (["--resume", "x", "--sizes", "5"], "drop --sizes"),
        # issue 29, item 8: empty values ran the default sweep, a negative
        # size was reported as ''
        (["--sizes", ""], "--sizes needs a value, got ''"),
        (["--methods", ""], "--methods needs a value, got ''"),
        (["--sizes", " "], "--sizes needs a value, got ' '"),
        (["--sizes=-3"], "board size must be in 1..46340, got -3"),
        (["--sizes", "5-"], "size range '5-' needs a size after the dash"),
        (["--resume", ""], "--resume needs a value, got ''"),
    ],
)
def test_bad_settings_fail_in_one_line_before_any_work(tmp_path, capsys, argv, message):
    assert main([*argv, "--out", str(tmp_path / "results")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("bench: error: ")
    assert not (tmp_path / "results").exists()


def test_an_empty_out_is_refused_and_writes_nothing_here(tmp_path, capsys, monkeypatch):
    """Issue 29, item 8: ``--out ''`` wrote the run into the current folder."""
    monkeypatch.chdir(tmp_path)
    assert main(["--sizes", "5", "--out", ""]) == 2
    assert "--out needs a value, got ''" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@settings(max_examples=10, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(depth=st.integers(1, 200) | st.integers(1, 200_000))
def test_a_meta_nested_at_any_depth_is_one_line(tiny, tmp_path_factory, capsys, depth):
    """Issue 29, item 5: a RecursionError traceback under --resume. Shallow,
    it is read, and refused as no run's meta.json; deep, refused unread."""
    folder = _copy(tiny, tmp_path_factory.mktemp("nested"))
    meta = "[" * depth + "]" * depth
    (folder / record.META).write_text(meta)
    error = _refused(capsys, "--resume", str(folder))
    deep = "is not JSON: nested deeper than 32 levels"
    assert deep in error if depth > 32 else "is not the meta.json of a python -m bench run" in error
    assert (folder / record.META).read_text() == meta


def test_resume_refuses_a_folder_without_meta(tmp_path, capsys):
    assert main(["--resume", str(tmp_path)]) == 2
    assert "meta.json" in capsys.readouterr().err


def _first_runs_file(folder, process, seconds):
    """runs.csv once the sweep has written a few rows, or None."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        found = list(folder.glob("*/runs.csv"))
        if found and len(found[0].read_text().splitlines()) > 3:
            return found[0]
        time.sleep(0.05)
    return None


def test_ctrl_c_keeps_what_finished(tmp_path):
    """A real SIGINT to a real sweep: exit 130, a readable runs.csv, resumable."""
    command = [
        sys.executable,
        "-m",
        "bench",
        "--sizes",
        "5-40",
        "--methods",
        "warnsdorff",
        "--repeats",
        "50",
        "--no-plots",
        "--out",
        str(tmp_path),
    ]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        runs = _first_runs_file(tmp_path, process, seconds=120)
        assert runs is not None, process.communicate()
        os.kill(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        # a failed wait must not leave the sweep running into later tests
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    assert "Traceback" not in err and "--resume" in err
    rows = record.read_runs(runs)
    assert rows and len({row.key for row in rows}) == len(rows)
    meta = json.loads((runs.parent / record.META).read_text())
    assert meta["sessions"][-1]["ended"] == "interrupted" and meta["runs_done"] == len(rows)


def _refused(capsys, *argv):
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.startswith("bench: error: ") and err.count("\n") == 1 and "Traceback" not in err
    return err


def _copy(tiny, tmp_path):
    import shutil

    return Path(shutil.copytree(tiny, tmp_path / "run"))


def test_out_that_cannot_hold_run_folders_is_refused_before_any_work(tmp_path, capsys, unwritable_folder):
    """Issue 13, item 4: a file, or an unwritable folder, as --out."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    assert "is not a folder" in _refused(capsys, *TINY, "--out", str(notes / "results"))
    assert "is not a folder" in _refused(capsys, *TINY, "--out", str(notes))
    assert notes.read_text() == "my notes"
    assert "results" in _refused(capsys, *TINY, "--out", str(unwritable_folder / "results"))


def test_a_latest_the_harness_did_not_write_is_never_replaced(tmp_path, capsys):
    """Issue 13, item 6: --out's 'latest' was replaced whatever it was."""
    (tmp_path / "latest").write_text("my notes\nabout the last run\n")
    assert "was not written by python -m bench" in _refused(capsys, *TINY, "--out", str(tmp_path))
    assert (tmp_path / "latest").read_text() == "my notes\nabout the last run\n"
    assert os.listdir(tmp_path) == ["latest"]  # no run folder made


@pytest.mark.parametrize(
    ("meta", "message"),
    [
        ("[1,2,3]", "is not the meta.json of a python -m bench run"),
        ("42", "is not the meta.json of a python -m bench run"),
        ("{not json", "is not JSON: Expecting property name"),
        ('{"schema": 1, "sweep": {}}', "has no 'command'"),
    ],
)
def test_resume_refuses_a_foreign_or_broken_meta(tiny, tmp_path, capsys, meta, message):
    """Issue 13, item 5: KeyError and AttributeError tracebacks before."""
    folder = _copy(tiny, tmp_path)
    (folder / record.META).write_text(meta)
    assert message in _refused(capsys, "--resume", str(folder))
    assert (folder / record.META).read_text() == meta


def test_resume_refuses_a_meta_with_a_wrong_type(tiny, tmp_path, capsys):
    folder = _copy(tiny, tmp_path)
    meta = json.loads((folder / record.META).read_text())
    meta["sessions"] = "none"
    (folder / record.META).write_text(json.dumps(meta))
    assert "'sessions' has the wrong type" in _refused(capsys, "--resume", str(folder))


def test_resume_refuses_junk_in_runs_csv_and_a_foreign_runs_csv(tiny, tmp_path, capsys):
    folder = _copy(tiny, tmp_path)
    runs = folder / record.RUNS
    lines = runs.read_text().splitlines(keepends=True)
    runs.write_text("".join([*lines[:5], "junk\n", *lines[5:]]))
    assert "runs.csv, line 6: a damaged line" in _refused(capsys, "--resume", str(folder))
    runs.write_text("my notes")
    assert "is not a runs.csv" in _refused(capsys, "--resume", str(folder))
    assert runs.read_text() == "my notes"


def test_two_sweeps_into_one_folder(tiny, tmp_path, capsys):
    """Issue 13, item 8: the second is refused while the first holds runs.csv."""
    folder = _copy(tiny, tmp_path)
    with record.RunsFile.open(folder / record.RUNS):
        assert "is in use by another run" in _refused(capsys, "--resume", str(folder), "--no-plots")
    assert main(["--resume", str(folder), "--no-plots"]) == 0


# --- faults at the edges (issue 19) -------------------------------------------


def test_a_full_disk_is_one_line_and_leaves_no_temporary(small_filesystem, capsys):
    """`python -m bench --out` on a full filesystem was a traceback and left
    a 0-byte meta.json.tmp."""
    status = main([*TINY, "--out", str(small_filesystem / "results")])
    err = capsys.readouterr().err
    assert status == 74, err
    lines = [line for line in err.splitlines() if line.startswith("bench: error")]
    assert len(lines) == 1 and "No space left on device" in lines[0] and "Traceback" not in err
    assert not [path for path in small_filesystem.rglob("*") if path.name.endswith(".tmp")]


def test_a_resumed_folder_of_another_commit_is_refused(tiny, tmp_path, capsys):
    """Rows of two commits were mixed in one report without a word."""
    folder = _copy(tiny, tmp_path)
    meta = json.loads((folder / record.META).read_text())
    meta["git"]["commit"] = "0" * 40
    (folder / record.META).write_text(json.dumps(meta))
    assert "was measured at commit 000000000000" in _refused(capsys, "--resume", str(folder))


def test_a_meta_whose_sweep_cannot_be_read_is_refused(tiny, tmp_path, capsys):
    """Shapes edited to 5x5x5 ended in a ValueError traceback."""
    folder = _copy(tiny, tmp_path)
    meta = json.loads((folder / record.META).read_text())
    sweep = meta["sweep"]
    part = sweep["parts"][0] if "parts" in sweep else sweep
    key = next(key for key in ("boards", "shapes", "sizes") if key in part)
    part[key] = ["5x5x5"]
    (folder / record.META).write_text(json.dumps(meta))
    assert "meta.json" in _refused(capsys, "--resume", str(folder))


def test_a_huge_csv_field_is_read_and_named(tiny, tmp_path, capsys):
    """A runs.csv field of 200 KB ended in `_csv.Error`."""
    folder = _copy(tiny, tmp_path)
    with open(folder / record.RUNS, "a") as runs:
        runs.write("5,5," + "9" * 200_000 + "\n")
    assert "runs.csv, line" in _refused(capsys, "--resume", str(folder))
