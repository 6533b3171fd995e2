"""The DP checkpoint's files under faults (issue 29, items 7 and 8): the
lock that refuses a second count on one file, an empty name refused before
the work, a failed write that leaves no folder of ours holding only its
mark, a checkpoint cut short called damaged, not a stranger's."""

import contextlib
import errno
import io
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knight import cli
from knight.counting.dp.checkpoints import linked_table, process_checkpoint
from knight.counting.dp.tables import table_format
from knight.errors import InvalidArgument
from knight.files import journal, owned_files


def _run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = cli.main(list(argv), out=out)
    return status, out.getvalue(), err.getvalue()


def _dp_count(path, *more):
    return _run("count", "3", "4", "--method", "dp", "--resume", str(path), *more)


# --- the lock ------------------------------------------------------------------


def test_a_second_count_on_one_checkpoint_is_refused_before_its_work(tmp_path):
    path = tmp_path / "ck.npz"
    with journal.SideLock(path):
        status, out, err = _dp_count(path)
        assert (status, out) == (2, "")
        assert err.strip().splitlines() == [
            f"knight: error: {path} is in use by another run; wait for it to finish or give another file"
        ]
        assert not path.exists()
    # the lock went with its holder: the count runs, and leaves no lock file
    assert _dp_count(path)[0] == 0
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["ck.npz"]


@pytest.mark.parametrize("where", [[], ["--scheduler", "tcp://127.0.0.1:1"]])
def test_a_held_checkpoint_is_refused_before_the_projection(tmp_path, where):
    """A count that first prints its projection (7 x 7 open: tens of
    millions of states) refuses a checkpoint another run holds in its one
    line, before the projection or a cluster is reached."""
    path = tmp_path / "ck.npz"
    with journal.SideLock(path):
        status, out, err = _run("count", "7", "7", "--method", "dp", "--resume", str(path), *where)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and "is in use by another run" in err


def test_two_names_of_one_checkpoint_share_its_lock(tmp_path):
    path, link = tmp_path / "ck.npz", tmp_path / "link.npz"
    assert _dp_count(path)[0] == 0
    link.symlink_to(path)
    with journal.SideLock(link):
        assert "in use by another run" in _dp_count(path)[2]


def test_a_killed_runs_lock_file_is_taken_over_and_removed(tmp_path):
    path = tmp_path / "ck.npz"
    lock = journal.SideLock(path)
    left = lock.path
    lock._file.close()  # as a SIGKILL leaves it: the file there, its lock gone with the process
    assert os.path.exists(left)
    assert _dp_count(path)[0] == 0
    assert not os.path.exists(left)


def test_a_file_named_like_the_lock_but_not_ours_is_refused_and_kept(tmp_path):
    path = tmp_path / "ck.npz"
    stranger = tmp_path / ".ck.npz.knight-lock"
    stranger.write_text("my notes\n")
    status, _, err = _dp_count(path)
    assert status == 2 and "is not a lock file of knight's" in err and len(err.strip().splitlines()) == 1
    assert stranger.read_text() == "my notes\n" and not path.exists()


# --- an empty name ---------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "5", "5", "--method", "dp", "--resume", ""],
        ["count", "5", "5", "--method", "dfs", "--resume", ""],
        ["count", "5", "5", "--method", "dp", "--resume", "", "--scheduler", "tcp://127.0.0.1:1"],
    ],
)
def test_an_empty_resume_name_is_refused_before_the_work(argv):
    status, out, err = _run(*argv)
    assert (status, out) == (2, "")
    # the one-line parser refuses any empty value (faults29a), before the count looks at it
    assert len(err.strip().splitlines()) == 1 and "--resume needs a value" in err


# --- a write that fails ------------------------------------------------------------


def _mapped_table(folder, rows):
    """A table as the out-of-core step leaves it: two files, mapped."""
    np.arange(rows, dtype=np.uint64).tofile(os.path.join(folder, "keys"))
    np.ones((rows, 1), dtype=np.uint64).tofile(os.path.join(folder, "counts"))
    return tuple(
        table_format.mapped(os.path.join(folder, name), shape)
        for name, shape in (("keys", (rows,)), ("counts", (rows, 1)))
    )


def test_a_failed_checkpoint_write_removes_the_links_it_made_and_the_folder(tmp_path, monkeypatch):
    """Issue 29: a full disk left ``FILE.tables/`` holding only its mark."""
    spill = tmp_path / "spill"
    spill.mkdir()
    keys, counts = _mapped_table(spill, 8)
    path = str(tmp_path / "ck.npz")
    store = process_checkpoint.Checkpoint.open(path, 3, 4, False, range(12))

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", path)

    monkeypatch.setattr(process_checkpoint.atomic_write, "replace", full)
    with pytest.raises(OSError, match="No space"):
        store.saver(0)(5, keys, counts, 0)  # linked: a table on disk is saved after every step
    assert not os.path.exists(linked_table.folder_of(path)) and not os.path.exists(path)


def test_a_failed_write_keeps_the_links_the_last_checkpoint_names(tmp_path, monkeypatch):
    spill = tmp_path / "spill"
    spill.mkdir()
    keys, counts = _mapped_table(spill, 8)
    path = str(tmp_path / "ck.npz")
    store = process_checkpoint.Checkpoint.open(path, 3, 4, False, range(12))
    store.saver(0)(5, keys, counts, 0)
    kept = sorted(os.listdir(linked_table.folder_of(path)))
    with open(path, "rb") as file:
        before = file.read()

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", path)

    monkeypatch.setattr(process_checkpoint.atomic_write, "replace", full)
    with pytest.raises(OSError):
        store.saver(0)(6, keys, counts, 0)
    assert sorted(os.listdir(linked_table.folder_of(path))) == kept
    with open(path, "rb") as file:
        assert file.read() == before
    # and the checkpoint that stands still loads, its table whole
    again = process_checkpoint.Checkpoint.open(path, 3, 4, False, range(12))
    assert again.resume_state(0)[0] == 5


def test_a_mark_that_cannot_be_written_leaves_no_folder(small_filesystem):
    from tests.conftest import fill  # by its package: a bare "conftest" may be tests/bench's

    fill(small_filesystem, 0)
    folder = small_filesystem / "ck.npz.tables"
    with pytest.raises(OSError):
        owned_files.make_marked_folder(str(folder), linked_table.TABLES_MARK, "a table folder", "x" * 8192)
    assert not folder.exists()


# --- a checkpoint cut short ---------------------------------------------------------


@pytest.fixture(scope="module")
def finished_checkpoint(tmp_path_factory):
    path = tmp_path_factory.mktemp("finished") / "ck.npz"
    assert _dp_count(path)[0] == 0
    return path.read_bytes()


@settings(max_examples=40, deadline=None, database=None)
@given(fraction=st.floats(min_value=0.0, max_value=1.0, exclude_max=True))
def test_a_checkpoint_cut_short_is_refused_as_damaged_and_kept(tmp_path_factory, finished_checkpoint, fraction):
    cut = len(process_checkpoint._ZIP_MEMBER) + int(
        fraction * (len(finished_checkpoint) - len(process_checkpoint._ZIP_MEMBER))
    )
    path = tmp_path_factory.mktemp("cut") / "ck.npz"
    path.write_bytes(finished_checkpoint[:cut])
    with pytest.raises(InvalidArgument, match=r"is damaged or was edited .*cut short") as refused:
        process_checkpoint.Checkpoint.check(str(path))
    assert "\n" not in str(refused.value)
    assert path.read_bytes() == finished_checkpoint[:cut]


def test_a_strangers_file_is_still_not_a_checkpoint(tmp_path):
    for data in (b"my notes\n", b"PK\x03\x04" + b"\0" * 22 + b"\x05\0\0\0notes", b""):
        path = tmp_path / "ck.npz"
        path.write_bytes(data)
        with pytest.raises(InvalidArgument, match="is not a knight dp checkpoint"):
            process_checkpoint.Checkpoint.check(str(path))
