"""This module runs one count at a time in a process of its own, for the counting study.

It also holds the study's handle on that process, a ``CappedWorker`` of
bench/studies/capped_worker.py.

A count cannot be interrupted from outside once its kernels run, and a count
one board past an engine's reach can take days. So each count runs in this
worker, under a time cap: it stops itself from its progress callback when
the cap has passed (the DP checks after each step, the DFS after each batch
of work units), and a worker that has not answered ``GRACE`` after the cap
(a batch of huge units) is killed by the study; the next count starts a
fresh one.

Started as ``python -m bench.studies.counts.count_worker [SIZES]``. It first compiles
(or loads) every engine on 3x4 and starts a loopback cluster of each of the
comma-separated SIZES (for the cluster engines), so that no count's time
includes either, and says how long that took: ``{"warm_up_seconds": s}``. Then, for each request on stdin
(``{"engine", "rows", "cols", "seconds", "budget"}``), one JSON answer on
stdout: ``status`` (``DONE``, ``STOPPED`` or ``REFUSED``) and, for a count
that finished, its per-start ``grid`` (None for the DP's total), ``tours``,
``seconds`` (the engine's own: ``Count.seconds``, as ``knight count``
prints; for the total, the wall time of schedule and run), ``cpu_seconds``
(the worker's CPU time over the whole call, every thread) and ``work``.
"""

import json
import os
import sys
import time

from bench.studies.capped_worker import CappedWorker
from bench.timing.worker_main import run_worker

# the engines of the study: the DFS plain and pruned, the DP's per-start
# grid (what `knight count --method dp` prints) and its open total alone
# (one run with no forced end, `knight.count_total`); then that total on a
# loopback Dask cluster of 1 and 2 single-threaded worker processes
# (`knight count --total --scheduler`), one partition a worker
SINGLE_PROCESS_ENGINES = ("dfs-plain", "dfs-pruned", "dp", "dp-total")
CLUSTER_WORKERS = {"dp-1-worker": 1, "dp-2-workers": 2}
ENGINES = SINGLE_PROCESS_ENGINES + tuple(CLUSTER_WORKERS)
DONE, STOPPED, REFUSED = "done", "stopped at cap", "refused"
# how long past its cap a count may take to stop itself before it is killed
GRACE = 1.0


class _PastCap(Exception):
    pass


class _Orphaned(Exception):
    """The study that started this worker is gone (killed before it could
    stop the worker): nobody reads the count, so it stops."""


# the study's process: the worker runs in a session of its own, so no
# signal of the study's terminal reaches it, and it watches for its end
_PARENT = os.getppid()


# this process's loopback clusters, ``{workers: (cluster, client)}``, started
# before the first count (``start_clusters``): outside every timed region
_clusters = {}


def start_clusters(sizes):
    """A loopback ``LocalCluster`` of each size in ``sizes`` (worker
    processes of one thread each) and a client on it, each worker's kernels
    compiled by a 3x4 count: the cluster engines' counts time the count alone."""
    import distributed

    from knight.harness_api import ClusterRun, total_with_work

    for workers in sizes:
        if workers not in _clusters:
            cluster = distributed.LocalCluster(
                n_workers=workers, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
            )
            _clusters[workers] = (cluster, distributed.Client(cluster))
            total_with_work(3, 4, False, None, ClusterRun(_clusters[workers][1], parts=workers))


def close_clusters():
    for cluster, client in _clusters.values():
        client.close()
        cluster.close()
    _clusters.clear()


def count(engine, rows, cols, budget=None, progress=None):
    """One open count through knight's public API: ``(grid or None, tours,
    seconds, work, complete)``; a cluster engine's on the cluster
    ``start_clusters`` started."""
    import knight

    if engine == "dp-total" or engine in CLUSTER_WORKERS:
        from knight.harness_api import ClusterRun, total_with_work

        if engine in CLUSTER_WORKERS:
            workers = CLUSTER_WORKERS[engine]
            run = ClusterRun(_clusters[workers][1], parts=workers)
        began = time.perf_counter()
        if engine == "dp-total":
            tours, work = total_with_work(rows, cols, False, progress=progress)
        else:
            tours, work = total_with_work(rows, cols, False, progress, run)
        seconds = time.perf_counter() - began
        measures = {"transitions": work.transitions, "states_peak": work.states_peak, "merges": work.merges}
        return None, tours, seconds, {**measures, "runs": 1}, True
    if engine == "dp":
        counted = knight.count_tours(rows, cols, method="dp", progress=progress)
        work = {name: int(getattr(counted, name)) for name in ("transitions", "states_peak", "merges", "runs")}
    else:
        counted = knight.count_tours(
            rows, cols, budget=budget, progress=progress, method="dfs", pruned=engine == "dfs-pruned"
        )
        work = {"nodes": counted.total_nodes, "units": counted.units}
    return counted.tours.tolist(), counted.total_tours, counted.seconds, work, counted.complete


def answer(engine, rows, cols, seconds, budget=None):
    """Run one count under its time cap of ``seconds``: the JSON answer."""
    from knight import InvalidArgument

    deadline = time.perf_counter() + seconds

    def progress(*_):
        if os.getppid() != _PARENT:
            raise _Orphaned
        if time.perf_counter() > deadline:
            raise _PastCap

    began_cpu = time.process_time()
    try:
        grid, tours, took, work, complete = count(engine, rows, cols, budget, progress)
    except _PastCap:
        return {"status": STOPPED, "why": f"stopped at its time cap of {seconds:g} s"}
    except InvalidArgument as refusal:  # the DP's memory projection, say
        return {"status": REFUSED, "why": str(refusal)}
    if not complete:
        return {"status": STOPPED, "why": f"a work unit hit the node budget of {budget:,}"}
    return {
        "status": DONE,
        "grid": grid,
        "tours": tours,
        "seconds": took,
        "cpu_seconds": time.process_time() - began_cpu,
        "work": work,
    }


def warm_up(cluster_sizes=()):
    """Compile (or load from Numba's cache) every engine, and start the
    clusters of ``cluster_sizes``; the seconds taken."""
    began = time.perf_counter()
    for engine in SINGLE_PROCESS_ENGINES:
        count(engine, 3, 4, 10**6)
    start_clusters(cluster_sizes)
    return time.perf_counter() - began


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    sizes = [int(size) for size in argv[0].split(",")] if argv else []
    try:
        print(json.dumps({"warm_up_seconds": warm_up(sizes)}), flush=True)
        for line in sys.stdin:
            print(json.dumps(answer(**json.loads(line))), flush=True)
    except _Orphaned:
        pass  # the scratch folder is the next study's to remove, its maker being dead
    finally:
        close_clusters()


class Worker(CappedWorker):
    """The counting study's handle on its worker process (a ``CappedWorker``
    of this module): ``count`` asks for one count, and a worker that has
    not answered ``GRACE`` after its cap is killed, the next count starting
    a fresh one. ``clusters``: the sizes of the loopback clusters it starts
    while it warms up, for the cluster engines."""

    def __init__(self, python=sys.executable, clusters=(), module="bench.studies.counts.count_worker"):
        super().__init__(module, python, clusters)

    def count(self, engine, rows, cols, seconds, budget=None):
        request = {"engine": engine, "rows": rows, "cols": cols, "seconds": seconds, "budget": budget}
        answered = self.ask(request, seconds + GRACE)
        if answered is None:
            return {"status": STOPPED, "why": f"killed {GRACE:g} s past its time cap of {seconds:g} s"}
        return answered


if __name__ == "__main__":
    run_worker(main)
