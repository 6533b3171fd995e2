"""Resume files under hostile conditions (issue 13, items 4 to 8): paths
that cannot hold one, files that are not one, records that do not parse,
another budget, and two counts at once. Each ends in one line and exit
status 2, and no file the count did not write is ever changed."""

import fcntl
import io
import json
import signal
import subprocess
import sys
import time

import pytest

from knight import cli, exit_status
from knight.counting.dfs.unit_store import UnitStore
from knight.files import journal


def _count(*argv):
    out = io.StringIO()
    return cli.main(["count", "3", "4", "--depth", "2", *argv], out=out), out.getvalue()


def _refused(capsys, *argv):
    status, out = _count(*argv)
    error = capsys.readouterr().err
    assert status == exit_status.EXIT_USAGE and out == "", error
    assert error.startswith("knight: error: ") and error.count("\n") == 1 and "Traceback" not in error
    return error


def _sealed(path, text):
    """Record ``text`` as a count would have written it into ``path``:
    with the checksum of the file's header and the text."""
    header = path.read_text().splitlines()[0]
    return journal.Format("a knight resume file", header, parse=None).line(text)


def _record(line):
    """The JSON record of a resume file's line, its checksum left off."""
    return json.loads(line.rpartition("\t")[0])


@pytest.fixture
def resume_file(tmp_path, capsys):
    """A finished resume file of ``count 3 4 --depth 2``."""
    path = tmp_path / "units.jsonl"
    assert _count("--resume", str(path))[0] == 0
    capsys.readouterr()
    return path


def test_item_4_paths_that_cannot_hold_a_resume_file(tmp_path, capsys, unwritable_folder, monkeypatch):
    assert "is a folder" in _refused(capsys, "--resume", str(tmp_path))
    assert "does not exist" in _refused(capsys, "--resume", str(tmp_path / "no" / "such" / "file"))
    assert "Permission denied" in _refused(capsys, "--resume", str(unwritable_folder / "units.jsonl"))
    monkeypatch.chdir(unwritable_folder)  # a relative path in a read-only working folder
    assert "Permission denied" in _refused(capsys, "--resume", "units.jsonl")


@pytest.mark.parametrize("method", ["dfs", "dp"])
def test_an_empty_resume_name_is_refused_before_the_work(capsys, monkeypatch, method):
    """Issue 29, item 7: ``--resume ''`` is refused before any unit runs,
    on the command line and through the API alike."""
    from knight import count_tours
    from knight.counting import driver
    from knight.errors import InvalidArgument

    def no_count(*args):
        raise AssertionError("counted before refusing")

    monkeypatch.setattr(driver, "count_prepared", no_count)
    assert "--resume needs a value, got ''" in _refused(capsys, "--method", method, "--resume", "")
    with pytest.raises(InvalidArgument, match="a file name must not be empty"):
        count_tours(3, 4, method=method, resume="")


@pytest.mark.parametrize("content", ["my notes", "my notes\n", "[1,2,3]\n", "42\n", "null\n", '{"rows": 3}\n'])
def test_item_5_and_6_a_file_that_is_not_a_resume_file_is_never_written(tmp_path, capsys, content):
    path = tmp_path / "notes.txt"
    path.write_text(content)
    assert "is not a knight resume file; it is left untouched" in _refused(capsys, "--resume", str(path))
    assert path.read_text() == content


@pytest.mark.parametrize(
    "line",
    [
        "garbage",
        "[1,2,3]",
        '{"unit": 0, "status": 0, "tours": 1}',
        '{"unit": "0", "status": 0, "tours": 1, "nodes": 2}',
        '{"unit": 0, "status": 0, "tours": -1, "nodes": 2}',
        '{"unit": 0, "status": true, "tours": 1, "nodes": 2}',
        '{"unit": 999999, "status": 0, "tours": 1, "nodes": 2}',
        '{"unit": 0.5, "status": 0, "tours": 1, "nodes": 2}',
        # issue 19: past what a count can hold (was an OverflowError), past
        # the budget, a status no finished unit has, a status and tours at odds
        '{"unit": 0, "status": 0, "tours": 1, "nodes": 1000000000000000000000000000000}',
        '{"unit": 0, "status": 0, "tours": 1, "nodes": 100000000000000000}',
        '{"unit": 0, "status": 4, "tours": 1, "nodes": 2}',
        '{"unit": 0, "status": 1, "tours": 5, "nodes": 20}',
        '{"unit": 0, "status": 0, "tours": 0, "nodes": 20}',
    ],
)
def test_item_5_a_malformed_record_names_the_file_and_line(resume_file, capsys, line):
    lines = resume_file.read_text().splitlines()
    lines.insert(2, _sealed(resume_file, line))
    resume_file.write_text("\n".join(lines) + "\n")
    before = resume_file.read_bytes()
    error = _refused(capsys, "--resume", str(resume_file))
    assert f"{resume_file}, line 3: not a record of a knight resume file" in error
    assert resume_file.read_bytes() == before


def test_item_5_a_torn_last_line_is_the_one_recovery(resume_file, capsys):
    records = resume_file.read_text().splitlines()
    resume_file.write_text("\n".join(records[:-1]) + "\n" + records[-1][:7])
    status, out = _count("--resume", str(resume_file), "--json")
    assert status == 0 and json.loads(out)["tours"] == 16
    # the torn unit ran again and was recorded once, whole
    units = [_record(line)["unit"] for line in resume_file.read_text().splitlines()[1:]]
    assert sorted(units) == sorted(_record(line)["unit"] for line in records[1:])


def test_item_7_the_budget_is_part_of_the_identity(tmp_path, capsys):
    path = tmp_path / "units.jsonl"
    assert _count("--budget", "5", "--resume", str(path))[0] == 0
    capsys.readouterr()
    error = _refused(capsys, "--resume", str(path))
    assert "records a different count: budget 5 (now 1000000000000)" in error


def test_item_8_a_second_count_on_the_same_file_is_refused(resume_file, capsys):
    header = json.loads(resume_file.read_text().splitlines()[0])
    header.pop("file"), header.pop("version")
    store = UnitStore.open(resume_file, header)  # a count in progress holds the file
    try:
        before = resume_file.read_bytes()
        assert "is in use by another run" in _refused(capsys, "--resume", str(resume_file))
        assert resume_file.read_bytes() == before
    finally:
        store.close()
    assert _count("--resume", str(resume_file))[0] == 0  # free once the first is done


def test_a_file_another_run_holds_is_refused_before_anything_is_printed(tmp_path, capsys):
    """A count that would first print its projection (7 x 7 by search:
    hours) refuses a resume file another run holds in its one line, before
    the projection; the file is left as it was."""
    path = tmp_path / "units.jsonl"
    path.write_text("")
    with open(path, "rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        status = cli.main(["count", "7", "7", "--method", "dfs", "--depth", "2", "--resume", str(path)])
    error = capsys.readouterr().err
    assert status == exit_status.EXIT_USAGE and error.count("\n") == 1
    assert "is in use by another run" in error and path.read_text() == ""


def test_item_8_two_processes(tmp_path):
    """Two real counts resuming from one file: the second is refused at
    once while the first runs; killing the first (SIGKILL: no chance to
    unlock) frees the file."""
    path = tmp_path / "units.jsonl"
    # a cut at depth 2: planned in a moment, then the plain search's units
    # of minutes, so the first is still running when the second starts,
    # however fast its kernels load (the pruned search's seconds lost that
    # race once the tests' kernels were compiled before they ran)
    argv = [sys.executable, "-m", "knight", "count", "6", "6", "--plain", "--depth", "2", "--workers", "1"]
    argv += ["--resume", str(path)]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as first:
        deadline = time.monotonic() + 60
        while (not path.exists() or b"\n" not in path.read_bytes()) and time.monotonic() < deadline:
            time.sleep(0.02)
        second = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        running = first.poll() is None
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=30)
    assert running, "the first count ended before the second was tried"
    assert second.returncode == 2 and second.stderr.count("\n") == 1
    assert "is in use by another run" in second.stderr
    header = json.loads(path.read_text().splitlines()[0])
    header.pop("file"), header.pop("version")
    UnitStore.open(path, header).close()  # free again


def test_a_unit_recorded_twice_with_two_answers_is_refused(resume_file, capsys):
    """Issue 19: the same unit twice with two counts was accepted, the last
    line winning (1752 printed instead of 1728 on 5x5)."""
    lines = resume_file.read_text().splitlines()
    record = _record(lines[1])
    lines.append(_sealed(resume_file, json.dumps({**record, "tours": record["tours"] + 24, "status": 0})))
    resume_file.write_text("\n".join(lines) + "\n")
    before = resume_file.read_bytes()
    error = _refused(capsys, "--resume", str(resume_file))
    assert f"unit {record['unit']} is recorded twice with different results" in error
    assert resume_file.read_bytes() == before


def test_a_unit_recorded_twice_alike_counts_once(resume_file, capsys):
    lines = resume_file.read_text().splitlines()
    honest = _count("--resume", str(resume_file))[1]
    resume_file.write_text("\n".join([*lines, lines[1]]) + "\n")
    status, out = _count("--resume", str(resume_file))
    assert status == 0
    assert out.split("seconds")[0] == honest.split("seconds")[0]  # all but the time
