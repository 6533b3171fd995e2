"""This module splits a count's ``Job`` into work units, counts them and adds them up as a ``Tally``.

The units run on the job's executor, and each finished unit is recorded in
the resume file."""

import time

from knight.counting.dfs import dfs_kernels
from knight.counting.dfs.executors import dask_executor, local_executor
from knight.counting.dfs.unit_count import count_unit, stop_signal
from knight.counting.dfs.unit_runner import run_units
from knight.counting.dfs.unit_split import split_units
from knight.counting.dfs.unit_store import UnitStore
from knight.counting.jobs import Tally
from knight.geometry.neighbours import neighbour_table
from knight.result import Progress
from knight.runtime import status


def count_by_dfs(job, progress=None):
    """The DFS engine: plan ``job``'s work units, count them on its
    executor (recording them in its resume file), add them up."""
    # compile (or load) before the clock starts: the unit kernel, and the
    # probes that size the automatic split
    count_unit(3, 4, False, job.pruned, 10, [0])
    dfs_kernels.probe_tree(neighbour_table(3, 4), 0, False, job.pruned, 1, 0)
    executor = local_executor(job.workers) if job.scheduler is None else dask_executor(job.scheduler)
    began = time.perf_counter()
    stop = stop_signal()
    try:
        plan = split_units(job, stop)
        # the budget is part of what a unit's answer means: a unit stopped
        # by a budget of 10^5 must not stand in for one run to 10^12
        store = None if job.resume is None else UnitStore.open(job.resume, {**plan.header(), "budget": job.budget})
    except BaseException:
        executor.shutdown(wait=False)  # a Dask client's connection included
        raise
    try:
        results = run_units(plan, executor, job.budget, store, _told(progress), stop)
    finally:
        if store is not None:
            store.close()
    return totals(plan, results, time.perf_counter() - began)


def _told(progress):
    """The units' progress ``(done, total)`` handed on as a ``Progress``."""
    return None if progress is None else lambda done, total: progress(Progress(done, total))


def totals(plan, results, seconds=0.0):
    """Add each start's units to its search above the cut: the ``Tally``."""
    tours = {s: plan.above[s][1] for s in plan.classes}
    nodes = {s: plan.above[s][2] for s in plan.classes}
    complete = {s: plan.above[s][0] != status.BUDGET for s in plan.classes}
    for index, prefix in enumerate(plan.units):
        code, found, placed = results[index]
        start = int(prefix[0])
        tours[start] += found
        nodes[start] += placed
        complete[start] = complete[start] and code not in (status.BUDGET, status.STOPPED)
    return Tally(tours, nodes, complete, seconds, plan.depth, len(plan.units))
