"""Exhaustive counts at scale: symmetry classes, work units, executors.

A count is planned as work units (``plan``): one start square per symmetry
class, each start's search cut at a fixed depth, every prefix at that depth
a unit counted on its own by ``count_unit``. Units run on a local thread
pool (the kernels release the GIL) or on any ``concurrent.futures``
executor, a Dask cluster's included; ``UnitStore`` records finished ones so
that a run can resume. The sums are exact whatever the split.
"""

import concurrent.futures
import functools
import os
import time
from dataclasses import dataclass

import numpy as np

from knight import count_kernels, dask_client, kernels
from knight.board import neighbour_table
from knight.errors import InvalidArgument
from knight.unit_store import UnitStore

# the default split: the shallowest cut with at least DEFAULT_UNITS units,
# and enough that an average unit (by a seeded Knuth estimate of the tree)
# places at most UNIT_NODES nodes, about half a second: Ctrl-C loses little
# and progress moves. Independent of the machine, so that a resume file made
# on one matches the plan on another.
DEFAULT_UNITS = 1000
UNIT_NODES = 1 << 24
_PLAN_PROBES = 2000
DASK_CONNECT_SECONDS = 5

_NO_CUT = -1
# set on Ctrl-C: kernels running on local threads poll it and stop early
_STOP = np.zeros(1, dtype=np.uint8)


def _symmetries(rows, cols):
    """The board's symmetries as maps of ``(row, col)``: the dihedral group
    of the rectangle (4 maps), or of the square (8)."""
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (rows - 1 - r, c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
    ]
    if rows == cols:
        maps += [lambda r, c, m=m: m(c, r) for m in maps]
    return maps


def symmetry_classes(rows, cols, starts):
    """Group ``starts`` (0-based squares) into classes the board's
    symmetries map onto each other; returns ``{representative: members}``
    with the smallest square as representative. A symmetry maps the tours
    from one start one-to-one onto the tours from its image, so every
    member has the representative's count."""
    wanted = set(int(s) for s in starts)
    classes = {}
    for square in sorted(wanted):
        row, col = divmod(square, cols)
        images = {r * cols + c for r, c in (m(row, col) for m in _symmetries(rows, cols))}
        representative = min(images)
        if representative not in wanted:
            # only part of a class was asked for: search this square itself
            representative = square
        classes.setdefault(representative, []).append(square)
    return classes


def parity_excludes(rows, cols, square):
    """A knight changes colour every move, so on a board of an odd number
    of squares a tour starts on the majority colour (the corner's): a
    search from the other colour would find nothing (see theory.py)."""
    row, col = divmod(square, cols)
    return (rows * cols) % 2 == 1 and (row + col) % 2 == 1


@functools.lru_cache(maxsize=16)
def neighbour_table_of(rows, cols):
    table = neighbour_table(rows, cols)
    table.setflags(write=False)
    return table


def count_unit(rows, cols, closed, pruned, budget, prefix):
    """Count one work unit: the subtree below ``prefix`` (a list of
    squares). Returns ``(status, tours, nodes)``. Plain data in and out, so
    it runs on any executor, a remote Dask worker's included."""
    prefix = np.asarray(prefix, dtype=np.int32)
    units = np.zeros((0, 1), dtype=np.int32)
    status, tours, nodes, _ = count_kernels.count_subtree(
        neighbour_table_of(rows, cols), prefix, bool(closed), bool(pruned), budget, _NO_CUT, units, _STOP
    )
    return int(status), int(tours), int(nodes)


@dataclass(frozen=True)
class Plan:
    """A count split into work units.

    ``classes`` maps each searched start to the squares that share its
    count; ``above`` holds, per searched start, the status, tours and nodes
    of its search above the cut; ``units`` are the prefixes at the cut (an
    array, one row of ``depth + 1`` squares per unit, the start first).
    """

    rows: int
    cols: int
    closed: bool
    pruned: bool
    depth: int
    classes: dict
    above: dict
    units: list

    def header(self):
        """What identifies this plan in a resume file."""
        return {
            "rows": self.rows,
            "cols": self.cols,
            "closed": self.closed,
            "pruned": self.pruned,
            "depth": self.depth,
            "starts": sorted(self.classes),
            "units": len(self.units),
        }


def _cut(rows, cols, start, closed, pruned, depth, budget, capacity):
    """The search from ``start`` cut at ``depth``: ``(status, tours, nodes,
    found, units)``; ``units`` holds at most ``capacity`` of the ``found``."""
    units = np.zeros((capacity, depth + 1), dtype=np.int32)
    prefix = np.array([start], dtype=np.int32)
    status, tours, nodes, found = count_kernels.count_subtree(
        neighbour_table_of(rows, cols), prefix, closed, pruned, budget, depth, units, _STOP
    )
    return int(status), int(tours), int(nodes), int(found), units


def _units_at(rows, cols, starts, closed, pruned, depth, budget):
    if depth == 0:
        return {s: (kernels.NONE, 0, 0) for s in starts}, np.array(starts, dtype=np.int32).reshape(-1, 1)
    above, units = {}, [np.zeros((0, depth + 1), dtype=np.int32)]
    for start in starts:
        _, _, _, found, _ = _cut(rows, cols, start, closed, pruned, depth, budget, 0)
        status, tours, nodes, _, rows_found = _cut(rows, cols, start, closed, pruned, depth, budget, found)
        above[start] = (status, tours, nodes)
        units.append(rows_found)
    # one array, not lists: a 7x7 count has about a million units
    return above, np.concatenate(units)


def _auto_depth(rows, cols, starts, closed, pruned, budget):
    """The shallowest cut giving enough units (see ``UNIT_NODES``), else
    (a small tree) the cut giving the most."""
    neighbours = neighbour_table_of(rows, cols)
    nodes = sum(count_kernels.probe_tree(neighbours, s, closed, pruned, _PLAN_PROBES, s)[0] for s in starts)
    wanted = max(DEFAULT_UNITS, nodes / UNIT_NODES)
    most, best = 0, 0
    for depth in range(1, rows * cols):
        found = sum(_cut(rows, cols, s, closed, pruned, depth, budget, 0)[3] for s in starts)
        if found >= wanted:
            return depth
        if found > most:
            most, best = found, depth
    return best


def plan(rows, cols, starts, closed, pruned, depth=None, symmetry=True, budget=10**12):
    """Split the count from ``starts`` into work units (see ``Plan``);
    ``depth`` None picks the shallowest cut with ``DEFAULT_UNITS`` units."""
    if symmetry:
        classes = symmetry_classes(rows, cols, starts)
    else:
        classes = {int(s): [int(s)] for s in starts}
    searched = [s for s in classes if not (pruned and parity_excludes(rows, cols, s))]
    if depth is None:
        depth = _auto_depth(rows, cols, searched, closed, pruned, budget)
    above, units = _units_at(rows, cols, searched, closed, pruned, depth, budget)
    for start in classes:
        above.setdefault(start, (kernels.NONE, 0, 0))
    return Plan(rows, cols, bool(closed), bool(pruned), depth, classes, above, units)


def local_executor(workers=None):
    """A thread pool over this machine's cores: the kernels release the GIL."""
    workers = workers or len(os.sched_getaffinity(0))
    return concurrent.futures.ThreadPoolExecutor(max_workers=workers)


def dask_executor(address):
    """An executor on the Dask cluster whose scheduler is at ``address``."""
    return _DaskExecutor(dask_client.connect(address, DASK_CONNECT_SECONDS))


class _DaskExecutor:
    """The client's concurrent.futures executor; shutting it down also
    closes the connection."""

    def __init__(self, client):
        self.client = client
        self._executor = client.get_executor()

    def submit(self, fn, *args):
        return self._executor.submit(fn, *args)

    def shutdown(self, wait=True, cancel_futures=False):
        self._executor.shutdown(wait=wait)
        self.client.close()


def run_units(plan_, executor, budget, store=None, progress=None):
    """Count every unit of ``plan_`` not already in ``store`` on
    ``executor``; record each in ``store`` as it finishes. Returns
    ``{unit index: (status, tours, nodes)}``. On Ctrl-C, units in flight
    are stopped and lost; every unit that finished is recorded."""
    results = dict(store.finished) if store is not None else {}
    total = len(plan_.units)
    if progress is not None:
        progress(len(results), total)
    pending = {}
    _STOP[0] = 0
    try:
        for index, prefix in enumerate(plan_.units):
            if index not in results:
                future = executor.submit(
                    count_unit, plan_.rows, plan_.cols, plan_.closed, plan_.pruned, budget, prefix.tolist()
                )
                pending[future] = index
        for future in concurrent.futures.as_completed(pending):
            index = pending[future]
            results[index] = future.result()
            if store is not None:
                store.record(index, plan_.units[index].tolist(), *results[index])
            if progress is not None:
                progress(len(results), total)
    except BaseException:
        _STOP[0] = 1
        for future in pending:
            future.cancel()
        executor.shutdown(wait=True, cancel_futures=True)
        # units that finished while the loop was away, or before the stop
        # reached them, are as good as any: keep them for --resume
        for future, index in pending.items():
            if index in results or not future.done() or future.cancelled() or future.exception() is not None:
                continue
            answer = future.result()
            if answer[0] != count_kernels.STOPPED:
                results[index] = answer
                if store is not None:
                    store.record(index, plan_.units[index].tolist(), *answer)
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
        _STOP[0] = 0
    return results


@dataclass(frozen=True)
class Totals:
    """Per searched start: tours, nodes, and whether every part finished."""

    tours: dict
    nodes: dict
    complete: dict


def totals(plan_, results):
    """Add each start's units to its search above the cut."""
    tours = {s: plan_.above[s][1] for s in plan_.classes}
    nodes = {s: plan_.above[s][2] for s in plan_.classes}
    complete = {s: plan_.above[s][0] != kernels.BUDGET for s in plan_.classes}
    for index, prefix in enumerate(plan_.units):
        status, found, placed = results[index]
        start = int(prefix[0])
        tours[start] += found
        nodes[start] += placed
        complete[start] = complete[start] and status not in (kernels.BUDGET, count_kernels.STOPPED)
    return Totals(tours, nodes, complete)


def count(rows, cols, starts, closed=False, pruned=True, symmetry=True, depth=None, budget=10**12,
          executor=None, resume=None, progress=None):
    """Plan, run and add up a count; returns ``(plan, totals, seconds)``,
    ``seconds`` being the wall time of planning and running."""
    began = time.perf_counter()
    plan_ = plan(rows, cols, starts, closed, pruned, depth, symmetry, budget)
    # the budget is part of what a unit's answer means: a unit stopped by a
    # budget of 10^5 must not stand in for one run to 10^12
    store = None if resume is None else UnitStore.open(resume, {**plan_.header(), "budget": budget})
    try:
        results = run_units(plan_, executor or local_executor(), budget, store, progress)
    finally:
        if store is not None:
            store.close()
    return plan_, totals(plan_, results), time.perf_counter() - began
