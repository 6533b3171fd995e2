"""The frontier DP's checkpoints (`--resume`): a run interrupted in memory or
out of core resumes to the same count; linked tables edited or gone, files
of other counts, and names like its temporary are refused in one line."""

import functools
import json
import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from knight import InvalidArgument, count_total, count_tours, validate
from knight.counting import driver
from knight.counting.dp import engine
from knight.counting.dp.checkpoints import checkpoint_header
from knight.counting.dp.planning.policy import StepPolicy
from knight.counting.dp.steps import out_of_core_step
from knight.runtime import machine


def _every_step_out_of_core(monkeypatch):
    """The DP engine of ``count_tours`` given a policy that sends every
    step out of core, in rooms of a few states, under a small budget."""
    policy = StepPolicy(partitioned_states=0, min_room=4_000)
    monkeypatch.setitem(driver.ENGINES, "dp", functools.partial(engine.count_by_dp, policy=policy))


def _dp(rows, cols, start=None, closed=False, **options):
    return count_tours(rows, cols, start, closed, method="dp", **options)


# --- resume ---


@pytest.mark.parametrize(("stop", "out_of_core"), [(40, False), (40, True), (36, True)])
def test_resume_after_an_interruption(tmp_path, monkeypatch, stop, out_of_core):
    """Stopped after any step, in memory or with every step out of core
    (issue 23: the table then comes from mapped files), a resumed count
    equals the uninterrupted one and does not redo finished work."""
    monkeypatch.setattr(checkpoint_header, "CHECKPOINT_SECONDS", 0.0)
    path = tmp_path / "4x6.npz"
    expected = _dp(4, 6).tours
    memory = None
    if out_of_core:
        _every_step_out_of_core(monkeypatch)
        monkeypatch.setattr(machine, "anonymous_memory", lambda: 2**40)  # past any budget
        memory = validate.MIN_MEMORY  # so every step gets the policy's min_room
    spilled = []
    real = out_of_core_step.step_out_of_core
    monkeypatch.setattr(out_of_core_step, "step_out_of_core", lambda *arguments: spilled.append(1) or real(*arguments))

    def interrupt(now):
        if now.done == stop:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        count_tours(4, 6, method="dp", resume=path, progress=interrupt, memory=memory)
    with np.load(path) as saved:
        header = json.loads(bytes(saved["header"]).decode())
        embedded = saved["keys"].shape[0]
    assert header["finished"] and header["current"] is not None
    # out of core, the checkpoint links the step's table files, not a copy
    tables = tmp_path / "4x6.npz.tables"
    assert (header["table"] is not None) == out_of_core == tables.is_dir()
    assert (embedded == 0) == out_of_core
    if out_of_core:
        # packed (the out-of-core step's table): its files and block index
        assert sorted(p.name for p in tables.iterdir()) == sorted([*header["table"]["packed"], "knight-dp-tables"])
        assert sum(row[2] for row in header["table"]["index"]) == header["table"]["rows"] > 0
    steps = []
    resumed = count_tours(4, 6, method="dp", resume=path, progress=lambda now: steps.append(now.done), memory=memory)
    assert (resumed.tours == expected).all()
    runs, squares = resumed.runs, 24
    assert len(steps) < runs * squares - squares  # finished runs and steps were not done again
    assert bool(spilled) == out_of_core
    again = count_tours(4, 6, method="dp", resume=path)
    assert (again.tours == expected).all() and again.transitions == 0
    assert not tables.exists()  # the count ended: its links went with it


# a count of 4 x 5 with every step out of core (packed tables, linked by
# its checkpoint), which SIGKILLs itself after step ``kill_at`` is saved
# ("after") or inside it, once the merge has written a file of the next
# table ("merge"), and prints its grid if it gets to the end
_KILLED_COUNT = """
import functools, json, os, signal, sys
from knight import count_total, count_tours, validate
from knight.counting import driver
from knight.counting.dp import engine
from knight.counting.dp.tables import packed_table
from knight.counting.dp.planning.policy import StepPolicy
from knight.runtime import machine
policy = StepPolicy(partitioned_states=0, min_room=100)
driver.ENGINES["dp"] = functools.partial(engine.count_by_dp, policy=policy)
machine.anonymous_memory = lambda: 2**40
path, kill_at, where = sys.argv[1], int(sys.argv[2]), sys.argv[3]
done = [0]
def progress(now):
    done[0] += 1
    if where == "after" and done[0] == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)
real = packed_table.Writer.add
def add(writer, *arguments):
    real(writer, *arguments)
    if where == "merge" and done[0] + 1 >= kill_at:
        os.kill(os.getpid(), signal.SIGKILL)
packed_table.Writer.add = add
if sys.argv[4] == "total":
    print(json.dumps(count_total(4, 5, progress=progress, memory=validate.MIN_MEMORY, resume=path).tours))
else:
    result = count_tours(4, 5, method="dp", resume=path, progress=progress, memory=validate.MIN_MEMORY)
    print(json.dumps(result.tours.tolist()))
"""


def _killed_count(path, kill_at, where, count):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    command = [sys.executable, "-c", _KILLED_COUNT, str(path), str(kill_at), where, count]
    return subprocess.run(command, capture_output=True, text=True, cwd=root, timeout=120, check=False)


@pytest.mark.parametrize(
    ("where", "count"), [("after", "grid"), ("after", "total"), pytest.param("merge", "grid", marks=pytest.mark.slow)]
)
def test_a_run_out_of_core_killed_at_a_random_step_resumes_to_the_same_count(tmp_path, where, count):
    """SIGKILL at a random step of a count whose every step runs out of
    core (its tables packed, its checkpoint linking them), after the step
    is saved or in the middle of its merge: the count resumed from the
    checkpoint is the uninterrupted one's, a grid's (six runs) or a
    total's (one run over every start)."""
    kill_at = random.randrange(2, 80 if count == "grid" else 19)  # of 4 x 5's 120 steps (6 runs), or 20
    path = tmp_path / "4x5.npz"
    killed = _killed_count(path, kill_at, where, count)
    assert killed.returncode == -signal.SIGKILL, (kill_at, killed.stderr)
    if path.exists():  # killed before any step was saved, it starts again
        with np.load(path) as saved:
            header = json.loads(bytes(saved["header"]).decode())
        assert header["current"] is not None or header["finished"], kill_at
    resumed = _killed_count(path, 0, "never", count)
    assert resumed.returncode == 0, (kill_at, resumed.stderr)
    expected = count_total(4, 5).tours if count == "total" else _dp(4, 5).tours.tolist()
    assert json.loads(resumed.stdout) == expected, kill_at


@pytest.mark.parametrize("out_of_core", [False, True])
def test_a_total_resumes_after_an_interruption(tmp_path, monkeypatch, out_of_core):
    """``count_total(..., resume=F).tours`` (``--total --resume F``): stopped
    after a step, the total resumed from its checkpoint is the
    uninterrupted one's, its finished steps not done again; run once more
    it is answered from the file, with no step."""
    monkeypatch.setattr(checkpoint_header, "CHECKPOINT_SECONDS", 0.0)
    expected = count_total(5, 6).tours
    memory = None
    if out_of_core:
        _every_step_out_of_core(monkeypatch)
        monkeypatch.setattr(machine, "anonymous_memory", lambda: 2**40)
        memory = validate.MIN_MEMORY
    path = tmp_path / "5x6.npz"

    def interrupt(now):
        if now.done == 17:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        count_total(5, 6, progress=interrupt, memory=memory, resume=path)
    steps = []
    total = count_total(5, 6, progress=lambda now: steps.append(now.done), memory=memory, resume=path)
    assert total.tours == expected
    assert steps[0] == 18 and steps[-1] == 30
    again = []
    assert count_total(5, 6, progress=again.append, resume=path).tours == expected and not again
    assert not (tmp_path / "5x6.npz.tables").exists()


def test_a_total_and_a_grid_refuse_each_others_checkpoint(tmp_path):
    """A total's checkpoint records no start (its one run has none forced):
    a grid's count of the same board is refused on it, and the other way."""
    total, grid = tmp_path / "total.npz", tmp_path / "grid.npz"
    count_total(4, 5, resume=total)
    _dp(4, 5, resume=grid)
    for count in (lambda: _dp(4, 5, resume=total), lambda: count_total(4, 5, resume=grid)):
        with pytest.raises(InvalidArgument, match="records a different count: starts"):
            count()
    closed = tmp_path / "closed.npz"
    count_total(5, 6, closed=True, resume=closed)
    with pytest.raises(InvalidArgument, match="different count: closed"):
        count_total(5, 6, resume=closed)
    # a total the theorems answer runs nothing, and refuses it all the same
    with pytest.raises(InvalidArgument, match=r"different count: rows 5 \(now 4\)"):
        count_total(4, 4, closed=True, resume=closed)


def test_a_linked_table_edited_or_gone_is_refused_in_one_line(tmp_path, monkeypatch):
    """Issue 23: a checkpoint whose table is linked files beside it is
    checked as an embedded one: a byte changed in them, or a file gone, is
    refused in one line naming the checkpoint, and nothing is deleted; a
    folder of that name that is not knight's is refused before a count."""
    monkeypatch.setattr(checkpoint_header, "CHECKPOINT_SECONDS", 0.0)
    _every_step_out_of_core(monkeypatch)
    monkeypatch.setattr(machine, "anonymous_memory", lambda: 2**40)
    path = tmp_path / "c.npz"

    def interrupt(now):
        if now.done == 16:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        count_tours(4, 6, method="dp", resume=path, progress=interrupt, memory=validate.MIN_MEMORY)
    tables = tmp_path / "c.npz.tables"
    counts_file = max(tables.glob("*.packed"), key=lambda file: file.stat().st_size)
    data = bytearray(counts_file.read_bytes())
    data[3] ^= 1
    counts_file.write_bytes(bytes(data))
    before = sorted(p.name for p in tables.iterdir())
    with pytest.raises(InvalidArgument, match="damaged or was edited") as refused:
        count_tours(4, 6, method="dp", resume=path)
    assert "\n" not in str(refused.value) and sorted(p.name for p in tables.iterdir()) == before
    counts_file.unlink()
    with pytest.raises(InvalidArgument, match="is missing"):
        count_tours(4, 6, method="dp", resume=path)
    stranger = tmp_path / "d.npz.tables"
    stranger.mkdir()
    with pytest.raises(InvalidArgument, match="not a table folder of knight's"):
        count_tours(4, 6, method="dp", resume=tmp_path / "d.npz")
    assert stranger.is_dir()


def test_resume_refuses_other_files(tmp_path):
    foreign = tmp_path / "notes.txt"
    foreign.write_text("mine\n")
    with pytest.raises(InvalidArgument, match="not a knight dp checkpoint"):
        _dp(4, 5, resume=foreign)
    assert foreign.read_text() == "mine\n"
    path = tmp_path / "4x5.npz"
    _dp(4, 5, resume=path)
    with pytest.raises(InvalidArgument, match="different count"):
        _dp(4, 6, resume=path)
    with pytest.raises(InvalidArgument, match="different count"):
        _dp(4, 5, closed=True, resume=path)
    assert not os.path.exists(f"{path}.tmp") and not list(tmp_path.glob(".*.tmp"))
    with pytest.MonkeyPatch.context() as patch:
        # a table made in another cell order (a checkpoint of older code)
        patch.setattr(checkpoint_header, "ORDER_NAME", "columns-across-short-side/another")
        _dp(4, 6, resume=tmp_path / "4x6.npz")
    with pytest.raises(InvalidArgument, match="different count: order"):
        _dp(4, 6, resume=tmp_path / "4x6.npz")
    with pytest.raises(InvalidArgument, match="folder"):
        _dp(4, 5, resume=tmp_path)
    with pytest.raises(InvalidArgument, match="does not exist"):
        _dp(4, 5, resume=tmp_path / "missing" / "4x5.npz")
    with pytest.raises(InvalidArgument, match="must be a path"):
        _dp(4, 5, resume=5)


def test_a_checkpoint_never_overwrites_a_file_named_like_its_temporary(tmp_path):
    path = tmp_path / "4x5.npz"
    bystander = tmp_path / "4x5.npz.tmp"
    bystander.write_text("mine\n")
    _dp(4, 5, resume=path)
    assert bystander.read_text() == "mine\n" and path.exists()


def test_a_table_in_memory_is_saved_at_most_a_tenth_of_the_time():
    """A table in memory is written whole (8x8's: tens of seconds): the next
    save waits ``CHECKPOINT_SECONDS`` and ten times the last write, so the
    checkpoint costs at most a tenth of the run; 0 seconds (as tests set
    it) saves after every step."""
    now = time.monotonic()
    wait = checkpoint_header.CHECKPOINT_SECONDS
    assert checkpoint_header.save_due(now - wait - 1, 0.5)
    assert not checkpoint_header.save_due(now - wait - 1, wait)  # that write took a minute: ten minutes
    assert checkpoint_header.save_due(now - 10 * wait - 1, wait)
    assert checkpoint_header.save_due(now, 30.0, every=0)
