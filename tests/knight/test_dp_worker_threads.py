"""The DP's worker threads (``knight.counting.dp.runs.worker_threads``): results
in order, the pool kept, no call outliving the one that failed, a forked
child's own pool, and no module of the DP making a pool of its own."""

import importlib
import inspect
import os
import pkgutil
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import knight.counting.dp
from knight.counting.dp.runs import worker_threads


@settings(deadline=None, max_examples=50)
@given(st.lists(st.integers(), max_size=12), st.lists(st.integers(), max_size=12), st.integers(1, 4))
def test_results_come_in_order_as_a_list_comprehension_gives_them(firsts, seconds, threads):
    pairs = list(zip(firsts, seconds, strict=False))
    firsts, seconds = [a for a, _ in pairs], [b for _, b in pairs]
    assert worker_threads.map_all(lambda a, b: (a, b, a - b), firsts, seconds, threads=threads) == [
        (a, b, a - b) for a, b in pairs
    ]


def test_the_pool_is_kept_from_call_to_call():
    def thread(_):
        time.sleep(0.01)  # both threads busy at once
        return threading.current_thread()

    # thread objects, not names: a pool made anew names its threads as the last did
    seen = set(worker_threads.map_all(thread, range(4), threads=2))
    seen |= set(worker_threads.map_all(thread, range(4), threads=2))
    assert len(seen) <= 2 and all(thread.name.startswith("knight-dp") for thread in seen)


def test_one_thread_runs_in_the_callers_thread():
    assert worker_threads.map_all(lambda _: threading.get_ident(), range(3), threads=1) == [threading.get_ident()] * 3


def test_a_failure_propagates_after_the_calls_running_end():
    running, ended = threading.Event(), []

    def call(index):
        if index == 0:
            running.wait(5)
            raise ValueError("the first call fails")
        running.set()
        time.sleep(0.2)
        ended.append(index)
        return index

    with pytest.raises(ValueError, match="first call fails"):
        worker_threads.map_all(call, range(2), threads=2)
    assert ended == [1]


def test_calls_not_yet_started_are_cancelled_when_one_fails():
    started = []

    def call(index):
        started.append(index)
        if index == 0:
            raise ValueError("the first call fails")
        time.sleep(0.05)
        return index

    with pytest.raises(ValueError):
        worker_threads.map_all(call, range(40), threads=2)
    assert len(started) < 40


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_forked_child_runs_its_calls_on_threads_of_its_own():
    worker_threads.map_all(abs, [-1, -2], threads=2)  # the parent's pool exists
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's exit status is the check
        try:
            done = worker_threads.map_all(abs, [-3, -4], threads=2) == [3, 4]
        finally:
            os._exit(0 if done else 1)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        pid, status = os.waitpid(child, os.WNOHANG)
        if pid:
            break
        time.sleep(0.02)
    else:
        os.kill(child, 9)
        os.waitpid(child, 0)
        pytest.fail("the forked child's calls never ran")
    assert os.waitstatus_to_exitcode(status) == 0


def test_no_module_of_the_dp_makes_a_pool_of_its_own():
    package = knight.counting.dp
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        if module is worker_threads:
            continue
        assert "ThreadPoolExecutor" not in inspect.getsource(module), f"{info.name} makes a pool of its own"
