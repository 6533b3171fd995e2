"""Faults at the edges (issue 19): output that cannot be written, interrupts
inside compiled calls, memory limits other than free memory, resume files
edited by hand. Each class is a property over the commands, so a new entry
point is covered without a new hand-written case."""

import contextlib
import errno
import functools
import io
import json
import os
import resource
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knight import cli, exit_status
from knight.errors import InvalidArgument
from knight.runtime import machine

FAULTS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

# commands that succeed and print something, quickly, text and JSON
working_argv = st.sampled_from(
    [
        ["solve", "5", "5"],
        ["solve", "12", "12", "--method", "greedy"],
        ["solve", "30", "30", "--json"],
        ["count", "3", "4"],
        ["count", "3", "4", "--json"],
        ["count", "3", "4", "--method", "dp", "--json"],
        ["exists", "5", "5"],
        ["exists", "4", "4", "--json"],
        ["estimate", "5", "5", "--probes", "20", "--seed", "1"],
    ]
)


class FailingStream(io.StringIO):
    """A stream that takes ``room`` characters, then fails as ``error`` does:
    a reader that went away (``head -c``), or a disk that filled."""

    def __init__(self, room, error):
        super().__init__()
        self.room, self.error = room, error

    def write(self, text):
        if self.tell() + len(text) > self.room:
            raise self.error
        return super().write(text)


def _run(argv, out):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = cli.main(argv, out=out)
    return status, err.getvalue()


@FAULTS
@given(working_argv, st.integers(0, 2000))
def test_a_reader_that_goes_away_ends_quietly(argv, room):
    status, err = _run(argv, FailingStream(room, BrokenPipeError(errno.EPIPE, "Broken pipe")))
    assert status in (0, exit_status.EXIT_PIPE)
    assert err == ""


@FAULTS
@given(working_argv, st.integers(0, 2000))
def test_a_full_disk_is_one_line(argv, room):
    status, err = _run(argv, FailingStream(room, OSError(errno.ENOSPC, "No space left on device")))
    assert status in (0, exit_status.EXIT_IO)
    if status:
        assert err == "knight: error: standard output: No space left on device\n"


def _knight(*argv, stdout=subprocess.PIPE):
    return subprocess.run(
        [sys.executable, "-m", "knight", *argv], stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120
    )


def test_a_real_closed_pipe_and_a_real_full_disk(tmp_path):
    """The reproductions: `knight solve 99 99 --json | head -c1` and
    `knight solve 5 5 >/dev/full`, in real processes."""
    reader = subprocess.Popen(["head", "-c1"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    done = subprocess.run(
        [sys.executable, "-m", "knight", "solve", "99", "99", "--json"],
        stdout=reader.stdin,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
    )
    reader.stdin.close()
    reader.wait()
    assert (done.returncode, done.stderr) == (exit_status.EXIT_PIPE, "")
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            done = _knight("solve", "5", "5", stdout=full)
        assert done.returncode == exit_status.EXIT_IO
        assert done.stderr == "knight: error: standard output: No space left on device\n"


@pytest.mark.parametrize(
    "error, status, said",
    [
        (KeyboardInterrupt(), exit_status.EXIT_INTERRUPTED, "knight: interrupted\n"),
        (exit_status.Terminated(), exit_status.EXIT_TERMINATED, "knight: terminated\n"),
        (exit_status.Terminated(signal.SIGHUP), exit_status.EXIT_HUNG_UP, "knight: hung up\n"),
        (InvalidArgument("bad\nthing"), exit_status.EXIT_USAGE, "knight: error: bad\\nthing\n"),
        (MemoryError(), exit_status.EXIT_USAGE, None),
        (
            OSError(errno.ENOMEM, "Cannot allocate memory"),
            exit_status.EXIT_USAGE,
            "knight: error: out of memory: the system refused this process a mapping "
            "(see 'ulimit -v', its cgroup and vm.overcommit_memory)\n",
        ),
        (
            PermissionError(errno.EACCES, "Permission denied", "/x/y"),
            exit_status.EXIT_IO,
            "knight: error: /x/y: Permission denied\n",
        ),
    ],
)
def test_each_anticipated_failure_is_one_line_and_its_status(capsys, error, status, said):
    def body():
        raise error

    assert exit_status.run_command("knight", body) == status
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert said is None or err == said


@pytest.mark.parametrize(("code", "named"), [(errno.ENOSPC, True), (errno.EIO, True), (errno.ENOMEM, False)])
def test_a_write_s_error_names_its_path_but_memory_refused_names_none(code, named):
    """A full disk names the spill folder; a mapping the kernel refused
    (8 x 8 open's step 33 once) is memory, and no file is to blame."""
    with pytest.raises(OSError) as raised, exit_status.naming("/spill/folder"):
        raise OSError(code, os.strerror(code))
    assert raised.value.errno == code
    assert (raised.value.filename == "/spill/folder") == named


def test_an_interrupt_inside_a_compiled_call_is_an_interrupt(capsys):
    """Issue 19: Ctrl-C in a Numba call surfaced as `SystemError: CPUDispatcher
    ... returned a result with an exception set`, the interrupt its cause."""

    def body():
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise SystemError(
                "CPUDispatcher(<function frontier_step>) returned a result with an exception set"
            ) from interrupt

    assert exit_status.run_command("knight", body) == exit_status.EXIT_INTERRUPTED
    assert capsys.readouterr().err == "knight: interrupted\n"


def test_an_interrupt_that_surfaces_as_another_error_is_an_interrupt(capsys):
    """A Ctrl-C in a C extension's import comes out as its ImportError
    (NumPy's 'PyCapsule_Import could not import module "datetime"')."""

    def body():
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # the handler raises here
        except KeyboardInterrupt:
            raise ImportError("numpy._core.multiarray failed to import") from None

    assert exit_status.run_command("knight", body) == exit_status.EXIT_INTERRUPTED
    assert capsys.readouterr().err == "knight: interrupted\n"


def test_a_bug_keeps_its_traceback():
    def body():
        raise SystemError("a real one")

    with pytest.raises(SystemError):
        exit_status.run_command("knight", body)


@pytest.fixture(scope="module")
def start_up_cpu_seconds():
    """The CPU seconds a Python process takes here to import knight's command
    line: before that no code of knight's runs, so an interrupt is Python's
    own (a traceback, death by SIGINT), whatever knight does. CPU, not wall:
    on a loaded machine a child's wall start-up stretches, its CPU does not."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "import knight.cli"], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def _cpu_seconds(pid):
    """A live process's CPU seconds so far (``/proc/PID/stat``), 0 once gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@settings(max_examples=4, deadline=None, database=None)
@given(st.floats(0.0, 1.3))
def test_ctrl_c_at_any_moment_of_a_dp_count_is_one_line(start_up_cpu_seconds, delay):
    """Signals land at random points once knight's code runs: in imports
    (Numba's, NumPy's: an interrupt there surfaces as an ImportError), in
    Python, in a compiled step, in the pattern passes' threads."""
    process = subprocess.Popen(
        [sys.executable, "-m", "knight", "count", "6", "6", "--method", "dp", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # twice the start-up's CPU spent: a wall-clock wait fell inside Python's
    # own start-up when the machine was loaded (a "Fatal Python error")
    while process.poll() is None and _cpu_seconds(process.pid) < 2 * start_up_cpu_seconds:
        time.sleep(0.01)
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    if process.returncode == 0:  # it finished first
        assert json.loads(out)
        return
    assert (process.returncode, err) == (exit_status.EXIT_INTERRUPTED, "knight: interrupted\n")


def _cgroup_v2(root, group, limit, usage):
    folder = root / group.lstrip("/")
    folder.mkdir(parents=True)
    (root / "cgroup.controllers").write_text("memory\n")
    (folder / "memory.max").write_text(f"{limit}\n")
    (folder / "memory.current").write_text(f"{usage}\n")


def test_the_cgroup_v2_limit_binds(tmp_path):
    _cgroup_v2(tmp_path, "/job/step", 400 * 2**20, 100 * 2**20)
    assert machine.cgroup_room(tmp_path, {"": "/job/step"}) == 300 * 2**20


def test_a_parent_cgroups_limit_binds_too(tmp_path):
    _cgroup_v2(tmp_path, "/job", 200 * 2**20, 150 * 2**20)
    (tmp_path / "job" / "step").mkdir()
    (tmp_path / "job" / "step" / "memory.max").write_text("max\n")
    (tmp_path / "job" / "step" / "memory.current").write_text("1000\n")
    assert machine.cgroup_room(tmp_path, {"": "/job/step"}) == 50 * 2**20


def test_the_cgroup_v1_limit_binds_and_its_no_limit_is_none(tmp_path):
    folder = tmp_path / "memory" / "box"
    folder.mkdir(parents=True)
    (folder / "memory.limit_in_bytes").write_text(f"{2**30}\n")
    (folder / "memory.usage_in_bytes").write_text(f"{2**28}\n")
    (tmp_path / "memory" / "memory.limit_in_bytes").write_text("9223372036854771712\n")
    (tmp_path / "memory" / "memory.usage_in_bytes").write_text("5\n")
    assert machine.cgroup_room(tmp_path, {"memory": "/box"}) == 3 * 2**28
    assert machine.cgroup_room(tmp_path, {"memory": "/"}) == machine.UNLIMITED


def test_no_cgroup_files_is_no_limit(tmp_path):
    assert machine.cgroup_room(tmp_path, {"": "/nowhere", "memory": "/nowhere"}) == machine.UNLIMITED


def test_an_address_space_limit_is_seen_before_allocating():
    """Issue 19: under `ulimit -v 1500000`, a 4000 x 4000 Warnsdorff search
    ended in NumPy's MemoryError traceback."""
    code = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1_500_000 * 1024, resource.RLIM_INFINITY))\n"
        "from knight import cli\n"
        "sys.exit(cli.main(['solve', '4000', '4000', '--method', 'warnsdorff']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == exit_status.EXIT_USAGE, done.stderr
    assert done.stderr.startswith("knight: error: board 4000x4000 needs about") and done.stderr.count("\n") == 1


@settings(max_examples=6, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 6000))
def test_a_disk_that_fills_during_a_count_loses_nothing_finished(small_filesystem, leave):
    """Issue 19: a DFS resume file's append on a full disk was a traceback.
    Now one line naming the file, and the count resumed on a disk with room
    gives the uninterrupted answer."""
    from tests.conftest import fill

    resume = small_filesystem / "units.jsonl"
    resume.unlink(missing_ok=True)
    (small_filesystem / "filler").unlink(missing_ok=True)
    fill(small_filesystem, leave)
    argv = ["count", "5", "5", "--depth", "3", "--resume", str(resume)]
    status, err = _run(argv, io.StringIO())
    if status:
        assert (status, err) == (exit_status.EXIT_IO, f"knight: error: {resume}: No space left on device\n")
    (small_filesystem / "filler").unlink()
    out = io.StringIO()
    assert _run(argv, out)[0] == 0
    assert "tours    1728 directed open tours" in out.getvalue()  # OEIS A165134(5)


def _count_dp_or_dfs(method, path):
    argv = ["count", "3", "4", "--resume", str(path)] + (["--method", "dp"] if method == "dp" else ["--depth", "2"])
    out = io.StringIO()
    status, err = _run(argv, out)
    return status, out.getvalue(), err


def _answer(text):
    """The grid and the total of a count's text, not what it cost."""
    return [line for line in text.splitlines() if not line.startswith(("states", "work", "seconds", "nodes", "units"))]


ENGINES = pytest.mark.parametrize("method", ["dfs", "dp"])


@ENGINES
def test_one_symlink_rule_a_link_is_followed_and_kept(tmp_path, method):
    """Issue 19: the DP replaced a --resume symlink by a regular file while
    the DFS followed it. Both follow it now, and the link stays a link."""
    target = tmp_path / "elsewhere" / "resume.file"
    target.parent.mkdir()
    status, first, _ = _count_dp_or_dfs(method, target)
    assert status == 0
    link = tmp_path / "link"
    link.symlink_to(target)
    status, again, _ = _count_dp_or_dfs(method, link)  # resumed from the file behind the link
    assert status == 0 and link.is_symlink() and target.is_file()
    assert _answer(again) == _answer(first)


@ENGINES
@pytest.mark.parametrize("kind", ["dangling", "loop"])
def test_a_link_to_nothing_is_refused(tmp_path, method, kind):
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "missing" if kind == "dangling" else link)
    status, out, err = _count_dp_or_dfs(method, link)
    assert (status, out) == (exit_status.EXIT_USAGE, "")
    assert "is a symbolic link to nothing" in err and err.count("\n") == 1
    assert os.readlink(link)  # left as it was


@ENGINES
def test_a_fifo_is_refused_at_once(tmp_path, method):
    """Issue 19: a FIFO as the DP checkpoint hung (opening it waits for a writer)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    status, _, err = _count_dp_or_dfs(method, fifo)
    assert status == exit_status.EXIT_USAGE and "is not a regular file" in err


@ENGINES
def test_a_read_only_filesystem_is_refused_before_any_work(small_filesystem, method):
    """Issue 19: an existing checkpoint on a read-only filesystem failed only
    after a whole run's work."""
    path = small_filesystem / "resume.file"
    assert _count_dp_or_dfs(method, path)[0] == 0
    before = path.read_bytes()
    if subprocess.run(["mount", "-o", "remount,ro", str(small_filesystem)], capture_output=True).returncode:
        pytest.skip("cannot remount read-only here")
    status, out, err = _count_dp_or_dfs(method, path)
    assert (status, out) == (exit_status.EXIT_USAGE, "")
    assert err == f"knight: error: cannot write {path}: Read-only file system\n"
    assert path.read_bytes() == before


# --- DP checkpoints edited by hand ------------------------------------------


@pytest.fixture(scope="module")
def partial_checkpoint(tmp_path_factory):
    """The bytes of a 4 x 5 DP checkpoint cut short in a run: finished runs,
    and a table under way."""
    from knight import count_tours
    from knight.counting.dp.checkpoints import checkpoint_header

    path = tmp_path_factory.mktemp("checkpoint") / "4x5.npz"
    saved, checkpoint_header.CHECKPOINT_SECONDS = checkpoint_header.CHECKPOINT_SECONDS, 0.0

    def interrupt(now):
        if now.done == 30:
            raise KeyboardInterrupt

    try:
        with pytest.raises(KeyboardInterrupt):
            count_tours(4, 5, method="dp", resume=path, progress=interrupt)
    finally:
        checkpoint_header.CHECKPOINT_SECONDS = saved
    return path.read_bytes()


@pytest.fixture(scope="module")
def honest_4x5():
    """What ``knight count 4 5 --method dp`` prints, counted once."""
    honest = io.StringIO()
    assert _run(["count", "4", "5", "--method", "dp"], honest)[0] == 0
    return _answer(honest.getvalue())


def _load(data):
    import numpy as np

    with np.load(io.BytesIO(data)) as saved:
        return json.loads(bytes(saved["header"]).decode()), saved["keys"].copy(), saved["counts"].copy()


def _save(path, header, keys, counts):
    import numpy as np

    encoded = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    with open(path, "wb") as file:
        np.savez(file, header=encoded, keys=keys, counts=counts)


edits = st.one_of(
    st.tuples(
        st.just("finished"),
        st.dictionaries(
            st.sampled_from(["0", "2", "7", "-1", "99", "x"]),
            st.one_of(st.integers(-10, 10**20), st.text(max_size=3)),
            min_size=1,
        ),
    ),
    st.tuples(
        st.just("current"), st.one_of(st.none(), st.lists(st.integers(-3, 10**6), max_size=4), st.text(max_size=4))
    ),
    st.tuples(st.just("checksum"), st.one_of(st.none(), st.text(max_size=8))),
    st.tuples(st.just("key"), st.integers(0, 10**6)),
    st.tuples(st.just("count"), st.integers(0, 10**6)),
)


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(edit=edits, resign=st.booleans())
def test_an_edited_checkpoint_is_refused_never_counted(tmp_path_factory, partial_checkpoint, honest_4x5, edit, resign):
    """Issue 19: `finished {"0": 999, "2": -5}` printed 999 and -5 in the
    grid, a `current` step past the last printed 0. Whatever is edited, and
    even with the checksum made anew (``resign``: someone who read the
    code), a changed checkpoint is refused in one line, or gives the
    honest count."""
    from knight.counting.dp.checkpoints import checkpoint_header

    header, keys, counts = _load(partial_checkpoint)
    field, value = edit
    if field == "key" and keys.size:
        keys[value % keys.size] ^= 1
    elif field == "count" and counts.size:
        counts.reshape(-1)[value % counts.size] += 1
    elif field in header:
        header[field] = value
    if resign:  # someone who read the code: the fields' and the table's own checks must hold
        header["checksum"] = checkpoint_header.checksum(header, keys, counts)
    path = tmp_path_factory.mktemp("edited") / "4x5.npz"
    _save(path, header, keys, counts)
    before = path.read_bytes()
    out = io.StringIO()
    status, err = _run(["count", "4", "5", "--method", "dp", "--resume", str(path)], out)
    if status == 0:
        # unsigned, only an edit that changed nothing the count reads gets
        # through. Signed again, a plausible value (a count of 0, a key of
        # another well-formed state) is a table no check can tell from a
        # true one: the checksum stands against that, the checks against
        # a crash, a traceback or a value no count can have
        assert resign or _answer(out.getvalue()) == honest_4x5
        return
    assert status == exit_status.EXIT_USAGE and err.count("\n") == 1, err
    assert "is damaged or was edited" in err or "records a different count" in err
    assert path.read_bytes() == before


# --- temporaries a SIGKILL left ----------------------------------------------


def _dead_pid():
    """The id of a process that has ended (its id is not reused this soon)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_killed_runs_checkpoint_temporaries_are_removed_by_the_next_run(tmp_path):
    """Issue 19: 31 `.F.XXXX.tmp` files after 75 kills, removed by nothing.
    Only knight's (its pattern, a dead maker) go: a user's file of a like
    name, and a live run's temporary, stay."""
    stale = tmp_path / f".ck.npz.knight-{_dead_pid()}-ab12cd.tmp"
    live = tmp_path / f".ck.npz.knight-{os.getppid()}-ab12cd.tmp"
    users = [tmp_path / ".ck.npz.ab12cd.tmp", tmp_path / ".ck.npz.tmp", tmp_path / ".other.knight-1-ab.tmp"]
    for path in (stale, live, *users):
        path.write_text("x")
    assert _run(["count", "3", "4", "--method", "dp", "--resume", str(tmp_path / "ck.npz")], io.StringIO())[0] == 0
    assert not stale.exists()
    assert live.exists() and all(path.exists() for path in users)
    assert not [path for path in tmp_path.iterdir() if path.name.endswith(".tmp") and path not in (live, *users)]


def test_a_killed_runs_spill_folders_are_removed_by_the_next_run(tmp_path, monkeypatch):
    """Issue 29: by the next DP run, whether it spills or not."""
    import knight
    from knight.files import owned_files

    monkeypatch.setattr(owned_files.tempfile, "tempdir", str(tmp_path))
    stale = tmp_path / f"knight-dp-{_dead_pid()}-x1"
    unmarked = tmp_path / f"knight-dp-{_dead_pid()}-x2"  # named like one, but not ours
    live = tmp_path / f"knight-dp-{os.getppid()}-x3"
    for folder in (stale, unmarked, live):
        folder.mkdir()
        (folder / "keys").write_bytes(b"\0" * 64)
    for folder in (stale, live):
        (folder / owned_files.SPILL_MARK).write_text("")
    assert knight.count_total(3, 4).tours == 16  # a run that does not spill
    assert not stale.exists() and unmarked.exists() and live.exists()
    made = owned_files.new_spill_folder()
    assert os.path.dirname(made) == str(tmp_path) and os.path.isfile(os.path.join(made, owned_files.SPILL_MARK))


def test_the_disk_budget_counts_a_killed_runs_spill_folder_as_free(tmp_path, monkeypatch):
    """A killed run's spill folder is swept before the free space is read,
    so the refusal before a run (and its resume) does not count it."""
    from knight.counting.dp.planning import memory_model
    from knight.files import owned_files

    monkeypatch.setattr(owned_files.tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(owned_files, "_swept", {})
    stale = tmp_path / f"knight-dp-{_dead_pid()}-x1"
    stale.mkdir()
    (stale / owned_files.SPILL_MARK).write_text("")
    free = {True: 10, False: 1000}  # the free bytes with the folder there and gone
    usage = memory_model.shutil.disk_usage(tmp_path)
    monkeypatch.setattr(memory_model.shutil, "disk_usage", lambda _: usage._replace(free=free[stale.exists()]))
    assert memory_model.disk_room() == (1000, f"free in {tmp_path}")
    assert not stale.exists()


def test_a_process_sweeps_a_folder_at_most_once_a_minute(tmp_path, monkeypatch):
    from knight.files import owned_files

    swept = []
    monkeypatch.setattr(owned_files, "remove_stale_spill_folders", swept.append)
    clock = iter([1000.0, 1030.0, 1061.0])
    monkeypatch.setattr(owned_files.time, "monotonic", lambda: next(clock))
    for _ in range(3):
        owned_files.sweep_stale_spill_folders(str(tmp_path))
    assert swept == [str(tmp_path), str(tmp_path)]  # at 1000 s and 1061 s, not at 1030 s


@pytest.mark.parametrize(
    ("rows", "cols", "closed", "forced"), [(4, 5, False, None), (4, 5, False, 0), (3, 8, True, None), (5, 5, False, 7)]
)
def test_every_table_a_step_makes_passes_the_resume_check(rows, cols, closed, forced):
    """The rules a resumed table is held to (labels paired and numbered in
    order, tour ends, live patterns) hold for every table the DP makes, so
    an honest checkpoint is never refused."""
    import numpy as np

    from knight.counting.dp.model import cell_order, degree_relaxation, states
    from knight.counting.dp.runs import run_loop

    plan = cell_order.schedule(rows, cols)
    live = degree_relaxation.live_patterns(plan, closed, forced)
    start = degree_relaxation.start_bits(0 if closed else 2)
    tables = []

    def keep(step, keys, counts, completed):
        tables.append((step, keys.copy()))

    run_loop.count_hamiltonian(plan, closed, forced, on_step=keep)
    assert len(tables) == rows * cols
    for step, keys in tables[:-1]:
        forced_slot, _ = plan.forced_place(step, forced)
        assert (
            states.first_malformed(
                keys, plan.old_sizes[step], forced_slot, 0 if closed else 2, live[step - 1] if step else start
            )
            == -1
        ), step
        # and a key past the rules is found: a digit that is not a slot value
        if keys.size and plan.old_sizes[step]:
            broken = keys.copy()
            broken[-1] = np.uint64(11) ** np.uint64(plan.old_sizes[step])
            assert (
                states.first_malformed(
                    broken, plan.old_sizes[step], forced_slot, 0 if closed else 2, live[step - 1] if step else start
                )
                == keys.size - 1
            )


@functools.cache
def _resumable_table():
    """5 x 6 open's largest table before its last steps: ``(plan, step,
    keys, counts, before)``, the step it goes into and that step's live
    patterns before."""
    from knight.counting.dp.model import cell_order, degree_relaxation
    from knight.counting.dp.runs import run_loop

    plan = cell_order.schedule(5, 6)
    live = degree_relaxation.live_patterns(plan, False)
    tables = []
    run_loop.count_hamiltonian(plan, False, on_step=lambda step, k, c, _: tables.append((step, k.copy(), c.copy())))
    step, keys, counts = max(tables[:-1], key=lambda table: table[1].size)
    return plan, step, keys, counts, live[step - 1]


@FAULTS
@given(
    broken=st.lists(st.integers(0, 10**6), min_size=1, max_size=4),
    threads=st.integers(1, 3),
    packed=st.booleans(),
    rows=st.sampled_from([64, 200, 1 << 18]),
)
def test_the_resume_check_names_the_first_bad_state_whatever_its_threads(broken, threads, packed, rows):
    """check_resumed shares a table's chunks out to threads; whichever
    finds a bad key first, the state it names is the table's first bad one
    (one scan of the whole table), a packed table's as a dense one's."""
    import tempfile
    from unittest import mock

    import numpy as np

    from knight.counting.dp.model import states
    from knight.counting.dp.runs import run_loop
    from knight.counting.dp.tables import packed_table

    plan, step, keys, counts, before = _resumable_table()
    keys = keys.copy()
    for position in broken:
        keys[position % keys.size] = np.uint64(11) ** np.uint64(plan.old_sizes[step])
    with tempfile.TemporaryDirectory() as folder, mock.patch.object(packed_table, "BLOCK_ROWS", rows):
        table = packed_table.pack(keys, counts, folder) if packed else keys
        order = packed_table.dense(table, counts)[0]  # a packed block is sorted: its own order
        first = states.first_malformed(order, plan.old_sizes[step], plan.forced_place(step, None)[0], 2, before)
        assert first >= 0
        with pytest.raises(InvalidArgument, match=rf"^its table's state {first} \(key {int(order[first])}\) "):
            run_loop.check_resumed(plan, step, table, False, None, before, threads)


def test_a_signed_checkpoint_with_an_impossible_key_is_refused_not_crashed(tmp_path, partial_checkpoint):
    """A key no step makes, signed again, once reached the step kernel,
    which trusts its keys, and crashed the process (a segmentation fault)."""
    import numpy as np

    from knight.counting.dp.checkpoints import checkpoint_header

    header, keys, counts = _load(partial_checkpoint)
    keys[0] = np.uint64(2**64 - 2)
    header["checksum"] = checkpoint_header.checksum(header, keys, counts)
    path = tmp_path / "4x5.npz"
    _save(path, header, keys, counts)
    status, err = _run(["count", "4", "5", "--method", "dp", "--resume", str(path)], io.StringIO())
    assert status == exit_status.EXIT_USAGE
    assert "is damaged or was edited (its table's state 0" in err and err.count("\n") == 1


@ENGINES
def test_ctrl_c_before_anything_was_kept_names_no_file(tmp_path, monkeypatch, method):
    """Issue 19: on Ctrl-C before the first checkpoint, the message named a
    file that did not exist."""
    from knight.counting import driver

    def interrupted(job, progress=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(driver, "count_prepared", interrupted)
    path = tmp_path / "resume.file"
    status, _, err = _count_dp_or_dfs(method, path)
    assert (status, err) == (exit_status.EXIT_INTERRUPTED, "knight: interrupted\n")
    assert not path.exists()


@pytest.mark.parametrize("table", ["hash", "partitioned"])
def test_a_disk_that_fills_while_the_dp_spills_is_one_line_and_no_folder_is_left(
    small_filesystem, monkeypatch, capsys, table
):
    """Issue 19: a DP spill on a full disk was a traceback. Now one line
    naming the spill folder, exit 74, and the folder removed: the hash
    step's shards and the partitioned step's runs (issue 23) alike."""
    import tempfile

    from knight.counting.dp.model import cell_order
    from knight.counting.dp.planning.policy import StepPolicy
    from knight.counting.dp.runs import run_loop
    from knight.counting.dp.steps import hash_step
    from tests.conftest import fill

    monkeypatch.setattr(machine, "available_memory", lambda: 2**10)  # every step's tables to disk
    monkeypatch.setattr(hash_step, "PARALLEL_STATES", 0)
    monkeypatch.setattr(tempfile, "tempdir", str(small_filesystem))
    fill(small_filesystem, 4096)
    plan = cell_order.schedule(5, 6)
    policy = StepPolicy(table=table, partitioned_states=0, min_room=4_000)
    count = lambda: run_loop.count_hamiltonian(plan, False, policy=policy)  # noqa: E731
    assert exit_status.run_command("knight", count) == exit_status.EXIT_IO
    err = capsys.readouterr().err
    assert err.startswith(f"knight: error: {small_filesystem}/knight-dp-") and err.count("\n") == 1
    assert err.endswith(": No space left on device\n")
    assert not [path for path in small_filesystem.iterdir() if path.name.startswith("knight-dp-")]


def _callback_interrupted():
    """A Ctrl-C inside a ctypes callback, as when it lands in llvmlite's
    object-cache hook while Numba compiles: Python cannot raise it there."""
    import ctypes

    @ctypes.CFUNCTYPE(None)
    def hook():
        raise KeyboardInterrupt

    hook()


def _printed_by_c_code(source=b"raise KeyboardInterrupt"):
    """An error that C code hands to ``PyErr_Print`` (``PyRun_SimpleString``
    prints its failure so), as numba's ``_dispatcher`` does with a Ctrl-C
    that lands while it initialises."""
    import ctypes

    ctypes.pythonapi.PyRun_SimpleString(source)


# how the signal was lost, and how the work then failed
_LOST_SIGNALS = {
    # printed as 'Exception ignored ...' with a traceback and lost (the
    # count went on to exit 0), or the compile left half done: Numba failed
    "callback": (_callback_interrupted, RuntimeError("no compiled object yet for <Library 'pattern_step'>")),
    # a traceback of the handler alone, then the import went on or failed
    "C code": (_printed_by_c_code, ImportError("numba._dispatcher did not initialise")),
}


@pytest.mark.parametrize("then", ["returns", "fails"])
@pytest.mark.parametrize("lost", _LOST_SIGNALS)
def test_a_ctrl_c_swallowed_or_printed_by_c_code_still_ends_as_one(capsys, lost, then):
    interrupt, failure = _LOST_SIGNALS[lost]

    def body():
        interrupt()
        if then == "fails":
            raise failure
        return 0

    assert exit_status.run_command("knight", body) == exit_status.EXIT_INTERRUPTED
    assert capsys.readouterr().err == "knight: interrupted\n"


def test_what_c_code_prints_that_is_not_a_signal_still_reaches_stderr(capsys):
    def body():
        _printed_by_c_code(b"raise ValueError('a bug, printed')")
        return 0

    assert exit_status.run_command("knight", body) == 0
    assert "ValueError: a bug, printed" in capsys.readouterr().err


# --- every signal that ends a command ends it cleanly ------------------------

# a DP count whose steps run from disk, in a lock on a checkpoint's name,
# signalled by itself as its spill folder is made: the moment it holds both
_SIGNALLED_SPILL = """
import os, signal, sys, tempfile
from knight import exit_status
from knight.counting.dp.runs import run_loop
from knight.counting.dp.model import cell_order
from knight.counting.dp.planning.policy import StepPolicy
from knight.counting.dp.steps import hash_step
from knight.files import journal, owned_files

hash_step.PARALLEL_STATES = 0
folder, signum = sys.argv[1], int(sys.argv[2])
tempfile.tempdir = folder
made = owned_files.new_spill_folder

def signalled():
    spill = made()
    os.kill(os.getpid(), signum)
    return spill

owned_files.new_spill_folder = signalled
policy = StepPolicy(table="hash", partitioned_states=0, min_room=4_000, memory=2**10)

def body():
    with journal.SideLock(os.path.join(folder, "count.ckpt")):
        run_loop.count_hamiltonian(cell_order.schedule(5, 6), False, policy=policy)
    return 0

sys.exit(exit_status.run_command("knight", body))
"""


@pytest.mark.parametrize(
    ("signum", "status", "said"),
    [
        (signal.SIGHUP, exit_status.EXIT_HUNG_UP, "knight: hung up\n"),
        (signal.SIGTERM, exit_status.EXIT_TERMINATED, "knight: terminated\n"),
        (signal.SIGINT, exit_status.EXIT_INTERRUPTED, "knight: interrupted\n"),
    ],
)
def test_a_signal_that_ends_a_dp_count_leaves_no_spill_folder_and_no_lock(tmp_path, signum, status, said):
    """Issue 57: SIGHUP (a closed terminal) killed the process silently
    (status 129) and left its spill folder and its lock. It ends as SIGTERM
    does: one line, its status, and nothing of the count's left."""
    done = subprocess.run(
        [sys.executable, "-c", _SIGNALLED_SPILL, str(tmp_path), str(int(signum))],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (done.returncode, done.stderr) == (status, said)
    assert list(tmp_path.iterdir()) == []


# commands run with a standard stream closed, as ``2>&-`` or ``>&-`` runs them
CLOSED_STREAMS = [
    ("2>&-", ["solve", "5", "5", "--start", "9,9", "--json"], exit_status.EXIT_USAGE, ""),
    ("2>&-", ["count", "5", "5", "--json"], 0, '"tours": 1728'),
    ("2>&-", ["count", "3", "4", "--resume", "units.jsonl"], 0, "tours    16 directed open tours"),
    ("2>&-", ["count", "5", "5", "--method", "dp", "--total", "--resume", "count.ckpt"], 0, "1728 directed"),
    ("2>&-", ["solve", "5", "5", "--svg", "-"], 0, "<svg"),
    (">&-", ["solve", "5", "5"], exit_status.EXIT_IO, None),
    ("<&- 2>&-", ["estimate", "5", "5", "--probes", "10", "--seed", "1"], 0, "directed open tours"),
]


@pytest.mark.parametrize(("closing", "argv", "status", "printed"), CLOSED_STREAMS)
def test_a_closed_standard_stream_is_no_crash_and_no_error_on_stdout(tmp_path, closing, argv, status, printed):
    """Issue 57: ``knight count 5 5 2>&-`` was an AttributeError (status 1),
    and errors went to standard output, into ``--json``'s record. A closed
    stream now has a stand-in; a file the command opens never takes its
    descriptor (a resume file got knight's messages)."""
    command = " ".join(["exec", sys.executable, "-m", "knight", *argv, closing])
    done = subprocess.run(["sh", "-c", command], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stdout + done.stderr and "knight:" not in done.stdout
    if printed is None:
        closed = "knight: error: standard output: it was closed before the command started\n"
        assert (done.stdout, done.stderr) == ("", closed)
    else:
        assert printed in done.stdout and done.stderr == ""
    for path in tmp_path.iterdir():
        assert b"knight:" not in path.read_bytes(), path.name


def _interrupted_inside(error):
    """A stand-in for a compiled call that a signal interrupted: Numba's
    dispatcher returns with the signal's exception set, which CPython
    reports as a SystemError caused by it."""

    def compiled(*args, **kwargs):
        try:
            raise error
        except BaseException as raised:
            raise SystemError("CPUDispatcher(frontier_step) returned a result with an exception set") from raised

    return compiled


@pytest.mark.parametrize("error", [KeyboardInterrupt(), exit_status.Terminated(signal.SIGHUP)])
@pytest.mark.parametrize("function", ["count_tours", "count_total", "solve"])
def test_the_api_raises_an_interrupt_in_a_compiled_call_as_itself(monkeypatch, function, error):
    """Issue 57: 2 of 15 Ctrl-Cs during DP calls of the API surfaced as
    ``SystemError: CPUDispatcher(frontier_step) returned a result with an
    exception set``; a caller catching KeyboardInterrupt missed them."""
    import knight
    from knight.counting import driver
    from knight.search import solver

    where = {"count_tours": (driver, "count_prepared"), "count_total": (driver, "total_of")}
    module, name = where.get(function, (solver, "compile_kernels"))
    monkeypatch.setattr(module, name, _interrupted_inside(error))
    with pytest.raises(type(error)):
        getattr(knight, function)(5, 5)
