"""This module validates a count once and runs the engine that fits it.

Each public call is ``prepare`` followed by one run, and returns one named
result. ``count_tours`` returns a ``Count`` (the tours from each start),
``count_total`` a ``Total`` (every start together, from one DP run) and
``count_every_width`` a ``WidthTotals`` (every width of the board, from that
same run).

``prepare`` validates every argument once, picks the engine
(``choose_method``), and plans the starts: the result is a ``Job``. The
command line calls ``prepare``, prints what the job is projected to take
(``estimate``, ``dp_projection``), then runs the job with ``count_prepared``,
``total_of`` or ``every_width_of``. The last two are the DP engine's own
functions, which the command line reaches through this module.
"""

import math

import numpy as np

from knight import validate
from knight.counting.cluster.dask_client import address
from knight.counting.dfs.dfs_engine import count_by_dfs
from knight.counting.dfs.tree_estimate import DEFAULT_PROBES, estimate_count
from knight.counting.dfs.unit_store import UnitStore
from knight.counting.dp.engine import check_unwritten_checkpoint, checkpoint_kind, count_by_dp
from knight.counting.dp.engine import every_width as every_width_of
from knight.counting.dp.engine import total as total_of
from knight.counting.dp.planning.memory_model import check_fits, memory_room, projection
from knight.counting.jobs import Job, Starts, plan_starts
from knight.errors import InvalidArgument
from knight.exit_status import signals_raised_as_such
from knight.geometry import theory
from knight.result import Count
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
    """Count every directed tour from one start square, or from each start square.

    A path and its reverse are two directed tours. The count is exact:
    nothing is sampled. Two engines give the same counts: an exhaustive,
    pruned depth-first search (``dfs``), and the frontier dynamic program
    (``dp``), which counts without enumerating.

    Parameters
    ----------
    rows, cols : int
        The board's size, each at least 1.
    start : sequence of two int, optional
        The 0-based ``(row, col)`` to count from; None counts from every square.
    closed : bool, default False
        Count closed tours only (the last square a knight's move from the first).
    budget : int, optional
        The most nodes that one DFS work unit may place; a unit that reaches
        it stops, and the count becomes a lower bound. DFS only.
    progress : callable, optional
        Called with a ``knight.Progress`` after each work unit (DFS) or
        step (DP).
    method : {"auto", "dfs", "dp"}, optional
        The engine; None or ``auto`` picks the one expected to finish first.
    pruned : bool, default True
        Cut branches that cannot finish a tour: the same counts, far fewer
        nodes. DFS only when False.
    symmetry : bool, default True
        Search one start per class of symmetric squares. DFS only when False.
    depth : int, optional
        Split the DFS into work units this many moves from the start; None
        picks a depth, and 0 makes one unit per start.
    workers : int, optional
        Local threads for the DFS; None uses every usable core.
    scheduler : str, optional
        The address of a Dask scheduler whose workers run the count.
    resume : str or path-like, optional
        A file that keeps finished work; a count run again skips what it holds.
    memory : int, optional
        The DP's memory budget in bytes; steps past it run out of core.
    disk : int, optional
        The DP's disk budget in bytes for the steps run out of core.

    Returns
    -------
    Count
        The tours and the work from each start (or the one start), with the
        engine's measures and the seconds.

    Raises
    ------
    InvalidArgument
        If an argument is not valid, or the DP cannot fit the board within
        its budgets.

    See Also
    --------
    count_total : The total over every start, from one DP run.

    Examples
    --------
    >>> import knight
    >>> knight.count_tours(5, 5, start=(0, 0)).tours
    304
    >>> knight.count_tours(3, 4, method="dp").total_tours
    16
    """
    _check_progress(progress)
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
    return count_prepared(job, progress)


@signals_raised_as_such
def count_total(rows, cols, closed=False, progress=None, scheduler=None, memory=None, disk=None, resume=None):
    """Count the directed tours from every start together, from one run of the frontier DP.

    The total equals the sum of ``count_tours(rows, cols, closed=closed)``'s
    grid, at the cost of a single run. Open, each undirected path counts as
    two directed tours (one from each end). Closed, each cycle counts as two
    directed tours from each of its squares.

    Parameters
    ----------
    rows, cols : int
        The board's size, each at least 1.
    closed : bool, default False
        Count closed tours only.
    progress : callable, optional
        Called with a ``knight.Progress`` after each step.
    scheduler : str, optional
        The address of a Dask scheduler whose workers run the steps.
    memory : int, optional
        The memory budget in bytes; steps past it run out of core.
    disk : int, optional
        The disk budget in bytes for the steps run out of core.
    resume : str or path-like, optional
        A checkpoint file: the run is saved there after its steps, and a
        run started again goes on from its last saved step.

    Returns
    -------
    Total
        The tours, with the run's work, seconds and peak memory and disk.

    Raises
    ------
    InvalidArgument
        If an argument is not valid, or the DP cannot fit the board within
        its budgets.

    See Also
    --------
    count_tours : The tours from each start square.
    count_every_width : The total of every width of the board, from one run.

    Examples
    --------
    >>> import knight
    >>> knight.count_total(5, 5).tours
    1728
    >>> knight.count_total(6, 6, closed=True).tours
    710064
    """
    _check_progress(progress)
    job = prepare(
        rows, cols, None, closed, method="dp", scheduler=scheduler, resume=resume, memory=memory, disk=disk, total=True
    )
    return total_of(job, progress)


@signals_raised_as_such
def count_every_width(rows, cols, closed=False, progress=None, memory=None):
    """Count the total of every width of a board, from one run of the frontier DP.

    The run over the whole board passes each narrower board on its way: the
    long side cut to 1, 2, ... squares. Each width's total is harvested as
    the run passes it.

    Parameters
    ----------
    rows, cols : int
        The whole board's size, each at least 1.
    closed : bool, default False
        Count closed tours only.
    progress : callable, optional
        Called with a ``knight.Progress`` after each step.
    memory : int, optional
        The memory budget in bytes.

    Returns
    -------
    WidthTotals
        One ``WidthTotal`` for each width, the whole board last.

    Raises
    ------
    InvalidArgument
        If an argument is not valid, or the DP cannot fit the board.

    See Also
    --------
    count_total : The total of one board.

    Examples
    --------
    >>> import knight
    >>> [width.tours for width in knight.count_every_width(3, 4).widths]
    [0, 0, 0, 16]
    """
    _check_progress(progress)
    job = prepare(rows, cols, None, closed, method="dp", memory=memory, total=True, every_width=True)
    return every_width_of(job, progress)


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
    every_width=False,
):
    """Validate a count's arguments once and plan its starts.

    Nothing downstream validates again: the engines trust the ``Job``.

    Parameters
    ----------
    rows, cols : int
        The board's size, each at least 1.
    start : sequence of two int, optional
        The 0-based ``(row, col)`` to count from. None counts from every square.
    closed : bool, default False
        Count closed tours only.
    budget : int, optional
        The most nodes that one DFS work unit may place. None takes the
        default budget, and the DP takes none.
    method : {"auto", "dfs", "dp"}, optional
        The engine. None or ``auto`` picks the one expected to finish first.
    pruned : bool, default True
        Cut the branches that cannot finish a tour.
    symmetry : bool, default True
        Search one start per class of symmetric squares.
    depth : int, optional
        The number of moves from the start at which the DFS splits its work
        into units. None lets the engine pick.
    workers : int, optional
        The local threads of the DFS. None uses every usable core.
    scheduler : str, optional
        The address of a Dask scheduler whose workers run the count.
    resume : str or path-like, optional
        A file that keeps finished work.
    memory : int, optional
        The DP's memory budget in bytes.
    disk : int, optional
        The DP's disk budget in bytes for the steps run out of core.
    total : bool, default False
        Prepare ``count_total``'s job instead: one DP run over every start,
        with no start planned.
    every_width : bool, default False
        With ``total``, prepare ``count_every_width``'s job: no cluster, no
        disk budget, no checkpoint.

    Returns
    -------
    Job
        The validated job, its engine chosen and its starts planned.

    Raises
    ------
    InvalidArgument
        If an argument is not valid, or the chosen engine cannot fit the board.

    Examples
    --------
    >>> from knight.harness_api import prepare
    >>> job = prepare(5, 5, method="dfs")
    >>> job.method, job.start, sorted(job.starts.classes)
    ('dfs', None, [0, 1, 2, 6, 7, 12])
    >>> total = prepare(5, 5, method="dp", total=True)
    >>> total.total, total.budget
    (True, 0)
    >>> prepare(3, 3).ruled_out
    'no open tour exists on a 3x3 board (Conrad et al. 1994)'
    """
    if total and (start is not None or method != "dp"):
        raise InvalidArgument("a total is one dp run over every start: method dp, no start")
    if every_width and not total:
        raise InvalidArgument("every_width is a kind of total: give total=True")
    rows, cols = validate.board(rows, cols)
    closed, pruned, symmetry = (
        validate.flag(value, name) for value, name in ((closed, "closed"), (pruned, "pruned"), (symmetry, "symmetry"))
    )
    memory, disk = validate.memory(memory), validate.disk(disk)
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
    elif every_width:
        # a sweep runs whenever a narrower width has tours: it must fit
        check_fits(rows, cols, memory_room(memory), closed)
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
        rows=rows,
        cols=cols,
        start=start,
        closed=bool(closed),
        budget=budget,
        method=method,
        pruned=bool(pruned),
        starts=starts,
        depth=depth,
        workers=workers,
        scheduler=scheduler,
        resume=resume,
        memory=memory,
        disk=disk,
        ruled_out=ruled_out,
        total=bool(total),
        every_width=bool(every_width),
    )


def count_prepared(job, progress=None):
    """Count a prepared per-start job with its engine.

    Every square of a symmetry class gets its representative's tours. A job
    that the theorems answer (``job.ruled_out``) is 0 everywhere, and no
    engine runs.

    Parameters
    ----------
    job : Job
        A job that ``prepare`` made, without ``total``.
    progress : callable, optional
        As ``count_tours`` takes it.

    Returns
    -------
    Count
        The tours and the work from each start, or from the one start.
    """
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
    """Return the ``Count`` of ``job`` with these answers and work ``fields``."""
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
    """Return the ``Count`` of a job that the theorems answer: 0 tours and no work from every start.

    Nothing is allocated per square beyond the grid asked for. Its resume
    file is not written, but a DP checkpoint made for another count is
    refused all the same, as the engine would refuse it.
    """
    if job.method == "dp":
        check_unwritten_checkpoint(job)
    if job.start is None:
        tours, nodes = np.zeros((job.rows, job.cols), np.int64), np.zeros((job.rows, job.cols), np.int64)
    else:
        tours, nodes = 0, 0
    return _count_of(job, tours, nodes, True, 0.0, ruled_out=job.ruled_out)


# the engines ``count_tours(method=...)`` can run: each takes a ``Job`` and
# an optional progress callback and returns a ``Tally``
ENGINES = {"dfs": count_by_dfs, "dp": count_by_dp}

# ``auto``'s crossover, from per-start grids that both engines timed (the
# journal's section "The DP: totals, grids and the crossover"). With a side
# of 3 or 4 the DFS finishes first up to 30 squares, and with both sides 5
# or more up to 36. Past those, the DFS's tree grows by a factor per column
# and the DP's work only linearly.
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
    """Return the engine for a count: ``method`` checked, or the one expected to finish first.

    With ``method`` None or ``auto``, options that only the DFS has make
    ``auto`` pick the DFS; with ``dp`` they are refused. ``memory`` and
    ``disk`` (already validated byte counts) are the DP's budgets, refused
    with ``dfs`` and on a cluster. Whether the DP fits this machine is
    checked here, once: ``dp`` on a board that it cannot hold is refused,
    and ``auto`` then picks the DFS.
    """
    method = validate.choice("auto" if method is None else method, "count method", ("auto", *ENGINES))
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
    """Refuse the DP's budget ``name`` (``memory`` or ``disk``) with the DFS or on a cluster."""
    if value is None:
        return
    bounds, on_cluster = _BUDGETS[name]
    if method == "dfs":
        raise InvalidArgument(f"{name}: only the dp count takes it ({bounds}), not --method dfs")
    if scheduler is not None:
        raise InvalidArgument(f"{name}: on a cluster {on_cluster} is the dp's budget: leave it out")


def estimate(job, probes=DEFAULT_PROBES, seed=0):
    """Return Knuth's random-probe estimate of the DFS's trees for a prepared job.

    Returns
    -------
    tree_estimate.Estimate
        The estimate, plain and pruned.
    """
    return estimate_count(job, probes, seed)


def dp_projection(job):
    """Return what the DP's runs for a prepared job are projected to take.

    One run serves a closed count or a total; an open per-start count makes
    one run per searched start.

    Returns
    -------
    memory_model.Projection
        The peak states, memory, disk out of core, and core seconds.
    """
    forced_runs = 0 if job.closed or job.total else len(job.searched)
    return projection(job.rows, job.cols, job.closed, forced_runs)
