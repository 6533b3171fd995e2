"""Fixtures shared by the knight and bench tests."""

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

# A shell without job control starts `cmd &` with SIGINT ignored, and an
# ignored signal stays ignored across exec: the programs the Ctrl-C tests
# interrupt would shrug the signal off and run to the end. A handler, unlike
# SIG_IGN, is reset by exec, so each child starts with Python's own.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Dask's monitors of itself, off or slowed in every process of a run (each
# inherits the environment, and Dask reads it as it is imported): the
# statistical profiler of each worker (a sample of every thread each 10 ms),
# the event-loop tick (20 ms) and the system monitor (0.5 s). They are for a
# person at Dask's dashboard, which no test opens, and an idle loopback
# cluster spent four times the CPU with them as without; the tests'
# clusters idle between their tests and while others run
# (journal: "Dask's monitors in the tests"). Nothing knight
# does reads them; a user's cluster keeps its own settings.
for _name, _value in (
    ("DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED", "False"),
    ("DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL", "1s"),
    ("DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL", "5s"),
):
    os.environ.setdefault(_name, _value)


def _cannot_create_in(folder):
    try:
        descriptor, name = tempfile.mkstemp(dir=folder)
    except OSError:
        return True
    os.close(descriptor)
    os.unlink(name)
    return False


@pytest.fixture
def unwritable_folder(tmp_path):
    """A folder in which no file can be created: a read-only one, or (as
    root, who may write anywhere on disk) a kernel folder that refuses."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        if _cannot_create_in(folder):
            yield folder
            return
        for candidate in (Path("/sys/kernel"), Path("/proc/sys")):
            if candidate.is_dir() and _cannot_create_in(candidate):
                yield candidate
                return
        pytest.skip("no folder here refuses new files")
    finally:
        folder.chmod(0o755)


@pytest.fixture
def small_filesystem(tmp_path):
    """A folder on a filesystem of 64 KiB, to fill: a tmpfs mounted for the
    test (root only; skipped where mounting is refused)."""
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small filesystem here (root only)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def fill(folder, leave):
    """Fill ``folder``'s filesystem but for about ``leave`` bytes."""
    free = os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize
    with open(Path(folder) / "filler", "wb") as filler:
        filler.write(b"\0" * max(free - leave, 0))


@pytest.fixture
def spill_folders(tmp_path, monkeypatch):
    """The DP's spill folders made in ``tmp_path`` (a list, filled as they
    are made), so that a test sees each one and that none is left."""
    made = []

    def mkdtemp(prefix):
        made.append(tmp_path / f"{prefix}{len(made)}")
        made[-1].mkdir()
        return str(made[-1])

    monkeypatch.setattr(tempfile, "mkdtemp", mkdtemp)
    return made


def dp_steps(rows, cols, closed, forced, order=None):
    """Each step of a DP run on ``rows`` x ``cols`` by the hash step, as
    ``(arguments, made)``: the step's arguments and what the step made
    (``order``: the squares' order, default ``cell_order``'s)."""
    from knight.counting.dp.model import cell_order, degree_relaxation
    from knight.counting.dp.steps import hash_step
    from knight.counting.dp.steps.step_arguments import step_arguments

    plan = cell_order.schedule(rows, cols, order)
    live = degree_relaxation.live_patterns(plan, closed, forced)
    keys = np.zeros(1, dtype=np.uint64)
    counts = np.ones((1, 1), dtype=np.uint64)
    for step in range(len(plan.order)):
        before = live[step - 1] if step else degree_relaxation.start_bits(0 if closed else 2)
        arguments = step_arguments(plan, step, keys, counts, closed, forced, before, live[step])
        made = hash_step.step_in_parts(arguments, 100, None)
        yield arguments, made
        keys, counts = made[0], made[1]


# The kernels a test run calls, compiled once into Numba's cache before the
# workers of ``pytest -n`` start. A fresh clone has no cache, and each
# process that first calls a kernel compiles it: both workers, every Dask
# worker process of a loopback cluster, every ``knight`` or bench worker a
# test starts. Compiled once, here, they all load it. Two processes, so
# both cores work: the DP's hash step in one; the searches and the DP's
# partitioned and packed out-of-core steps in the other (each about 30 s
# of a core on a fresh cache); beside them, one collection of the suite.
# The model's kernels, which both processes' steps call, are the dp's
# first work: the other waits for them before its steps, as both compiled
# them when they raced (5.6 s of a core twice over).
# the speed guard's instruction workloads, those of the dp or the others,
# and (``references``) the frozen references beside all of them (but C's):
# both processes' code
_WORKLOADS = """
from bench.guard.references import REFERENCES
from bench.guard.workloads import INSTRUCTION_WORKLOADS


def run_workloads(dp, references):
    for search in INSTRUCTION_WORKLOADS:
        if (search.method == "dp") == dp:
            search.run()
        for reference in REFERENCES if references else ():
            if reference.name != "c" and reference.available()[0] and reference.supports(search):
                reference.run(search)
"""
_WARM_DP = (
    _WORKLOADS
    + """
import os
from knight.counting.dp.runs import run_loop
from knight.counting.dp.tables import table_merge
from knight.counting.dp.model import degree_relaxation
from knight.counting.dp.model.cell_order import schedule
from knight.counting.dp.steps.step_arguments import step_arguments
import numpy as np
# the model's kernels first, and a line to the other process, which
# waits for it before its own steps: compiled once, not by both
plan = schedule(3, 4)
before, live = degree_relaxation.start_bits(2), degree_relaxation.live_patterns(plan, False)
step_arguments(plan, 0, np.zeros(1, dtype=np.uint64), np.ones((1, 1), dtype=np.uint64), False, None, before, live[0])
print("the model's kernels are in the cache", flush=True)
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # nothing more into the pipe, which no one reads now
run_loop.compile_kernels()
keys, counts = np.arange(8, dtype=np.uint64), np.ones((8, 1), dtype=np.uint64)
table_merge.merge_tables(table_merge.split_table(keys, counts, 3), 1)
# here, beside the hash step's kernels they call; every frozen reference
# here too, which balances the two processes' compile times
run_workloads(dp=True, references=True)
"""
)
_WARM_SEARCH = (
    _WORKLOADS
    + """
import sys
import knight
from knight.counting.dp.runs import run_loop
from knight.counting.dp.model.cell_order import schedule
from knight.counting.dp.planning.policy import StepPolicy
knight.compile_kernels()
for pruned in (True, False):
    knight.count_tours(5, 5, method="dfs", pruned=pruned)
run_workloads(dp=False, references=False)  # the dp's, and the references, are the other process's
sys.stdin.readline()  # the model's kernels in the cache (or the other process gone: EOF)
plan = schedule(4, 5)
for policy in (StepPolicy(table="partitioned"),
               StepPolicy(table="partitioned", partitioned_states=0, min_room=1 << 16, memory=1),
               StepPolicy(partitioned_states=0, min_room=4_000, memory=1)):  # out of core: packed tables
    run_loop.count_hamiltonian(plan, False, policy=policy)
"""
)


# when the warm-up began and ended: it runs before the terminal reporter's
# pytest_sessionstart (trylast), which starts the clock of the time pytest
# prints last, and before xdist's (trylast too), which starts the workers
_WARM_UP = {}


def pytest_sessionstart(session):
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return  # a worker, or a run in one process: it compiles what it calls
    _WARM_UP["began"] = time.monotonic()
    root = Path(__file__).parent.parent  # where knight and bench import from, wherever pytest runs
    commands = [[sys.executable, "-c", code] for code in (_WARM_DP, _WARM_SEARCH)]
    if not sys.dont_write_bytecode:
        # one collection first, which leaves pytest's rewritten test modules
        # (and the imports' bytecode) in __pycache__: each worker's own
        # collection then reads them, 3 s of a core against 7.5 s
        commands.append([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests"])
    # the dp's process tells the search's, by a pipe, when the model's
    # kernels both use are compiled (``_WARM_DP``)
    dp = subprocess.Popen(commands[0], cwd=root, stdout=subprocess.PIPE)
    warming = [dp, subprocess.Popen(commands[1], cwd=root, stdin=dp.stdout, stdout=subprocess.DEVNULL)]
    dp.stdout.close()
    warming += [subprocess.Popen(command, cwd=root, stdout=subprocess.DEVNULL) for command in commands[2:]]
    for process in warming:
        # a warm-up that fails costs the run its time, not its verdict: the
        # tests that call the same kernels say what is wrong
        process.wait()
    _WARM_UP["ended"] = time.monotonic()


def pytest_terminal_summary(terminalreporter):
    # the time pytest prints leaves the warm-up out: both said here, so that
    # a reading of make test's time is the whole of it
    if "ended" in _WARM_UP:
        warm_up = _WARM_UP["ended"] - _WARM_UP["began"]
        whole = time.monotonic() - _WARM_UP["began"]
        terminalreporter.write_line(
            f"the whole session: {whole:.1f} s, of which the warm-up {warm_up:.1f} s before pytest's clock below"
        )


# The DP's cluster test files, which share one loopback cluster
# (tests/knight/conftest.py): one work unit of ``--dist loadfile``, so that
# they run on one worker, which starts the cluster and loads its workers'
# kernels once (about 9 s of a core) instead of once a file.
SHARED_CLUSTER_FILES = ("tests/knight/test_dp_cluster_checkpoint.py", "tests/knight/test_dp_cluster_run.py")
SHARED_CLUSTER_SCOPE = "the DP cluster files"

# The work units that hold a worker longest (their own processes, clusters
# and waits), handed out first, longest first. xdist otherwise hands out the
# files with the most tests first, and a long file of few tests that starts
# last keeps one worker busy after the others have finished.
LONGEST_FIRST = (
    "tests/knight/test_cluster_faults.py",
    SHARED_CLUSTER_SCOPE,
    "tests/knight/test_search.py",
    "tests/knight/test_faults.py",
    "tests/bench/test_run_endings.py",
    "tests/knight/test_counting.py",
    "tests/knight/test_dp_process_checkpoint.py",
    "tests/knight/test_hostile.py",
    "tests/bench/test_count_worker.py",
    "tests/knight/test_packaging.py",
    "tests/bench/test_sweep_runner.py",
    "tests/knight/test_packed_kernels.py",
)


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None  # another distribution asked for: xdist's own
    from xdist.scheduler import LoadFileScheduling

    class MakeTestScheduling(LoadFileScheduling):
        """Files as work units, the shared cluster's files as one, the
        longest units first."""

        ordered = False

        def _split_scope(self, nodeid):
            scope = super()._split_scope(nodeid)
            return SHARED_CLUSTER_SCOPE if scope.endswith(SHARED_CLUSTER_FILES) else scope

        def _assign_work_unit(self, node):
            if not self.ordered:  # the queue is whole at the first assignment
                for scope in reversed(LONGEST_FIRST):
                    if scope in self.workqueue:
                        self.workqueue.move_to_end(scope, last=False)
                self.ordered = True
            super()._assign_work_unit(node)

    return MakeTestScheduling(config, log)
