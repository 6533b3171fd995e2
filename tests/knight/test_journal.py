"""The journal under hostile files: foreign files refused and never
written, malformed lines named, paths that cannot hold one, and the lock."""

import contextlib
import io
import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knight import cli
from knight.errors import InvalidArgument
from knight.files import journal

FORMAT = journal.Format(kind="a test journal", header="test journal v1", parse=lambda line: int(line))


def _write(path, lines):
    with journal.Journal.open(path, FORMAT) as file:
        for line in lines:
            file.append(line)


def test_records_round_trip_and_a_torn_last_line_is_trimmed(tmp_path):
    path = tmp_path / "j"
    _write(path, ["1", "2"])
    with open(path, "ab") as file:
        file.write(b"3")  # cut short: no newline
    assert journal.read(path, FORMAT) == [1, 2]
    _write(path, ["4"])
    assert path.read_text() == "".join(f"{line}\n" for line in ["test journal v1", *map(FORMAT.line, "124")])


def test_a_torn_header_is_ours_and_restarts(tmp_path):
    path = tmp_path / "j"
    path.write_bytes(b"test jour")
    _write(path, ["7"])
    assert journal.read(path, FORMAT) == [7]


@pytest.mark.parametrize("content", [b"my notes", b"my notes\n", b"[1,2,3]\n", b"42\n", b"\xff\xfe\x00binary", b"\n"])
def test_a_foreign_file_is_refused_and_never_written(tmp_path, content):
    path = tmp_path / "notes.txt"
    path.write_bytes(content)
    with pytest.raises(InvalidArgument, match="is not a test journal; it is left untouched"):
        journal.Journal.open(path, FORMAT)
    with pytest.raises(InvalidArgument, match="is not a test journal"):
        journal.read(path, FORMAT)
    assert path.read_bytes() == content


def test_check_refuses_a_short_foreign_file_before_any_work(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"my notes")  # no line end: could have been a torn header
    with pytest.raises(InvalidArgument, match="is not a test journal; it is left untouched"):
        journal.check(path, FORMAT.kind, lambda line: line == FORMAT.header, starts=b"test journal")
    path.write_bytes(b"test jour")  # ours, cut short by a crash
    assert journal.check(path, FORMAT.kind, lambda line: line == FORMAT.header, starts=b"test journal") == str(path)
    assert path.read_bytes() == b"test jour"


def test_a_huge_foreign_file_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "big"
    with open(path, "wb") as file:
        file.truncate(2**34)  # 16 GiB, sparse: reading it whole would take minutes
    with pytest.raises(InvalidArgument, match="is not a test journal"):
        journal.Journal.open(path, FORMAT)


@pytest.mark.parametrize("line", ["x", "", "1.5", "[1]"])
def test_a_bad_line_in_the_middle_names_file_and_line(tmp_path, line):
    path = tmp_path / "j"
    path.write_text(f"test journal v1\n{FORMAT.line('1')}\n{FORMAT.line(line)}\n{FORMAT.line('3')}\n")
    before = path.read_bytes()
    with pytest.raises(InvalidArgument, match=r"j, line 3: not a record of a test journal"):
        journal.Journal.open(path, FORMAT)
    assert path.read_bytes() == before


def test_a_journal_of_the_same_kind_for_other_work_says_how_it_differs(tmp_path):
    differs = journal.Format(
        kind="a test journal",
        header="test journal v2",
        parse=int,
        differs=lambda line: "is for version 1" if line == "test journal v1" else None,
    )
    path = tmp_path / "j"
    _write(path, ["1"])
    with pytest.raises(InvalidArgument, match="j is for version 1"):
        journal.Journal.open(path, differs)


def test_paths_that_cannot_hold_a_journal(tmp_path):
    with pytest.raises(InvalidArgument, match="is a folder"):
        journal.Journal.open(tmp_path, FORMAT)
    with pytest.raises(InvalidArgument, match="does not exist"):
        journal.Journal.open(tmp_path / "missing" / "j", FORMAT)
    with pytest.raises(InvalidArgument, match="not a regular file"):
        journal.Journal.open("/dev/null", FORMAT)
    with pytest.raises(InvalidArgument, match="must be a path"):
        journal.Journal.open(42, FORMAT)
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(InvalidArgument, match="not a regular file"):
        journal.read(tmp_path / "fifo", FORMAT)


def test_an_unwritable_place_is_one_line(unwritable_folder):
    with pytest.raises(InvalidArgument, match=r"cannot open .*: (Permission denied|Read-only file system)"):
        journal.Journal.open(unwritable_folder / "j", FORMAT)


def test_a_second_writer_is_refused_at_once(tmp_path):
    path = tmp_path / "j"
    with journal.Journal.open(path, FORMAT) as first:
        first.append("1")
        # flock locks belong to an open file description: a second open
        # conflicts even in the same process
        with pytest.raises(InvalidArgument, match="is in use by another run"):
            journal.Journal.open(path, FORMAT)
    _write(path, ["2"])  # closed: free again
    assert journal.read(path, FORMAT) == [1, 2]


def test_the_lock_dies_with_its_process(tmp_path):
    path = tmp_path / "j"
    code = textwrap.dedent(f"""
        import os, sys
        from knight.files import journal
        file = journal.Journal.open({str(path)!r}, journal.Format("a test journal", "test journal v1", int))
        print("locked", flush=True)
        sys.stdin.read()
    """)
    with subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as holder:
        try:
            assert holder.stdout.readline() == "locked\n"
            with pytest.raises(InvalidArgument, match="in use"):
                journal.Journal.open(path, FORMAT)
        finally:
            holder.kill()  # SIGKILL: no chance to unlock; the OS must
            holder.wait(timeout=30)
    _write(path, ["5"])
    assert journal.read(path, FORMAT) == [5]


@pytest.mark.parametrize(
    "damage",
    [
        lambda line: line.replace("7", "8", 1),  # the record changed, its checksum kept
        lambda line: line[:-1] + ("0" if line[-1] != "0" else "1"),  # the checksum changed
        lambda line: line.rpartition("\t")[0],  # no checksum: a line of the unchecked format
        lambda line: journal.Format("a test journal", "test journal v2", int).line("7"),  # sealed for another header
    ],
)
def test_a_complete_line_whose_checksum_fails_refuses_the_file(tmp_path, damage):
    """Issue 29, item 1: each record carries the checksum of the header and
    itself; a complete line that fails it is damage, never a record."""
    path = tmp_path / "j"
    _write(path, ["7", "9"])
    header, first, second = path.read_text().splitlines()
    path.write_text(f"{header}\n{damage(first)}\n{second}\n")
    before = path.read_bytes()
    for read in (lambda: journal.read(path, FORMAT), lambda: journal.Journal.open(path, FORMAT)):
        with pytest.raises(InvalidArgument, match=r"j, line 2: a damaged line of a test journal \(its checksum"):
            read()
    assert path.read_bytes() == before


def test_a_torn_last_line_is_dropped_wherever_it_was_cut(tmp_path):
    path = tmp_path / "j"
    _write(path, ["7"])
    whole = FORMAT.line("9") + "\n"
    for cut in range(len(whole)):
        _write(path, [])
        with open(path, "a") as file:
            file.write(whole[:cut])
        assert journal.read(path, FORMAT) == [7]


# --- file names as the system gives them: any bytes, up to its limit --------

NAMES = settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
# a file name: any bytes but the separator and NUL, up to NAME_MAX
file_name = (
    st.one_of(
        st.binary(min_size=1, max_size=12),
        st.integers(1, 255).map(lambda length: b"\xff" * length),
        st.integers(200, 255).map(lambda length: b"n" * length),
    )
    .map(lambda name: name.replace(b"/", b"_").replace(b"\0", b"_"))
    .filter(lambda name: name not in (b".", b".."))
)


@NAMES
@given(file_name)
def test_a_side_lock_takes_any_name_the_file_may_have(tmp_path_factory, name):
    """Issue 57: ``--resume $'dp\\xff.ckpt'`` was a UnicodeEncodeError, and
    a legal name of 250 characters could not be locked ("File name too
    long": the lock's name is longer). The lock's name fits, and holds."""
    folder = tmp_path_factory.mktemp("lock")
    path = os.path.join(os.fsencode(folder), name).decode(errors="surrogateescape")
    with journal.SideLock(path) as held:
        assert len(os.fsencode(os.path.basename(held.path))) <= 255
        with pytest.raises(InvalidArgument, match="in use by another run"):
            journal.SideLock(path)
        with pytest.raises(InvalidArgument, match="in use by another run"):
            journal.SideLock.check(path)
    assert os.listdir(folder) == []


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli.main(argv, out=out)
    return status, out.getvalue(), err.getvalue()


# each file option, and what its command prints when it works
FILE_OPTIONS = {
    "dp checkpoint": (["count", "5", "5", "--method", "dp", "--total", "--resume"], "1728 directed open tours"),
    "dfs resume file": (["count", "5", "5", "--depth", "4", "--resume"], "tours    1728 directed open tours"),
    "drawing": (["solve", "5", "5", "--svg"], "status   found"),
}


@NAMES
@given(st.sampled_from(sorted(FILE_OPTIONS)), file_name)
def test_a_file_named_with_any_bytes_works_or_is_refused_before_the_work(tmp_path_factory, option, name):
    """Non-UTF-8 names (bytes the OS gives as they are) and names up to the
    system's limit: the true result with the file written and nothing else
    left, or one line and exit 2 before any work, with nothing made."""
    folder = tmp_path_factory.mktemp("named")
    path = os.fsdecode(os.path.join(os.fsencode(folder), name))
    argv, printed = FILE_OPTIONS[option]
    status, out, err = _run([*argv, path])
    if status == 0:
        assert printed in out and err == ""
        assert os.listdir(os.fsencode(folder)) == [name]
    else:
        assert (status, out) == (2, "") and err.startswith("knight: error: ") and err.count("\n") == 1, err
        assert os.listdir(folder) == []
