"""A count's Dask cluster failing (issue 29, items 2 and 3): its only
worker killed at any moment, its scheduler killed, Ctrl-C and SIGTERM while
a wait hangs on it. Each ends in the true count or in one line naming the
cluster with its documented status, in bounded time, finished work kept and
no traceback; Dask's failure types each read as one line."""

import concurrent.futures
import contextlib
import errno
import io
import json
import signal
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knight import cli, exit_status
from knight.counting.cluster import cluster_faults, dask_client

distributed = pytest.importorskip("distributed")

# the true counts of the boards below (tests/knight/test_published_counts.py's)
TOURS = {(5, 6): 37568, (6, 6): 6637920}


def _dask(*argv):
    """A Dask scheduler or worker in a process of its own, to kill."""
    return subprocess.Popen(
        [sys.executable, "-m", f"distributed.cli.dask_{argv[0]}", *argv[1:]],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _stop(process):
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    process.wait()


@contextlib.contextmanager
def _cluster(tmp_path):
    """A scheduler and one worker (no nanny: a killed worker stays dead),
    each a process; yields ``(address, scheduler, worker)``."""
    where = tmp_path / f"scheduler-{time.monotonic_ns()}.json"  # Hypothesis's examples share tmp_path
    scheduler = _dask("scheduler", "--host", "127.0.0.1", "--port", "0", "--dashboard-address", ":0",
                      "--scheduler-file", str(where), "--no-show")  # fmt: skip
    worker = None
    try:
        for _ in range(200):
            if where.exists() and where.stat().st_size:
                break
            time.sleep(0.1)
        address = json.loads(where.read_text())["address"]
        worker = _dask("worker", address, "--no-nanny", "--nthreads", "1", "--dashboard-address", ":0")
        with distributed.Client(address, timeout=30) as client:
            client.wait_for_workers(1, timeout=60)
        yield address, scheduler, worker
    finally:
        for process in (worker, scheduler):
            if process is not None:
                _stop(process)


def _count(argv):
    """``knight ARGV`` in this process: ``(status, stdout, stderr)``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = cli.main(argv, out=out)
    return status, out.getvalue(), err.getvalue()


def _tours(out):
    line = next(line for line in out.splitlines() if line.startswith("tours"))
    return int(line.split()[1].replace(",", ""))


def _one_line_naming(err, address):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("knight: error: the Dask cluster at ") and address in lines[0], lines
    return lines[0]


COUNTS = [
    (("count", "5", "6", "--method", "dfs"), (5, 6)),
    (("count", "6", "6", "--method", "dp"), (6, 6)),
]


def _count_killing(process, delay, argv):
    """``_count(argv)`` with ``process`` killed ``delay`` seconds in: its
    status, output, errors and seconds."""
    timer = threading.Timer(delay, process.kill)
    began = time.monotonic()
    timer.start()
    try:
        status, out, err = _count(argv)
    finally:
        timer.cancel()
    return status, out, err, time.monotonic() - began


def _killed_at_a_random_moment(tmp_path, argv, board, delay):
    """``argv`` counted on a fresh cluster whose only worker is killed
    ``delay`` seconds in; a DFS count keeps a resume file, resumed here
    after a lost cluster to the true count."""
    resume = tmp_path / f"resume-{time.monotonic_ns()}"
    argv = [*argv, "--resume", str(resume) + (".npz" if "dp" in argv else "")]
    with _cluster(tmp_path) as (address, _, worker):
        status, out, err, seconds = _count_killing(worker, delay, [*argv, "--scheduler", address])
    assert seconds < 60
    if status == 0:
        assert _tours(out) == TOURS[board] and err == ""
        return
    if status == exit_status.EXIT_USAGE:  # killed before the count began: refused as a cluster with no workers
        assert out == "" and err.count("\n") == 1 and "has no workers" in err
        return
    assert status == exit_status.EXIT_IO and out == ""
    _one_line_naming(err, address)
    if "dfs" in argv:  # the units finished before the loss are kept: the resume ends the count
        status, out, _ = _count(argv)
        assert status == 0 and _tours(out) == TOURS[board]


@settings(max_examples=2, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(count=st.sampled_from(COUNTS), delay=st.floats(min_value=0.0, max_value=1.5))
def test_a_worker_killed_at_a_random_moment_ends_in_one_line_or_the_count(tmp_path, monkeypatch, count, delay):
    """Issue 29: the count hung for ever when its only worker died."""
    monkeypatch.setattr(cluster_faults, "LOST_SECONDS", 2.0)
    monkeypatch.setattr(dask_client, "WORKER_SECONDS", 2.0)
    _killed_at_a_random_moment(tmp_path, *count, delay)


@pytest.mark.slow
@settings(max_examples=15, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(count=st.sampled_from(COUNTS), delay=st.floats(min_value=0.0, max_value=6.0))
def test_a_worker_killed_at_any_moment_ends_in_one_line_or_the_count(tmp_path, count, delay):
    """The same, wider, at the real bound (``LOST_SECONDS``)."""
    _killed_at_a_random_moment(tmp_path, *count, delay)


def test_a_result_lost_between_the_wait_and_the_gather_ends_in_one_line(tmp_path, monkeypatch):
    """A worker that died after its task finished and before the gather
    (1 run of make test in 4, a 6x6 DP count's worker killed at random):
    Dask's gather waited for ever for a rerun no worker was left to make."""
    monkeypatch.setattr(cluster_faults, "LOST_SECONDS", 1.0)
    monkeypatch.setattr(cluster_faults, "ASK_SECONDS", 1.0)
    with _cluster(tmp_path) as (address, _, worker), distributed.Client(address, timeout=30) as client:
        watch = cluster_faults.Watch(client, address)
        wait = watch.wait

        def wait_then_lose(futures, first=False):
            done = wait(futures, first)
            if worker.poll() is None:  # the first wait: finished; now its worker dies
                _stop(worker)
                deadline = time.monotonic() + 30
                while any(future.status == "finished" for future in futures) and time.monotonic() < deadline:
                    time.sleep(0.05)
            return done

        monkeypatch.setattr(watch, "wait", wait_then_lose)
        future = client.submit(sum, [1, 2], pure=False)
        outcome = []
        gathering = threading.Thread(target=lambda: outcome.append(_raised(watch.gather, [future])), daemon=True)
        gathering.start()
        gathering.join(timeout=30)
        assert not gathering.is_alive(), "the gather still waits"
    assert outcome and isinstance(outcome[0], cluster_faults.ClusterLost), outcome
    assert "has had no workers" in str(outcome[0]) and "\n" not in str(outcome[0])


def _raised(function, *args):
    try:
        return function(*args)
    except Exception as error:  # what the thread raised, for the test to read
        return error


@pytest.mark.parametrize(
    ("argv", "board"),
    [(("count", "6", "6", "--method", "dfs"), (6, 6)), (("count", "6", "6", "--method", "dp"), (6, 6))],
)
def test_a_killed_scheduler_is_one_line_naming_the_cluster(tmp_path, argv, board):
    """Issue 29: 70 lines ending in CancelledError (the DFS), and the DP's
    exit 74 blaming "standard output" after Dask's own error lines."""
    with _cluster(tmp_path) as (address, scheduler, _):
        status, out, err, seconds = _count_killing(scheduler, 1.0, [*argv, "--scheduler", address])
        assert seconds < 60
    if status == 0:  # done before the kill: the true count, nothing else said
        assert _tours(out) == TOURS[board] and err == ""
        return
    assert status == exit_status.EXIT_IO
    assert "standard output" not in _one_line_naming(err, address)


def _knight_process(argv):
    # a handler, not SIG_IGN, so that the child takes Ctrl-C (see conftest)
    return subprocess.Popen(
        [sys.executable, "-m", "knight", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _wait_for_work(address):
    """Until a task runs on the cluster at ``address`` (at most 60 s): the
    count connected and its work under way."""
    with distributed.Client(address, timeout=30) as client:
        deadline = time.monotonic() + 60
        while not any(client.processing().values()) and time.monotonic() < deadline:
            time.sleep(0.05)


@pytest.mark.parametrize(
    ("argv", "sent", "status", "said"),
    [
        # counts of a minute or more on one worker: still under way when it is killed
        # both engines wait on the cluster through the same Watch; the DFS's case,
        # whose worker searches at full speed all the while, is in make test-all
        pytest.param(
            ("count", "7", "7", "--method", "dfs"),
            signal.SIGTERM,
            exit_status.EXIT_TERMINATED,
            "knight: terminated",
            marks=pytest.mark.slow,
        ),
        (("count", "7", "6", "--method", "dp"), signal.SIGINT, exit_status.EXIT_INTERRUPTED, "knight: interrupted"),
    ],
)
def test_a_signal_stops_a_count_hung_on_a_lost_worker_within_seconds(tmp_path, argv, sent, status, said):
    """Issue 29: still alive 40 s after one Ctrl-C or SIGTERM."""
    with _cluster(tmp_path) as (address, _, worker):
        count = _knight_process([*argv, "--scheduler", address])
        try:
            _wait_for_work(address)  # connected, the work under way
            _stop(worker)
            time.sleep(1.5)  # waiting on work no worker can run (under LOST_SECONDS)
            began = time.monotonic()
            count.send_signal(sent)
            _, err = count.communicate(timeout=20)
            seconds = time.monotonic() - began
        finally:
            _stop(count)
    lines = err.strip().splitlines()
    # past 36 squares the DFS first prints Knuth's estimate of its work, one line of knight's too
    assert (count.returncode, lines[-1]) == (status, said) and all(line.startswith("knight: ") for line in lines), err
    assert len(lines) <= 2
    assert seconds < 10


# --- each failure type of Dask's, one line --------------------------------------------


def _failures():
    from distributed.comm.core import CommClosedError

    return [
        distributed.KilledWorker("count_units-1", "tcp://127.0.0.1:9", 3),
        concurrent.futures.CancelledError(),
        CommClosedError("in <TCP (closed)>: Stream is closed"),
        TimeoutError("Timed out trying to connect to tcp://127.0.0.1:9 after 30 s\nmore"),
        OSError(errno.ECONNRESET, "Connection reset by peer"),
    ]


@pytest.mark.parametrize("failure", _failures(), ids=lambda error: type(error).__name__)
def test_each_failure_of_dasks_is_one_line_naming_the_cluster(failure, capsys):
    def body():
        with cluster_faults.translated("tcp://10.0.0.5:8786"):
            raise failure

    assert exit_status.run_command("knight", body) == exit_status.EXIT_IO
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("knight: error: the Dask cluster at tcp://10.0.0.5:8786: ")


@pytest.mark.parametrize(
    "error",
    [OSError(errno.ENOSPC, "No space left on device", "/tmp/ck.npz"), ValueError("a bug"), KeyboardInterrupt()],
    ids=["a file of ours", "a bug", "Ctrl-C"],
)
def test_what_is_not_the_clusters_passes_as_it_was(error):
    with pytest.raises(type(error)) as raised, cluster_faults.translated("tcp://10.0.0.5:8786"):
        raise error
    assert raised.value is error


def test_dasks_log_lines_do_not_reach_stderr(capsys):
    import logging

    cluster_faults.quiet()
    logging.getLogger("distributed.client").error("Failed to reconnect to scheduler after 5.00 seconds")
    logging.getLogger("distributed.comm.tcp").warning("Closing dangling stream")
    assert capsys.readouterr().err == ""
