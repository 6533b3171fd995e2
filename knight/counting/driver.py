"""Counting every tour: the one road a count takes, whichever engine, and
the command line's one door into counting.

``count_tours`` is ``prepare`` then ``count_prepared``; ``count_total`` is
``prepare`` then ``total_prepared``. ``prepare`` validates the arguments,
picks the engine (``choose_method``: the ``auto`` policy, the DP's fit
within ``memory_room`` checked once) and plans the starts once
(``jobs.Starts``: one start per symmetry class; the starts colour parity
rules out; none for a total). ``count_prepared`` hands that ``Job`` to an
engine (``ENGINES``: ``dfs``, the split exhaustive search of
``knight.counting.dfs``, or ``dp``, the frontier dynamic program of
``knight.counting.dp``), which returns each searched start's tours and work
(``jobs.Tally``), and maps the answer back onto every square (``Count``);
``total_prepared`` is the DP's total over every start, from one run.
What a count will take, read from the same ``Job``: ``estimate`` (the
DFS's trees, Knuth's probes) and ``dp_projection`` (the DP's peak).
"""

import math

import numpy as np

from knight import validate
from knight.counting.cluster.dask_client import address
from knight.counting.dfs.dfs_engine import count_by_dfs
from knight.counting.dfs.tree_estimate import DEFAULT_PROBES, estimate_count
from knight.counting.dfs.unit_store import UnitStore
from knight.counting.dp.engine import (
    checkpoint_kind,
    count_by_dp,
    every_width,
    reporter,
    total_timed,
    total_tours,
    width_boards,
)
from knight.counting.dp.memory_model import check_fits, projection
from knight.counting.jobs import Job, Starts, plan_starts
from knight.counting.peak_sampler import PeakSampler
from knight.errors import InvalidArgument
from knight.exit_status import signals_raised_as_such
from knight.geometry import theory
from knight.result import Count
from knight.runtime import machine
from knight.validate import DEFAULT_COUNT_BUDGET


@signals_raised_as_such
def count_tours(
    rows,
    cols,
    start=None,
    closed=False,
    budget=None,
    progress=None,
    *,
    method=None,
    pruned=True,
    symmetry=True,
    depth=None,
    workers=None,
    scheduler=None,
    resume=None,
    memory=None,
    disk=None,
):
    """Count every tour (directed: a path and its reverse are two) from
    ``start``, or from every start square when ``start`` is None.

    ``method`` names the engine (``ENGINES``): ``dfs``, the exhaustive
    search described below, or ``dp``, the frontier dynamic program of
    ``knight.counting.dp`` (same counts, no enumeration; it takes ``start``,
    ``closed``, ``resume`` and ``progress``, called with ``(steps done,
    steps in all, states held)``, and on a cluster also ``rates=``, each
    worker's transitions a second, if it takes a ``rates`` keyword). None or ``auto``: the one expected to
    finish first on this board (``choose_method``).
    ``pruned`` cuts branches that provably cannot finish a tour (same
    counts, far fewer nodes); ``symmetry`` searches one start per class of
    symmetric squares. The search is split into work units at ``depth``
    moves from the start (None: an automatic cut; 0: one unit per start),
    run on ``workers`` local threads (default all cores) or on the Dask
    cluster whose scheduler is at ``scheduler`` (the DP too, with
    ``method="dp"``: its steps' tables partitioned over the workers). ``resume`` names a file
    recording finished units; units already there are not run again.
    ``memory``: the DP's budget in bytes of memory it may hold (default:
    most of what is free); steps past it run out of core, on disk.
    ``disk``: the DP's budget in bytes of the spill folder's disk (default:
    its free space). A DP count whose projected peak fits neither is
    refused before it starts. Each
    work unit places at most ``budget`` nodes (default
    ``DEFAULT_COUNT_BUDGET``). ``progress``, if given, is called with
    ``(units finished, units in all)``. Returns a ``Count``.
    """
    job = prepare(
        rows,
        cols,
        start,
        closed,
        budget,
        method=method,
        pruned=pruned,
        symmetry=symmetry,
        depth=depth,
        workers=workers,
        scheduler=scheduler,
        resume=resume,
        memory=memory,
        disk=disk,
    )
    _check_progress(progress)
    return count_prepared(job, progress)


def _check_progress(progress):
    if progress is not None and not callable(progress):
        raise InvalidArgument(f"progress must be a function or None, got {validate.shown(progress)}")


def prepare(
    rows,
    cols,
    start=None,
    closed=False,
    budget=None,
    *,
    method=None,
    pruned=True,
    symmetry=True,
    depth=None,
    workers=None,
    scheduler=None,
    resume=None,
    memory=None,
    disk=None,
    total=False,
):
    """Validate a count's arguments (as ``count_tours`` takes them) and plan
    its starts: the ``Job`` that ``count_prepared`` counts. ``total``: the
    job of ``count_total`` instead (``total_prepared`` counts it): the DP's
    one run over every start, no start planned, its checkpoint (``resume``)
    a total's."""
    if total and (start is not None or method != "dp"):
        raise InvalidArgument("a total is one dp run over every start: method dp, no start")
    rows, cols = validate.board(rows, cols)
    closed, pruned, symmetry = (
        validate.flag(value, name) for value, name in ((closed, "closed"), (pruned, "pruned"), (symmetry, "symmetry"))
    )
    method = choose_method(
        rows,
        cols,
        method,
        pruned=pruned,
        symmetry=symmetry,
        depth=depth,
        workers=workers,
        scheduler=scheduler,
        budget=budget,
        closed=closed,
        memory=memory,
        disk=disk,
    )
    # the DP places no nodes: it has no budget
    budget = 0 if method == "dp" else validate.budget(budget, DEFAULT_COUNT_BUDGET)
    # a board the theorems leave no tour on is answered, 0 from every
    # start, by no engine (the plain search is run all the same: it is
    # asked for node by node)
    ruled_out = theory.no_tour_reason(rows, cols, closed) if pruned else ""
    if not ruled_out:
        validate.fits_in_memory(rows, cols, "count")
    if start is not None:
        start = validate.start(rows, cols, start)
    if depth is not None:
        depth = validate.integer(depth, "depth", minimum=0, maximum=rows * cols - 1)
    workers = validate.workers(workers)
    if workers is not None and scheduler is not None:
        # it was ignored: the cluster's own workers run the units
        raise InvalidArgument("workers: the local threads of a count; on a cluster its workers run it: leave it out")
    if scheduler is not None:
        scheduler = address(scheduler)
    if resume is not None:
        # a path that cannot be one, or a stranger's file, is refused before
        # the minutes of planning; the lock and the count's header after
        resume = (checkpoint_kind(scheduler) if method == "dp" else UnitStore).check(resume)
    squares = range(rows * cols) if start is None else [start[0] * cols + start[1]]
    # nothing to plan where nothing is searched (10^7 squares took
    # gigabytes), nor for a total, which has no start
    starts = Starts({}, frozenset()) if ruled_out or total else plan_starts(rows, cols, squares, symmetry)
    return Job(
        rows,
        cols,
        start,
        bool(closed),
        budget,
        method,
        bool(pruned),
        starts,
        depth,
        workers,
        scheduler,
        resume,
        validate.memory(memory),
        ruled_out,
        bool(total),
        validate.disk(disk),
    )


def count_prepared(job, progress=None):
    """Count ``job`` (a ``prepare``'d ``Job``) with its engine; the ``Count``, every square of a
    symmetry class given its representative's tours; a ``job`` the
    theorems answer (``job.ruled_out``) is 0 everywhere, no engine run."""
    if job.ruled_out:
        return _answered_by_theory(job)
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
    return _count_of(
        job, tours, nodes, complete, tally.seconds, depth=tally.depth, units=tally.units, **(tally.work or {})
    )


def _count_of(job, tours, nodes, complete, seconds, **fields):
    """The ``Count`` of ``job`` with these answers and work ``fields``."""
    return Count(
        job.rows,
        job.cols,
        job.start,
        job.closed,
        job.budget,
        tours,
        nodes,
        complete,
        seconds,
        pruned=job.pruned,
        method=job.method,
        **fields,
    )


def _answered_by_theory(job):
    """The ``Count`` of a job the theorems answer: 0 tours and no work from
    every start, without allocating per square beyond the grid asked for.
    Its resume file is not written; a DP checkpoint made for another count
    is refused all the same, as the engine would (a DFS resume file's
    count is its plan's, which is not made)."""
    if job.method == "dp":
        wanted = range(job.rows * job.cols) if job.start is None else [job.start[0] * job.cols + job.start[1]]
        _check_unwritten_checkpoint(job, wanted)
    if job.start is None:
        tours, nodes = np.zeros((job.rows, job.cols), np.int64), np.zeros((job.rows, job.cols), np.int64)
    else:
        tours, nodes = 0, 0
    return _count_of(job, tours, nodes, True, 0.0, ruled_out=job.ruled_out)


# the engines ``count_tours(method=...)`` can run: each takes a ``Job`` and
# an optional progress callback and returns a ``Tally``
ENGINES = {"dfs": count_by_dfs, "dp": count_by_dp}

# ``auto``'s crossover, from per-start grids timed by both engines (the
# table, with its date, commit and load: docs/measurements.md, "The DP:
# totals, grids and the crossover"): with a side of 3 or 4 the DFS
# finishes first up to 30 squares, with both sides 5 or more up to 36;
# past those the DFS's tree grows by a factor per column and the DP's
# work only linearly.
DFS_SQUARES_AT_MOST = 36
DFS_NARROW_SQUARES_AT_MOST = 30


def choose_method(
    rows,
    cols,
    method=None,
    *,
    pruned=True,
    symmetry=True,
    depth=None,
    workers=None,
    scheduler=None,
    budget=None,
    closed=False,
    memory=None,
    disk=None,
):
    """The engine for a count: ``method`` checked, or (None, ``auto``) the
    one expected to finish first. Options only the DFS has are refused
    with ``dp``, and make ``auto`` pick the DFS; ``memory``, the DP's
    budget, is refused with ``dfs`` and on a cluster, and so is ``disk``,
    its budget of disk. Whether the DP fits this machine (within
    ``memory``, or out of core within ``disk``) is checked here, once:
    ``dp`` on a board it cannot hold is refused, ``auto`` then picks the
    DFS."""
    method = validate.choice("auto" if method is None else method, "count method", ("auto", *ENGINES))
    memory, disk = validate.memory(memory), validate.disk(disk)
    _check_budget_option("memory", memory, method, scheduler)
    _check_budget_option("disk", disk, method, scheduler)
    available = memory_room(memory)
    dfs_only = {
        "plain (pruned=False)": not pruned,
        "symmetry=False": not symmetry,
        "depth": depth is not None,
        "workers": workers is not None,
        "scheduler": scheduler is not None,
        "budget": budget is not None,
    }
    asked = [name for name, given in dfs_only.items() if given]
    # the dp runs on a cluster too (cluster_run), but only when asked for:
    # auto with a scheduler stays the dfs, as it was before the dp took one
    refused = [name for name in asked if name != "scheduler"]
    if method == "dp" and refused:
        them = "it" if len(refused) == 1 else "them"
        raise InvalidArgument(f"{', '.join(refused)}: only the dfs count takes {them}, not --method dp")
    if pruned and theory.no_tour_reason(rows, cols, closed):
        # the theorems answer it (count_prepared): no engine runs, none need fit
        return "dfs" if method == "auto" else method
    if method == "dp":
        # on a cluster the workers' memory is checked once connected
        # (cluster_run.check_cluster_fits); here only the frontier's width
        check_fits(rows, cols, math.inf if scheduler is not None else available, closed, disk)
    if method != "auto":
        return method
    if asked:
        return "dfs"
    limit = DFS_NARROW_SQUARES_AT_MOST if min(rows, cols) <= 4 else DFS_SQUARES_AT_MOST
    if rows * cols <= limit:
        return "dfs"
    try:
        check_fits(rows, cols, available, closed, disk)
    except InvalidArgument:
        return "dfs"  # slow, but the DP could not run at all
    return "dp"


# what each of the DP's budgets bounds, and what does on a cluster
_BUDGETS = {
    "memory": ("its tables' budget", "each worker's own memory limit"),
    "disk": ("its spill folder's budget", "each worker's own disk"),
}


def _check_budget_option(name, value, method, scheduler):
    """Refuse the DP's budget ``name`` (``memory`` or ``disk``) with the DFS
    or on a cluster."""
    if value is None:
        return
    bounds, on_cluster = _BUDGETS[name]
    if method == "dfs":
        raise InvalidArgument(f"{name}: only the dp count takes it ({bounds}), not --method dfs")
    if scheduler is not None:
        raise InvalidArgument(f"{name}: on a cluster {on_cluster} is the dp's budget: leave it out")


def memory_room(memory=None):
    """The bytes of memory the DP may hold: what this process may allocate
    (``machine.available_memory``), within ``memory`` (a budget in bytes,
    ``--memory``; None: no budget of its own)."""
    available = machine.available_memory()
    return available if memory is None else min(memory, available)


@signals_raised_as_such
def count_total(rows, cols, closed=False, progress=None, scheduler=None, memory=None, disk=None, resume=None):
    """Directed tours from every start together (the sum of
    ``count_tours(rows, cols, closed=closed)``'s grid), from one run of the
    frontier dynamic program with no forced end: open, each undirected
    path is two directed tours (from either end); closed, each cycle is two
    directed tours from each of its squares. ``progress``, if given, is
    called with ``(steps done, steps in all, states held)`` (and ``rates=``
    on a cluster, as ``count_tours`` says). ``scheduler``: the address of a
    Dask scheduler whose workers run the steps
    (``knight.counting.dp.cluster_run``). ``memory`` and ``disk``: the
    budgets in bytes of memory and of disk the run may hold, as
    ``count_tours`` takes them. ``resume`` names a checkpoint file: the run
    is saved there after its steps (every step run out of core) and goes
    on from its last saved step. Returns an int.
    """
    job = prepare(
        rows, cols, None, closed, method="dp", scheduler=scheduler, resume=resume, memory=memory, disk=disk, total=True
    )
    _check_progress(progress)
    return total_prepared(job, progress)


def total_prepared(job, progress=None):
    """The total over every start of ``job`` (a ``prepare``'d ``Job`` with
    ``total``), an int; 0 with no run where the theorems answer it."""
    if job.ruled_out:
        _check_unwritten_checkpoint(job, ())
        return 0  # as count_prepared answers it: no run
    return total_tours(
        job.rows, job.cols, job.closed, progress, job.scheduler, job.memory, resume=job.resume, disk=job.disk
    )


def total_measured(job, progress=None):
    """``total_prepared`` with its work: ``(tours, measures)``, the measures
    a dict of the run's ``seconds`` (wall, compilation excluded),
    ``transitions``, ``states_peak``, ``states_per_step`` (held after each
    step), ``transitions_per_step`` (the successors each step emitted),
    ``ram_peak_bytes`` (this process's anonymous memory at its
    peak, sampled: ``peak_sampler``), ``rss_peak_bytes`` (its peak resident
    memory over its life, mapped tables and the interpreter included:
    ``VmHWM``) and ``disk_peak_bytes`` (its spill folders' bytes at their
    peak, sampled); on a cluster the memory and disk are the workers' and
    go unmeasured (None). A job the theorems answer has no measures."""
    if job.ruled_out:
        _check_unwritten_checkpoint(job, ())
        return 0, {}
    on_cluster = job.scheduler is not None
    report = None if progress is None else reporter(progress)
    with PeakSampler() as peaks:

        def sampled(step, steps, held, rates=None):
            peaks.sample()  # a step's end: its tables made, the input not yet let go
            if report is not None:
                report(step, steps, held, rates)

        found, work, seconds = total_timed(
            job.rows,
            job.cols,
            job.closed,
            sampled,
            job.scheduler,
            job.memory,
            compile_first=True,
            resume=job.resume,
            disk=job.disk,
        )
    local = dict(ram_peak_bytes=peaks.ram, rss_peak_bytes=machine.peak_resident_memory(), disk_peak_bytes=peaks.disk)
    measures = dict(seconds=seconds, transitions=work.transitions, states_peak=work.states_peak)
    measures.update({name: None if on_cluster else value for name, value in local.items()})
    return found, {**measures, "states_per_step": list(work.held), "transitions_per_step": list(work.emitted)}


def _check_unwritten_checkpoint(job, starts):
    """A DP count the theorems answer writes no checkpoint, but one at
    ``job.resume`` made for another count (of other ``starts``; none: a
    total's) is refused all the same, as its run would refuse it."""
    if job.resume is not None:
        checkpoint_kind(job.scheduler).open(job.resume, job.rows, job.cols, job.closed, starts)  # writes nothing


def count_every_width(rows, cols, closed=False, progress=None, memory=None):
    """``count_total`` of every board the DP's run over ``rows`` x ``cols``
    passes, from that one run: the board cut to its first 1, 2, ... columns
    of the short side's squares, the whole board last, as a list of
    ``(rows, cols, tours)``; ``progress`` and ``memory`` as ``count_total``
    takes them (no cluster)."""
    job = prepare(rows, cols, None, closed, method="dp", memory=memory, total=True)
    _check_progress(progress)
    return every_width_prepared(job, progress)


def every_width_prepared(job, progress=None):
    """``count_every_width`` of ``job`` (a ``prepare``'d total): no run where
    the theorems leave no tour on any width (every one 0), else one, which
    counts the widths they rule out too (0: tests hold the two to it)."""
    boards = width_boards(job.rows, job.cols)
    if all(theory.no_tour_reason(rows, cols, job.closed) for rows, cols in boards):
        return [(rows, cols, 0) for rows, cols in boards]
    if job.ruled_out:
        # prepare checks no fit where the theorems answer the whole board
        check_fits(job.rows, job.cols, memory_room(job.memory), job.closed)
    return every_width(job.rows, job.cols, job.closed, progress, job.memory)


def estimate(job, probes=DEFAULT_PROBES, seed=0):
    """Knuth's random-probe estimate of the DFS's trees for ``job`` (a
    ``prepare``'d ``Job``): ``tree_estimate.Estimate``, plain and pruned."""
    return estimate_count(job, probes, seed)


def dp_projection(job):
    """What the DP's runs for ``job`` are projected to take
    (``memory_model.Projection``: peak states, memory, disk out of core, core
    seconds): one run for a closed count or a total, one per searched
    start for an open per-start count."""
    forced_runs = 0 if job.closed or job.total else len(job.searched)
    return projection(job.rows, job.cols, job.closed, forced_runs)
