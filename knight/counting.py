"""Counting every tour: the one road a count takes, and its DFS engine.

``count_tours`` is ``prepare`` then ``run``. ``prepare`` validates the
arguments and plans the starts once (``Starts``: one start per symmetry
class; the starts colour parity rules out). ``run`` hands that ``Job`` to an
engine, which returns each searched start's tours and work (``Tally``), and
maps the answer back onto every square (``Count``). The projection the
command line prints before a long count (``knight.estimate``) reads the same
``Job``.

The DFS engine splits a count into work units (``plan``): each searched
start's search cut at a fixed depth, every prefix at that depth a unit
counted on its own by ``count_unit``. Units run on a local thread pool (the
kernels release the GIL) or on any ``concurrent.futures`` executor, a Dask
cluster's included; ``UnitStore`` records finished ones so that a run can
resume. The sums are exact whatever the split. Each count has its own stop
signal, so two counts in one process never stop each other.
"""

import concurrent.futures
import os
import time
from dataclasses import dataclass

import numpy as np

from knight import count_kernels, dask_client, status, theory, validate
from knight.board import neighbour_table
from knight.errors import InvalidArgument
from knight.result import Count
from knight.symmetry import symmetry_classes
from knight.unit_store import UnitStore
from knight.validate import DEFAULT_COUNT_BUDGET

# the default split: the shallowest cut with at least DEFAULT_UNITS units,
# and enough that an average unit (by a seeded Knuth estimate of the tree)
# places at most UNIT_NODES nodes, about half a second: Ctrl-C loses little
# and progress moves. Independent of the machine, so that a resume file made
# on one matches the plan on another.
DEFAULT_UNITS = 1000
UNIT_NODES = 1 << 24
_PLAN_PROBES = 2000
DASK_CONNECT_SECONDS = 5
# how long a count waits for a scheduler with no workers to get one
DASK_WORKER_SECONDS = 30

_NO_CUT = -1
# Units go to the executor in batches sized to run about BATCH_SECONDS each
# (from the last batch's time; the first is one unit): one task per unit
# cost some 0.1 ms of pool overhead each, which on the plain 5x5 count
# (2,800 units of 14,000 nodes) was a third of its CPU time. Short enough
# that progress moves and Ctrl-C loses little.
BATCH_SECONDS = 0.05
MAX_BATCH = 1024


def stop_signal():
    """A fresh stop signal for one count: raise it (``signal[0] = 1``) and
    the kernels counting that count's units give up within about a million
    nodes, with status ``STOPPED``."""
    return np.zeros(1, dtype=np.uint8)


@dataclass(frozen=True)
class Starts:
    """The start squares of a count, planned once: ``classes`` maps each
    representative to the squares sharing its count (its symmetry class, or
    itself alone); ``excluded`` holds the representatives colour parity
    rules out (no tour starts there)."""

    classes: dict
    excluded: frozenset

    def searched(self, pruned):
        """The representatives a count searches: a pruned count skips those
        parity excludes; a plain one searches them too, node for node."""
        return [s for s in self.classes if not (pruned and s in self.excluded)]


def plan_starts(rows, cols, starts, symmetry=True):
    """``Starts`` of a count from ``starts`` (0-based squares)."""
    classes = symmetry_classes(rows, cols, starts) if symmetry else {int(s): [int(s)] for s in starts}
    excluded = frozenset(s for s in classes if theory.parity_excludes(rows, cols, s))
    return Starts(classes, excluded)


@dataclass(frozen=True)
class Job:
    """A validated count, its starts planned: what an engine is handed.
    ``start`` is the one 0-based ``(row, col)`` asked for, or None for every
    square; ``depth``, ``workers``, ``scheduler`` and ``resume`` are the
    DFS engine's (see ``count_tours``)."""

    rows: int
    cols: int
    start: tuple | None
    closed: bool
    budget: int
    method: str
    pruned: bool
    starts: Starts
    depth: int | None = None
    workers: int | None = None
    scheduler: str | None = None
    resume: str | None = None

    @property
    def searched(self):
        return self.starts.searched(self.pruned)


@dataclass(frozen=True)
class Tally:
    """An engine's answer, per searched start: ``tours``, ``nodes`` (its
    work) and whether every part of its search finished (``complete``);
    ``seconds`` of wall time, compilation excluded; ``depth`` and ``units``:
    how the DFS engine split the work (0 for an engine that does not)."""

    tours: dict
    nodes: dict
    complete: dict
    seconds: float
    depth: int = 0
    units: int = 0
    work: dict | None = None  # an engine's own measures of work, as Count fields


def count_tours(rows, cols, start=None, closed=False, budget=None, progress=None, *, method=None, pruned=True,
                symmetry=True, depth=None, workers=None, scheduler=None, resume=None):
    """Count every tour (directed: a path and its reverse are two) from
    ``start``, or from every start square when ``start`` is None.

    ``method`` names the engine (``ENGINES``): ``dfs``, the exhaustive
    search described below, or ``dp``, the frontier dynamic program of
    ``knight.frontier`` (same counts, no enumeration; it takes ``start``,
    ``closed``, ``resume`` and ``progress``, called with ``(steps done,
    steps in all, states held)``). None or ``auto``: the one expected to
    finish first on this board (``choose_method``).
    ``pruned`` cuts branches that provably cannot finish a tour (same
    counts, far fewer nodes); ``symmetry`` searches one start per class of
    symmetric squares. The search is split into work units at ``depth``
    moves from the start (None: an automatic cut; 0: one unit per start),
    run on ``workers`` local threads (default all cores) or on the Dask
    cluster whose scheduler is at ``scheduler``. ``resume`` names a file
    recording finished units; units already there are not run again. Each
    work unit places at most ``budget`` nodes (default
    ``DEFAULT_COUNT_BUDGET``). ``progress``, if given, is called with
    ``(units finished, units in all)``. Returns a ``Count``.
    """
    job = prepare(rows, cols, start, closed, budget, method=method, pruned=pruned, symmetry=symmetry, depth=depth,
                  workers=workers, scheduler=scheduler, resume=resume)
    if progress is not None and not callable(progress):
        raise InvalidArgument(f"progress must be a function or None, got {validate.shown(progress)}")
    return run(job, progress)


def prepare(rows, cols, start=None, closed=False, budget=None, *, method=None, pruned=True, symmetry=True,
            depth=None, workers=None, scheduler=None, resume=None):
    """Validate a count's arguments (as ``count_tours`` takes them) and plan
    its starts: the ``Job`` that ``run`` counts."""
    rows, cols = validate.board(rows, cols)
    closed, pruned, symmetry = (validate.flag(value, name) for value, name in
                                ((closed, "closed"), (pruned, "pruned"), (symmetry, "symmetry")))
    method = choose_method(rows, cols, method, pruned=pruned, symmetry=symmetry, depth=depth, workers=workers,
                           scheduler=scheduler, budget=budget, closed=closed)
    # the DP places no nodes: it has no budget
    budget = 0 if method == "dp" else validate.budget(budget, DEFAULT_COUNT_BUDGET)
    validate.fits_in_memory(rows, cols, "count")
    from knight import frontier

    if method == "dp":
        frontier.check_fits(rows, cols, validate.available_memory(), closed)
    if start is not None:
        start = validate.start(rows, cols, start)
    if depth is not None:
        depth = validate.integer(depth, "depth", minimum=0, maximum=rows * cols - 1)
    workers = validate.workers(workers)
    if scheduler is not None:
        scheduler = dask_client.address(scheduler)
    if resume is not None:
        # a path that cannot be one, or a stranger's file, is refused before
        # the minutes of planning; the lock and the count's header after
        resume = frontier.Checkpoint.check(resume) if method == "dp" else UnitStore.check(resume)
    squares = range(rows * cols) if start is None else [start[0] * cols + start[1]]
    return Job(
        rows,
        cols,
        start,
        bool(closed),
        budget,
        method,
        bool(pruned),
        plan_starts(rows, cols, squares, symmetry),
        depth,
        workers,
        scheduler,
        resume,
    )


def run(job, progress=None):
    """Count ``job`` with its engine; the ``Count``, every square of a
    symmetry class given its representative's tours."""
    tally = ENGINES[job.method](job, progress)
    n = job.rows * job.cols
    # the DP counts past int64 on long boards: Python integers then
    big = any(value >= 2**63 for value in tally.tours.values())
    tours = np.zeros(n, dtype=object if big else np.int64)
    nodes = np.zeros(n, dtype=np.int64)
    for searched, members in job.starts.classes.items():
        tours[members] = tally.tours[searched]
        nodes[searched] = tally.nodes[searched]
    if job.start is None:
        tours, nodes = tours.reshape(job.rows, job.cols), nodes.reshape(job.rows, job.cols)
    else:
        square = job.start[0] * job.cols + job.start[1]
        tours, nodes = int(tours[square]), int(nodes[square])
    complete = all(tally.complete.values())
    return Count(job.rows, job.cols, job.start, job.closed, job.budget, tours, nodes, complete, tally.seconds,
                 pruned=job.pruned, depth=tally.depth, units=tally.units, method=job.method, **(tally.work or {}))


def count_by_dfs(job, progress=None):
    """The DFS engine: plan ``job``'s work units, count them on its
    executor (recording them in its resume file), add them up."""
    # compile (or load) before the clock starts: the unit kernel, and the
    # probes that size the automatic split
    count_unit(3, 4, False, job.pruned, 10, [0])
    count_kernels.probe_tree(neighbour_table(3, 4), 0, False, job.pruned, 1, 0)
    executor = local_executor(job.workers) if job.scheduler is None else dask_executor(job.scheduler)
    began = time.perf_counter()
    stop = stop_signal()
    try:
        plan_ = plan(job, stop)
        # the budget is part of what a unit's answer means: a unit stopped
        # by a budget of 10^5 must not stand in for one run to 10^12
        store = None if job.resume is None else UnitStore.open(job.resume, {**plan_.header(), "budget": job.budget})
    except BaseException:
        executor.shutdown(wait=False)  # a Dask client's connection included
        raise
    try:
        results = run_units(plan_, executor, job.budget, store, progress, stop)
    finally:
        if store is not None:
            store.close()
    return totals(plan_, results, time.perf_counter() - began)


def count_by_dp(job, progress=None):
    """The frontier dynamic program's engine (``knight.frontier``)."""
    from knight import frontier

    return frontier.count_job(job, progress)


# the engines ``count_tours(method=...)`` can run: each takes a ``Job`` and
# an optional progress callback and returns a ``Tally``
ENGINES = {"dfs": count_by_dfs, "dp": count_by_dp}

# Measured crossover (per-start grids, `seconds`, medians of 3-5, the
# 2-core machine quiet, 2026-12-01; docs/counting-dp.md): with a side of
# 3 or 4 the DFS finishes first up to 30 squares (4x7: 0.023 s against
# the DP's 0.068; 3x10: 0.032 / 0.048), 3x11 is a tie and the DP wins from
# 4x8 (0.078 / 0.062) and 3x12; with both sides 5 or more the DFS wins up to
# 36 (6x6: 0.77 / 1.39 s; 5x7: 0.27 / 0.34) and the DP from 5x8 (7.9 /
# 1.27 s): past those the DFS's tree grows by a factor per column and the
# DP's work only linearly.
DFS_SQUARES_AT_MOST = 36
DFS_NARROW_SQUARES_AT_MOST = 30


def choose_method(rows, cols, method=None, *, pruned=True, symmetry=True, depth=None, workers=None,
                  scheduler=None, budget=None, closed=False):
    """The engine for a count: ``method`` checked, or (None, ``auto``) the
    one expected to finish first. Options only the DFS has are refused
    with ``dp``, and make ``auto`` pick the DFS."""
    method = validate.choice("auto" if method is None else method, "count method", ("auto", *ENGINES))
    dfs_only = {
        "plain (pruned=False)": not pruned,
        "symmetry=False": not symmetry,
        "depth": depth is not None,
        "workers": workers is not None,
        "scheduler": scheduler is not None,
        "budget": budget is not None,
    }
    asked = [name for name, given in dfs_only.items() if given]
    if method == "dp" and asked:
        them = "it" if len(asked) == 1 else "them"
        raise InvalidArgument(f"{', '.join(asked)}: only the dfs count takes {them}, not --method dp")
    if method != "auto":
        return method
    if asked:
        return "dfs"
    limit = DFS_NARROW_SQUARES_AT_MOST if min(rows, cols) <= 4 else DFS_SQUARES_AT_MOST
    if rows * cols <= limit:
        return "dfs"
    from knight import frontier

    try:
        frontier.check_fits(rows, cols, validate.available_memory(), closed)
    except InvalidArgument:
        return "dfs"  # slow, but the DP could not run at all
    return "dp"


def count_unit(rows, cols, closed, pruned, budget, prefix, stop=None):
    """Count one work unit: the subtree below ``prefix`` (a list of
    squares), giving up if ``stop`` (a ``stop_signal``) is raised. Returns
    ``(status, tours, nodes)``. Plain data in and out, so it runs on any
    executor, a remote Dask worker's included."""
    prefix = np.asarray(prefix, dtype=np.int32)
    units = np.zeros((0, 1), dtype=np.int32)
    stop = stop_signal() if stop is None else stop
    code, tours, nodes, _ = count_kernels.count_subtree(
        neighbour_table(rows, cols), prefix, bool(closed), bool(pruned), budget, _NO_CUT, units, stop
    )
    return int(code), int(tours), int(nodes)


@dataclass(frozen=True)
class Plan:
    """A count split into work units.

    ``classes`` maps each start to the squares that share its count;
    ``above`` holds, per start, the status, tours and nodes of its search
    above the cut (nothing for a start the count does not search);
    ``units`` are the prefixes at the cut (an array, one row of
    ``depth + 1`` squares per unit, the start first).
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


def _cut(job, start, depth, capacity, stop):
    """The search from ``start`` cut at ``depth``: ``(status, tours, nodes,
    found, units)``; ``units`` holds at most ``capacity`` of the ``found``."""
    units = np.zeros((capacity, depth + 1), dtype=np.int32)
    prefix = np.array([start], dtype=np.int32)
    code, tours, nodes, found = count_kernels.count_subtree(
        neighbour_table(job.rows, job.cols), prefix, job.closed, job.pruned, job.budget, depth, units, stop
    )
    return int(code), int(tours), int(nodes), int(found), units


def _units_at(job, depth, stop):
    starts = job.searched
    if depth == 0:
        return {s: (status.NONE, 0, 0) for s in starts}, np.array(starts, dtype=np.int32).reshape(-1, 1)
    above, units = {}, [np.zeros((0, depth + 1), dtype=np.int32)]
    for start in starts:
        found = _cut(job, start, depth, 0, stop)[3]
        code, tours, nodes, _, rows_found = _cut(job, start, depth, found, stop)
        above[start] = (code, tours, nodes)
        units.append(rows_found)
    # one array, not lists: a 7x7 count has about a million units
    return above, np.concatenate(units)


def _auto_depth(job, stop):
    """The shallowest cut giving enough units (see ``UNIT_NODES``), else
    (a small tree) the cut giving the most."""
    neighbours = neighbour_table(job.rows, job.cols)
    starts = job.searched
    nodes = sum(count_kernels.probe_tree(neighbours, s, job.closed, job.pruned, _PLAN_PROBES, s)[0] for s in starts)
    wanted = max(DEFAULT_UNITS, nodes / UNIT_NODES)
    most, best = 0, 0
    for depth in range(1, job.rows * job.cols):
        found = sum(_cut(job, s, depth, 0, stop)[3] for s in starts)
        if found >= wanted:
            return depth
        if found > most:
            most, best = found, depth
    return best


def plan(job, stop=None):
    """Split ``job``'s count into work units (see ``Plan``); its ``depth``
    None picks the shallowest cut with ``DEFAULT_UNITS`` units."""
    stop = stop_signal() if stop is None else stop
    depth = _auto_depth(job, stop) if job.depth is None else job.depth
    above, units = _units_at(job, depth, stop)
    for start in job.starts.classes:
        above.setdefault(start, (status.NONE, 0, 0))
    return Plan(job.rows, job.cols, job.closed, job.pruned, depth, job.starts.classes, above, units)


def local_executor(workers=None):
    """A thread pool over this machine's cores: the kernels release the GIL."""
    workers = workers or len(os.sched_getaffinity(0))
    return concurrent.futures.ThreadPoolExecutor(max_workers=workers)


def dask_executor(address):
    """An executor on the Dask cluster whose scheduler is at ``address``."""
    return _DaskExecutor(dask_client.connect(address, DASK_CONNECT_SECONDS, DASK_WORKER_SECONDS))


class _DaskExecutor:
    """The client's concurrent.futures executor; shutting it down also
    closes the connection."""

    def __init__(self, client):
        self.client = client
        self._executor = client.get_executor()
        self.workers = max(1, sum(client.nthreads().values()))

    def submit(self, fn, *args):
        return self._executor.submit(fn, *args)

    def shutdown(self, wait=True, cancel_futures=False):
        self._executor.shutdown(wait=wait)
        self.client.close()


def count_units(rows, cols, closed, pruned, budget, prefixes, stop=None):
    """``count_unit`` of each prefix in turn, as one task: returns the
    answers (fewer, if ``stop`` is raised meanwhile) and the seconds taken."""
    began = time.perf_counter()
    stop = stop_signal() if stop is None else stop
    answers = []
    for prefix in prefixes:
        if stop[0]:
            break
        answers.append(count_unit(rows, cols, closed, pruned, budget, prefix, stop))
    return answers, time.perf_counter() - began


def _parallelism(executor):
    """How many tasks ``executor`` runs at once, as far as it says."""
    return getattr(executor, "workers", None) or getattr(executor, "_max_workers", None) or os.cpu_count() or 1


def _next_batch(answers, seconds):
    """Units per task that take about ``BATCH_SECONDS``, going by the last task."""
    if seconds <= 0:
        return MAX_BATCH
    return max(1, min(MAX_BATCH, int(BATCH_SECONDS * answers / seconds)))


def run_units(plan_, executor, budget, store=None, progress=None, stop=None):
    """Count every unit of ``plan_`` not already in ``store`` on
    ``executor``, in batches of about ``BATCH_SECONDS`` each; record each
    unit in ``store`` as its batch finishes. Returns ``{unit index:
    (status, tours, nodes)}``. On any exception (Ctrl-C among them)
    ``stop`` (this count's ``stop_signal``) is raised: units in flight give
    up and are lost; every unit that finished is recorded."""
    stop = stop_signal() if stop is None else stop
    results = dict(store.finished) if store is not None else {}
    total = len(plan_.units)
    if progress is not None:
        progress(len(results), total)

    def keep(indices, answers):
        # a batch that saw the stop signal answers for fewer units, the
        # last of them perhaps STOPPED: neither those nor the rest are kept
        for index, answer in zip(indices, answers, strict=False):
            if answer[0] != status.STOPPED:
                results[index] = answer
                if store is not None:
                    store.record(index, plan_.units[index].tolist(), *answer)

    todo = [index for index in range(total) if index not in results]
    in_flight = 2 * _parallelism(executor)
    pending = {}
    position, batch = 0, 1
    try:
        while position < len(todo) or pending:
            while position < len(todo) and len(pending) < in_flight:
                indices = todo[position:position + batch]
                position += len(indices)
                prefixes = [plan_.units[index].tolist() for index in indices]
                future = executor.submit(
                    count_units, plan_.rows, plan_.cols, plan_.closed, plan_.pruned, budget, prefixes, stop
                )
                pending[future] = indices
            done, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                answers, seconds = future.result()
                keep(pending.pop(future), answers)
                batch = _next_batch(len(answers), seconds)
                if progress is not None:
                    progress(len(results), total)
    except BaseException:
        stop[0] = 1
        for future in pending:
            future.cancel()
        executor.shutdown(wait=True, cancel_futures=True)
        # units that finished while the loop was away, or before the stop
        # reached them, are as good as any: keep them for --resume
        for future, indices in pending.items():
            if not future.done() or future.cancelled() or future.exception() is not None:
                continue
            keep(indices, future.result()[0])
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
    return results


def totals(plan_, results, seconds=0.0):
    """Add each start's units to its search above the cut: the ``Tally``."""
    tours = {s: plan_.above[s][1] for s in plan_.classes}
    nodes = {s: plan_.above[s][2] for s in plan_.classes}
    complete = {s: plan_.above[s][0] != status.BUDGET for s in plan_.classes}
    for index, prefix in enumerate(plan_.units):
        code, found, placed = results[index]
        start = int(prefix[0])
        tours[start] += found
        nodes[start] += placed
        complete[start] = complete[start] and code not in (status.BUDGET, status.STOPPED)
    return Tally(tours, nodes, complete, seconds, plan_.depth, len(plan_.units))
