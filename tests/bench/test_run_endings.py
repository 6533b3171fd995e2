"""Every way a bench run ends leaves nothing behind and says one line:
workers leave Ctrl-C to their parent and end quietly when it is gone, a
revision whose knight does not import is one line, a checkout or a
study's scratch folder left by a killed run is removed by the next run,
and a closed stderr neither crashes a run nor sends its errors to stdout."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import pytest

from bench.guard import base_check
from bench.studies import capped_worker
from bench.sweep.progress import Progress
from bench.timing import distinct_sides, owned_folders, revisions
from bench.timing.named_search import Search
from knight.exit_status import run_command

ROOT = revisions.ROOT
GOOD = Search("greedy", 8, 8, (0, 0), closed=False, budget=1_000)
PYPY_REQUEST = {"method": "greedy", "rows": 5, "cols": 5, "start": [0, 0], "closed": False, "budget": 100}
PYPY_REQUEST |= {"tiebreak": "first", "budget_cap": 100, "empty_calls": 0, "with_empty": False}
# each worker that reads requests line by line: how to start it, its first line (or None), a request
WORKERS = {
    "ab_worker": ([str(ROOT / "bench" / "timing" / "ab_worker.py")], True, GOOD.to_json()),
    "pypy_worker": ([str(ROOT / "bench" / "baselines" / "pypy_worker.py")], False, PYPY_REQUEST),
}


def _start(name):
    arguments, greets, _ = WORKERS[name]
    process = subprocess.Popen(
        [sys.executable, *arguments],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    if greets:
        assert "knight" in json.loads(process.stdout.readline())
    return process


@pytest.mark.parametrize("name", sorted(WORKERS))
def test_a_worker_leaves_ctrl_c_to_its_parent_and_ends_when_its_input_closes(name):
    process = _start(name)
    time.sleep(0.5)  # past its start, waiting on its input
    process.send_signal(signal.SIGINT)
    process.stdin.write(json.dumps(WORKERS[name][2]) + "\n")
    process.stdin.flush()
    assert "nodes" in json.loads(process.stdout.readline())
    process.stdin.close()
    assert process.wait(timeout=60) == 0
    assert process.stderr.read() == ""
    process.stdout.close()
    process.stderr.close()


@pytest.mark.parametrize("name", sorted(WORKERS))
def test_a_worker_whose_parent_is_gone_ends_without_a_traceback(name):
    process = _start(name)
    process.stdout.close()  # nobody reads its answers any more
    process.stdin.write(json.dumps(WORKERS[name][2]) + "\n")
    process.stdin.close()
    assert process.wait(timeout=60) == 0
    assert process.stderr.read() == ""
    process.stderr.close()


def test_a_revision_whose_knight_does_not_import_is_one_line(tmp_path, capsys):
    (tmp_path / "knight").mkdir()
    (tmp_path / "knight" / "__init__.py").write_text("def broken(:\n")

    def body():
        revisions.interleaved({"base": tmp_path}, {"base": sys.executable}, [GOOD], 1)

    assert run_command("bench", body) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "base: the knight does not import (SyntaxError" in err


def _dead_pid():
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


@pytest.fixture
def temporary(tmp_path, monkeypatch):
    """A $TMPDIR of the test's own, in this process and its children."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.mark.parametrize("prefix", [revisions.CHECKOUT_PREFIX, capped_worker.SCRATCH_PREFIX])
def test_only_marked_folders_of_dead_runs_are_removed(temporary, prefix):
    dead, alive = temporary / f"{prefix}{_dead_pid()}-abc", Path(owned_folders.make(prefix))
    dead.mkdir()
    (dead / owned_folders.MARK).write_text("")
    unmarked = temporary / f"{prefix}{_dead_pid()}-def"
    unmarked.mkdir()
    (temporary / f"{prefix}{_dead_pid()}-ghi").write_text("a file of the user's")
    assert owned_folders.remove_stale(prefix) == [str(dead)]
    assert not dead.exists() and alive.is_dir() and unmarked.is_dir()


def _repository(folder):
    folder.mkdir()
    for arguments in (["init", "--quiet"], ["commit", "--quiet", "--allow-empty", "-m", "one"]):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *arguments], cwd=folder, check=True)
    return folder


_HOLD = """
import sys, time
from bench.timing import revisions
from knight.exit_status import run_command
def body():
    with revisions.checkout("HEAD", sys.argv[1]) as tree:
        print(tree, flush=True)
        time.sleep(60)
sys.exit(run_command("bench", body))
"""


def _listed(repository):
    return subprocess.run(["git", "worktree", "list"], cwd=repository, capture_output=True, text=True).stdout


def _holding(repository):
    process = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(repository)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    tree = Path(process.stdout.readline().strip())
    assert tree.is_dir() and str(tree) in _listed(repository)
    return process, tree


def test_a_terminated_run_removes_its_checkout(temporary, tmp_path):
    repository = _repository(tmp_path / "repo")
    process, tree = _holding(repository)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 143
    assert process.stderr.read().count("\n") <= 1
    process.stdout.close()
    process.stderr.close()
    assert not tree.parent.exists() and str(tree) not in _listed(repository)
    assert list(temporary.iterdir()) == []


def test_a_checkout_left_by_a_killed_run_is_removed_by_the_next(temporary, tmp_path):
    repository = _repository(tmp_path / "repo")
    process, tree = _holding(repository)
    process.kill()
    process.wait()
    process.stdout.close()
    process.stderr.close()
    assert tree.is_dir()
    with revisions.checkout("HEAD", repository) as mine:
        assert not tree.parent.exists() and str(tree) not in _listed(repository)
        assert mine.is_dir()
    assert list(temporary.iterdir()) == []


def test_the_progress_bar_takes_a_closed_stderr(monkeypatch):
    monkeypatch.setattr(sys, "stderr", None)
    with Progress([1.0, 2.0]) as bar:
        bar.advance(1.0, "5x5 greedy")


@pytest.mark.parametrize(
    ("argv", "status"), [(["--sizes", "5", "--methods", "greedy", "--no-plots"], 0), (["--sizes", "x"], 2)]
)
def test_a_closed_stderr_ends_a_run_as_usual_with_nothing_on_stdout_but_its_result(tmp_path, argv, status):
    command = [sys.executable, "-m", "bench", *argv, "--out", str(tmp_path)]
    done = subprocess.run(
        ["bash", "-c", 'exec "$@" 2>&-', "bash", *command], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == status
    expected = ["bench: 25 of 25 runs in"] if status == 0 else []
    assert [line[:23] for line in done.stdout.splitlines()] == expected


def test_a_name_that_is_not_utf8_gets_its_report(tmp_path):
    """The sweep writes its runs under the name, and ``make plots`` draws the
    figures and writes REPORT.md there: the report's writer is the one that
    a sweep with plots calls."""
    out = os.fsdecode(bytes(tmp_path) + b"/out\xff")
    command = [sys.executable, "-m", "bench", "--sizes", "5", "--methods", "greedy", "--repeats", "1", "--no-plots"]
    done = subprocess.run([*command, "--out", out], cwd=ROOT, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr
    redraw = subprocess.run([sys.executable, "-m", "bench.report", out + "/latest"], cwd=ROOT, capture_output=True)
    assert redraw.returncode == 0, redraw.stderr
    folder = (Path(out) / "latest").resolve()
    assert "\\udcff" in (folder / "REPORT.md").read_text(encoding="utf-8")


def test_dasks_table_of_package_versions_is_not_printed(monkeypatch):
    """Short of file descriptors, the client reads no versions of its own
    and Dask warns with a 13-line table."""
    distributed = pytest.importorskip("distributed")
    from distributed.versions import VersionMismatchWarning

    from knight.counting.cluster import dask_client

    def client(where, timeout):
        warnings.warn("Mismatched versions found\n\n+---+\n| a table |\n+---+", VersionMismatchWarning, stacklevel=1)
        return "a client"

    monkeypatch.setattr(distributed, "Client", client)
    monkeypatch.setattr(dask_client, "_reachable", lambda *_: None)
    monkeypatch.setattr(dask_client, "_wait_for_workers", lambda *_: None)
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        assert dask_client.connect("127.0.0.1:1") == "a client"
    assert [warning for warning in shown if warning.category is VersionMismatchWarning] == []


_TIMING = """
import sys
from bench.timing import revisions
from bench.timing.named_search import Search
from knight.exit_status import run_command
search = Search("greedy", 300, 300, (0, 0), closed=False, budget=10**6)
def body():
    print("timing", flush=True)
    trees = {"base": revisions.ROOT, "head": revisions.ROOT}
    revisions.interleaved(trees, dict.fromkeys(trees, sys.executable), [search], 10**6)
sys.exit(run_command("bench", body))
"""


def _ignores_ctrl_c(pid):
    """Return whether process ``pid`` ignores SIGINT, as its /proc status says."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    mask = next(line.split()[1] for line in status.splitlines() if line.startswith("SigIgn:"))
    return bool(int(mask, 16) & (1 << (signal.SIGINT - 1)))


def _wait_for_workers(pid, count, seconds=60):
    """Wait until process ``pid`` has ``count`` workers that leave Ctrl-C to it."""
    deadline = time.monotonic() + seconds
    children = Path(f"/proc/{pid}/task/{pid}/children")
    while time.monotonic() < deadline:
        workers = children.read_text().split() if children.exists() else []
        if len(workers) >= count and all(_ignores_ctrl_c(worker) for worker in workers):
            return
        time.sleep(0.05)
    raise AssertionError(f"process {pid} did not start {count} workers within {seconds} s")


def test_ctrl_c_in_a_timing_stage_is_one_line():
    """A terminal's Ctrl-C reaches the whole process group: the workers too."""
    process = subprocess.Popen(
        [sys.executable, "-c", _TIMING],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert process.stdout.readline() == "timing\n"
    _wait_for_workers(process.pid, 2)  # both workers started, their handlers set
    time.sleep(0.5)  # and timing
    os.killpg(process.pid, signal.SIGINT)
    assert process.wait(timeout=60) == 130
    assert process.stderr.read().splitlines() == ["bench: interrupted"]
    process.stdout.close()
    process.stderr.close()


def test_a_base_whose_knight_does_not_import_ends_the_guard_in_one_line(tmp_path, monkeypatch, capsys):
    (tmp_path / "knight").mkdir()
    (tmp_path / "knight" / "__init__.py").write_text("def broken(:\n")
    monkeypatch.setattr(base_check, "checkout", lambda commit: contextlib.nullcontext(tmp_path))
    monkeypatch.setattr(base_check, "check_nodes", lambda: True)
    monkeypatch.setattr(distinct_sides, "same_as_working_tree", lambda *_: False)
    assert base_check.main(["--base", "HEAD"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "base: the knight does not import (SyntaxError" in err


def test_a_count_worker_whose_study_is_gone_stops_counting(monkeypatch):
    """The worker runs in a session of its own: a closed terminal does not
    reach it, so it watches for the end of the study that started it."""
    from bench.studies.counts import count_worker

    monkeypatch.setattr(count_worker, "_PARENT", -1)
    with pytest.raises(count_worker._Orphaned):
        count_worker.answer("dfs-plain", 5, 6, 60)
