"""The counting study's worker: each engine through knight's public API, its
caps, and the process the study kills when a count will not stop."""

import os
import time
from pathlib import Path

from bench.studies.counts import count_worker
from bench.studies.counts.count_worker import DONE, REFUSED, SINGLE_PROCESS_ENGINES, STOPPED


def test_every_engine_counts_the_same_open_tours_of_3x4():
    counted = {engine: count_worker.count(engine, 3, 4, 10**6) for engine in SINGLE_PROCESS_ENGINES}
    grids = {engine: grid for engine, (grid, *_) in counted.items() if grid is not None}
    assert set(grids) == {"dfs-plain", "dfs-pruned", "dp"}
    assert len({repr(grid) for grid in grids.values()}) == 1
    assert {tours for _, tours, *_ in counted.values()} == {16}  # OEIS A118067: 8 undirected
    assert counted["dfs-plain"][3]["nodes"] > counted["dfs-pruned"][3]["nodes"] > 0
    assert counted["dp"][3]["runs"] > counted["dp-total"][3]["runs"] == 1
    assert all(complete for *_, complete in counted.values())


def test_a_count_stops_itself_at_its_cap():
    for engine in SINGLE_PROCESS_ENGINES:
        answer = count_worker.answer(engine, 4, 5, seconds=0.0, budget=10**6)
        assert answer == {"status": STOPPED, "why": "stopped at its time cap of 0 s"}, engine


def test_the_dfs_stops_at_its_node_budget_and_the_dp_refuses_what_it_cannot_hold():
    assert count_worker.answer("dfs-plain", 5, 5, seconds=60, budget=10) == {
        "status": STOPPED,
        "why": "a work unit hit the node budget of 10",
    }
    # past the DP's frontier (or its memory projection): refused before anything is allocated
    refused = count_worker.answer("dp", 9, 9, seconds=60)
    assert refused["status"] == REFUSED and refused["why"].startswith("board 9x9")
    done = count_worker.answer("dp", 3, 4, seconds=60)
    assert done["status"] == DONE and done["tours"] == 16 and done["cpu_seconds"] > 0


def test_the_worker_process_counts_and_is_killed_past_its_grace(monkeypatch):
    worker = count_worker.Worker()
    try:
        answer = worker.count("dfs-pruned", 3, 4, seconds=60)
        assert answer["status"] == DONE and answer["tours"] == 16 and len(worker.warm_ups) == 1
        # no grace and a count of hours (one of a tenth of a second once
        # answered first, the test process slowed by a loaded machine)
        monkeypatch.setattr(count_worker, "GRACE", -1.0)
        scratch = Path(worker.scratch)
        (scratch / "a table a killed count left").write_text("spilled")
        killed = worker.count("dfs-plain", 6, 6, seconds=1.0)
        assert killed == {"status": STOPPED, "why": "killed -1 s past its time cap of 1 s"}
        assert worker.process is None and not scratch.exists()
        monkeypatch.setattr(count_worker, "GRACE", 1.0)
        assert worker.count("dp", 3, 4, seconds=60)["tours"] == 16
        assert len(worker.warm_ups) == 2  # a fresh worker, warmed up again
    finally:
        worker.close()
    assert worker.process is None


def test_the_cluster_engines_count_the_total_on_their_own_loopback_clusters():
    worker = count_worker.Worker(clusters=(1, 2))
    try:
        # 3 x 4: 12 steps of each cluster's round trips, not 5 x 5's 25
        single = worker.count("dp-total", 3, 4, seconds=60)
        for engine in count_worker.CLUSTER_WORKERS:
            answer = worker.count(engine, 3, 4, seconds=60)
            assert answer["status"] == DONE and answer["grid"] is None
            assert (answer["tours"], answer["work"]) == (single["tours"], single["work"]) and answer["tours"] == 16
        assert worker.count("dp-2-workers", 3, 4, seconds=0.0)["status"] == STOPPED
        group = worker.process.pid
    finally:
        worker.close()
    # the worker's process group, its clusters' worker processes in it, is
    # gone once the orphans killed with it are reaped
    deadline = time.monotonic() + 30
    while _group_alive(group) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _group_alive(group)


def _group_alive(group):
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True
