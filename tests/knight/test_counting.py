"""Pruned, split, symmetric, resumable and distributed counts all give the
plain search's answer."""

import concurrent.futures
import contextlib
import io
import json
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from knight import InvalidArgument, cli, count_tours, exit_status
from knight.counting import driver
from knight.counting.dfs import unit_count, unit_runner, unit_split
from knight.counting.dfs.unit_store import UnitStore
from knight.geometry.symmetry import symmetry_classes
from knight.validate import DEFAULT_COUNT_BUDGET

SMALL_BOARDS = [(rows, cols) for rows in range(1, 6) for cols in range(1, 7) if (rows, cols) != (5, 6)]


@pytest.mark.parametrize(("rows", "cols"), SMALL_BOARDS)
@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_pruned_counts_equal_plain_on_every_start(rows, cols, closed):
    plain = count_tours(rows, cols, closed=closed, pruned=False, symmetry=False)
    pruned = count_tours(rows, cols, closed=closed, symmetry=False)
    assert (pruned.tours == plain.tours).all()
    assert pruned.total_nodes <= plain.total_nodes


@pytest.mark.slow
@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_pruned_counts_equal_plain_on_5x6(closed):
    plain = count_tours(5, 6, closed=closed, pruned=False)
    pruned = count_tours(5, 6, closed=closed)
    assert (pruned.tours == plain.tours).all()


def test_pruned_equals_plain_below_chosen_6x6_prefixes():
    # the plain 6x6 count takes minutes; subtrees 14 moves deep below one
    # start of each symmetry class are small enough to compare (a prefix
    # the pruned search reaches is one the plain search reaches too)
    for start in symmetry_classes(6, 6, range(36)):
        units = unit_split.split_units(driver.prepare(6, 6, divmod(start, 6), depth=14, symmetry=False)).units
        for prefix in units[:: max(1, len(units) // 10)]:
            plain = unit_count.count_unit(6, 6, False, False, DEFAULT_COUNT_BUDGET, prefix)
            pruned = unit_count.count_unit(6, 6, False, True, DEFAULT_COUNT_BUDGET, prefix)
            assert pruned[1] == plain[1]
            assert pruned[2] <= plain[2]


@pytest.mark.parametrize("pruned", [False, True], ids=["plain", "pruned"])
def test_any_split_gives_the_same_tours_and_nodes(pruned):
    counts = [count_tours(5, 5, pruned=pruned, depth=depth) for depth in (0, 1, 4, 9, 24)]
    for counted in counts[1:]:
        assert (counted.tours == counts[0].tours).all()
        assert (counted.nodes == counts[0].nodes).all()
    assert [counted.depth for counted in counts] == [0, 1, 4, 9, 24]


def test_split_of_6x6_closed_keeps_nodes():
    nodes = {count_tours(6, 6, (0, 0), closed=True, depth=depth).nodes for depth in (0, 3, 8)}
    assert len(nodes) == 1


@pytest.mark.parametrize(("rows", "cols"), [(5, 5), (4, 5), (3, 7)])
def test_symmetry_maps_counts_to_every_square(rows, cols):
    mapped = count_tours(rows, cols)
    searched = count_tours(rows, cols, symmetry=False)
    assert (mapped.tours == searched.tours).all()
    assert mapped.total_nodes < searched.total_nodes


def test_unit_store_cuts_a_torn_line_and_refuses_another_count(tmp_path):
    path = tmp_path / "units.jsonl"
    header = {"rows": 5, "cols": 5, "depth": 3}
    store = UnitStore.open(path, header)
    store.record(0, [0, 7, 14], 0, 3, 40)
    store.close()
    with open(path, "ab") as file:
        file.write(b'{"unit": 1, "prefix": [0, 7')  # a write cut short by a crash
    store = UnitStore.open(path, header)
    assert store.finished == {0: (0, 3, 40)}
    assert path.read_bytes().endswith(b"\n") and b"[0, 7\n" not in path.read_bytes()  # the torn line is gone
    assert path.read_bytes().count(b"\n") == 2
    store.record(2, [0, 7, 18], 1, 0, 5)
    store.close()
    store = UnitStore.open(path, header)
    store.close()
    assert store.finished == {0: (0, 3, 40), 2: (1, 0, 5)}
    with pytest.raises(InvalidArgument, match="depth 3 \\(now 4\\)"):
        UnitStore.open(path, {**header, "depth": 4})


def _count_process(*argv):
    command = [sys.executable, "-m", "knight", "count", *argv]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@contextlib.contextmanager
def _reaped(process):
    """``process``, killed and its pipes closed if the test fails first:
    a pipe left open fails a later test as an unraisable ResourceWarning."""
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()


def _records(path):
    if not path.exists():
        return 0
    return path.read_bytes().count(b"\n") - 1


def _stopped_after(path, argv, records, sig):
    """``knight count ARGV`` stopped by ``sig`` once ``path`` holds
    ``records`` finished units or more: its exit status, stderr and the
    units then recorded."""
    with _reaped(_count_process(*argv)) as process:
        deadline = time.monotonic() + 60
        while _records(path) < records and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        process.send_signal(sig)
        _, stderr = process.communicate(timeout=60)
    return process.returncode, stderr, _records(path)


def test_resume_after_the_run_is_killed(tmp_path):
    """A count interrupted (Ctrl-C), its resume killed outright (SIGKILL),
    and the resume of that: the true count, each unit recorded once. One
    chain, so that the 6x6 count's work is done once, not once a signal."""
    path = tmp_path / "units.jsonl"
    argv = ["6", "6", "--depth", "8", "--workers", "1", "--resume", str(path), "--json"]
    status, stderr, interrupted = _stopped_after(path, argv, 2000, signal.SIGINT)
    assert status == exit_status.EXIT_INTERRUPTED and "--resume" in stderr
    assert 0 < interrupted < 34938  # stopped part-way: units remain
    status, _, killed = _stopped_after(path, argv, interrupted + 2000, signal.SIGKILL)
    assert status == -signal.SIGKILL and interrupted < killed < 34938  # the resume went on, then was killed
    with _reaped(_count_process(*argv)) as resumed:
        stdout, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr
    record = json.loads(stdout)
    assert record["tours"] == 6_637_920 and record["units"] == 34938
    units = [json.loads(line.rpartition("\t")[0])["unit"] for line in path.read_text().splitlines()[1:]]
    assert sorted(units) == list(range(34938))  # each unit recorded once


def test_local_cluster_gives_the_local_answer():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=":0"
    ) as cluster:
        remote = count_tours(5, 6, closed=True, depth=6, scheduler=cluster.scheduler_address)
    local = count_tours(5, 6, closed=True, depth=6)
    assert (remote.tours == local.tours).all() and (remote.nodes == local.nodes).all()
    assert remote.total_tours == 30 * 2 * 8


def test_count_cli_json_reports_search_and_split():
    out = io.StringIO()
    assert cli.main(["count", "5", "5", "--plain", "--depth", "2", "--json"], out=out) == 0
    record = json.loads(out.getvalue())
    assert record["tours"] == 1728 and record["pruned"] is False and record["depth"] == 2
    assert record["nodes"] == count_tours(5, 5, pruned=False, depth=0).total_nodes


def test_estimate_is_seeded_and_near_the_exact_5x5_tree():
    def estimate(*argv):
        out = io.StringIO()
        assert cli.main(["estimate", "5", "5", "--json", *argv], out=out) == 0
        return json.loads(out.getvalue())

    first, again = estimate("--seed", "3"), estimate("--seed", "3")
    assert first["pruned_nodes"] == again["pruned_nodes"] and first["tours"] == again["tours"]
    exact_pruned = count_tours(5, 5).total_nodes
    exact_plain = count_tours(5, 5, pruned=False).total_nodes
    assert 0.5 < first["pruned_nodes"] / exact_pruned < 2
    assert 0.5 < first["plain_nodes"] / exact_plain < 2
    assert first["seconds"] > 0 and np.isfinite(first["seconds"])


class _Interrupted(Exception):
    pass


class _SlowToShutDown:
    """One worker thread whose shutdown first waits for ``event``: a count
    interrupted on it stays stopping (its stop signal raised) until then."""

    def __init__(self, event):
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        self._event = event

    def submit(self, fn, *args):
        return self._pool.submit(fn, *args)

    def shutdown(self, wait=True, cancel_futures=False):
        self._event.wait(60)
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def test_stopping_one_count_leaves_a_concurrent_count_alone():
    # each count has its own stop signal: while one count is interrupted
    # and stopping, another count's units (two, of about 7 million nodes,
    # polling their signal every million) run on to the exact answer
    board = dict(rows=6, cols=6, start=(0, 0), depth=1, workers=1)
    expected = count_tours(**board)
    other_running, other_done = threading.Event(), threading.Event()

    def note(now):
        if now.done:
            other_running.set()

    def other_count():
        try:
            return count_tours(**board, progress=note)
        finally:
            other_done.set()

    def interrupt(done, total):
        if done:  # a unit of this count is in flight, and one of the other
            other_running.wait(60)
            raise _Interrupted

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        other = pool.submit(other_count)
        job = driver.prepare(**board)
        with pytest.raises(_Interrupted):
            plan = unit_split.split_units(job)
            unit_runner.run_units(plan, _SlowToShutDown(other_done), job.budget, progress=interrupt)
        counted = other.result(timeout=60)
    assert counted.complete
    assert (counted.tours, counted.nodes) == (expected.tours, expected.nodes)


def test_an_unknown_count_method_is_refused_in_one_line():
    with pytest.raises(InvalidArgument, match="unknown count method 'nope'; choose one of auto, dfs, dp"):
        count_tours(3, 4, method="nope")


def test_count_total_takes_the_road_of_every_count(monkeypatch):
    """``count_total`` is ``prepare`` (a total's ``Job``) then
    ``total_of``, as ``count_tours`` is ``prepare`` then
    ``count_prepared``: the same checks, once."""
    from knight import count_total

    jobs = []
    real = driver.prepare
    monkeypatch.setattr(driver, "prepare", lambda *a, **k: jobs.append(real(*a, **k)) or jobs[-1])
    assert count_total(3, 4).tours == 16 and count_total(4, 4, closed=True).tours == 0
    assert [(job.total, job.method, job.starts.classes) for job in jobs] == [(True, "dp", {})] * 2
    assert jobs[1].ruled_out
    with pytest.raises(InvalidArgument, match="progress"):
        count_total(3, 4, progress=5)
    with pytest.raises(InvalidArgument, match="a total is one dp run"):
        driver.prepare(3, 4, (0, 0), method="dp", total=True)


def test_the_memory_room_is_clipped_to_the_budget_in_one_place(monkeypatch):
    from knight.runtime import machine

    monkeypatch.setattr(machine, "available_memory", lambda: 2**30)
    assert driver.memory_room() == 2**30
    assert driver.memory_room(2**20) == 2**20 and driver.memory_room(2**40) == 2**30
