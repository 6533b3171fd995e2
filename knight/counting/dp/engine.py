"""The frontier DP as a counting engine: the runs a ``Job`` needs, their
answers as directed tours per start (a ``Tally``), and the open or closed
total of every start at the cost of one run.

Counts in knight's convention (directed tours, as the DFS counts them):

* open, from one start ``s``: undirected Hamiltonian paths with ``s`` as an
  end (each is one directed tour starting at ``s``), from a DP in which
  ``s`` is forced to be a tour end;
* open, every start: the same per symmetry class (colour parity zeroes the
  minority colour of an odd board without a run);
* closed: every start has twice the number of undirected Hamiltonian
  cycles (one cycle, two directions), from one DP.
"""

import contextlib
import dataclasses
import functools
import inspect
import time

from knight.counting.dp.checkpoints.checkpoint_header import damaged
from knight.counting.dp.checkpoints.cluster_checkpoint import ClusterCheckpoint
from knight.counting.dp.checkpoints.process_checkpoint import Checkpoint
from knight.counting.dp.model.cell_order import schedule
from knight.counting.dp.policy import StepPolicy
from knight.counting.dp.run_loop import MAX_LIMBS, Work, compile_kernels, count_hamiltonian
from knight.counting.dp.width_sweep import WidthSweep
from knight.counting.jobs import Tally
from knight.errors import InvalidArgument
from knight.files import journal


def count_by_dp(job, progress=None, policy=None):
    """The DP engine of ``knight.counting.driver``: directed tours per
    searched start of ``job`` (a ``jobs.Job``, validated and its starts
    planned), as a ``jobs.Tally`` whose ``work`` holds the DP's
    measures. ``progress(done, total, held)`` counts steps over every run;
    ``job.resume`` names a checkpoint file; ``job.scheduler``, a Dask
    scheduler to run the steps on (``cluster_run``). ``policy``: how a run
    in one process takes its steps (a ``policy.StepPolicy``; None: its
    defaults), under ``job.memory``'s budget."""
    if job.scheduler is not None:
        with on_cluster(job.scheduler, job.rows, job.cols, job.closed) as run:
            return _count_runs(job, progress, run)
    compile_kernels()  # before the clock starts
    policy = _budgeted(policy, job.memory, job.disk)
    return _count_runs(job, progress, functools.partial(count_hamiltonian, policy=policy))


def _budgeted(policy, memory, disk=None):
    """``policy`` (None: the default ``StepPolicy``) under a budget of
    ``memory`` bytes of memory and ``disk`` bytes of disk, each when given."""
    policy = StepPolicy() if policy is None else policy
    policy = policy if memory is None else dataclasses.replace(policy, memory=memory)
    return policy if disk is None else dataclasses.replace(policy, disk=disk)


@contextlib.contextmanager
def on_cluster(address, rows, cols, closed):
    """A ``cluster_run.ClusterRun`` on the cluster at ``address``, the board
    checked against its workers' memory first; the client closed after."""
    from knight.counting.cluster import cluster_faults, dask_client
    from knight.counting.dp import cluster_run

    client = dask_client.connect(address)
    try:
        with cluster_faults.translated(client.scheduler.address):
            run = cluster_run.ClusterRun(client)
            cluster_run.check_cluster_fits(client, rows, cols, closed, run.parts)
        yield run
    finally:
        cluster_faults.close(client)


def _count_runs(job, progress, run):
    """``count_by_dp``'s runs, each by ``run`` (``count_hamiltonian`` or
    a ``ClusterRun``), into ``job.resume``'s checkpoint when it names one."""
    with opened_checkpoint(job.resume, job.scheduler, job.rows, job.cols, job.closed, _wanted(job)) as store:
        return _count_runs_into(job, progress, run, store)


@contextlib.contextmanager
def opened_checkpoint(path, scheduler, rows, cols, closed, starts):
    """The checkpoint at ``path`` (None: none, and None is yielded) of the
    count of ``starts`` (empty: a total over every start), a process's or
    a cluster's (``scheduler``): locked for the count, so that a second
    count on the same file is refused before its work ("in use by another
    run")."""
    if path is None:
        yield None
        return
    with journal.SideLock(path):
        yield checkpoint_kind(scheduler).open(path, rows, cols, closed, starts)


def checkpoint_kind(scheduler):
    """The checkpoint class of a count in this process (``scheduler`` None)
    or on the cluster at ``scheduler``."""
    return Checkpoint if scheduler is None else ClusterCheckpoint


def run_key(forced):
    """A run's key in its checkpoint: its forced end, or -1 for the one run
    with none (closed tours, or a total)."""
    return -1 if forced is None else forced


def checkpointed_run(run, plan, closed, forced, progress, store):
    """``run(plan, closed, forced, progress, state, on_step)``'s ``(found,
    work)``, resumed from and saved into ``store`` (a checkpoint; None:
    none): a run it holds finished is not run again."""
    key = run_key(forced)
    if store is not None and key in store.finished:
        return store.finished[key], Work()
    state = store.resume_state(key) if store is not None else None
    on_step = store.saver(key) if store is not None else None
    try:
        found, work = run(plan, closed, forced, progress, state, on_step)
    except InvalidArgument as error:  # the resumed table's keys, checked before its first step
        if state is None:
            raise
        raise damaged(store.path, error) from None
    if store is not None:
        store.finish(key, found)
    return found, work


def _wanted(job):
    """The squares whose tours ``job`` asks for."""
    return range(job.rows * job.cols) if job.start is None else [job.start[0] * job.cols + job.start[1]]


def _count_runs_into(job, progress, run, store):
    """``_count_runs`` with its checkpoint ``store`` (None: none) open."""
    began = time.perf_counter()
    rows, cols, closed = job.rows, job.cols, job.closed
    squares = rows * cols
    classes = list(job.starts.classes)
    if squares == 1:
        # one square: the empty walk is the open tour, and (as the DFS
        # counts it) no closed tour: there is no move back to the start
        runs = {}
        fixed = {s: 0 if closed else 1 for s in classes}
    elif closed:
        # every start of a closed tour has the same count: one run
        runs = {None: classes}
        fixed = {}
    else:
        # a tour of an odd number of squares starts on the corner's colour
        # (knight.geometry.theory): no run for the other one
        runs = {s: [s] for s in job.starts.searched(pruned=True)}
        fixed = {s: 0 for s in classes if s in job.starts.excluded}
    report = None if progress is None else reporter(progress)
    plan = schedule(rows, cols) if runs else None
    steps = len(plan.order) if plan else 0
    total_steps = steps * len(runs)
    tours = dict(fixed)
    work = Work()
    for done_runs, (forced, members) in enumerate(runs.items()):

        def step_progress(step, _steps, held, rates=None, offset=done_runs * steps):
            if report is not None:
                report(offset + step, total_steps, held, rates)

        if store is not None and run_key(forced) in store.finished and progress is not None:
            progress((done_runs + 1) * steps, total_steps, 0)
        found, run_work = checkpointed_run(run, plan, closed, forced, step_progress, store)
        work.add(run_work)
        for member in members:
            tours[member] = 2 * found if closed else found
    measures = dict(states_peak=work.states_peak, transitions=work.transitions, merges=work.merges, runs=len(runs))
    return Tally(tours, {s: 0 for s in classes}, {s: True for s in classes}, time.perf_counter() - began, work=measures)


def total_tours(rows, cols, closed, progress=None, scheduler=None, memory=None, policy=None, resume=None, disk=None):
    """Directed tours from every start together, from one run with no
    forced end: open, each undirected path is two directed tours (from
    either end); closed, each cycle is two directed tours from each of its
    squares. The grid's sum, at the cost of a single run (the public,
    validating wrapper is ``knight.count_total``); on the Dask cluster at
    ``scheduler`` when one is given; in at most ``memory`` bytes of memory
    (``run_loop.count_hamiltonian``) when not, its steps taken by ``policy``
    (``count_by_dp``'s); resumed from and saved into the checkpoint at
    ``resume`` when it names one (a total's: its starts are none); out of
    core in at most ``disk`` bytes of disk when it is given."""
    return total_timed(rows, cols, closed, progress, scheduler, memory, policy, resume=resume, disk=disk)[0]


def total_timed(
    rows,
    cols,
    closed,
    progress=None,
    scheduler=None,
    memory=None,
    policy=None,
    compile_first=False,
    resume=None,
    disk=None,
):
    """``total_tours`` as ``(total, work, seconds)``: its run's ``Work`` and
    its wall seconds, which exclude compilation with ``compile_first``
    (the kernels compiled or loaded before the clock starts)."""
    with opened_checkpoint(resume, scheduler, rows, cols, closed, ()) as store:
        if scheduler is None:
            if compile_first:
                compile_kernels()
            run = functools.partial(count_hamiltonian, policy=_budgeted(policy, memory, disk))
            began = time.perf_counter()
            return (*total_with_work(rows, cols, closed, progress, run, store), time.perf_counter() - began)
        with on_cluster(scheduler, rows, cols, closed) as run:
            began = time.perf_counter()
            return (*total_with_work(rows, cols, closed, progress, run, store), time.perf_counter() - began)


def total_with_work(rows, cols, closed, progress=None, run=count_hamiltonian, store=None):
    """``(total_tours, work)``: the total and its run's ``Work``;
    ``progress`` as ``count_hamiltonian`` takes it; ``run``, the runner
    (``count_hamiltonian`` or a ``cluster_run.ClusterRun``); ``store``, its
    checkpoint (None: none)."""
    if rows * cols == 1:
        return directed(0, 1, closed), Work()
    report = None if progress is None else reporter(progress)
    found, work = checkpointed_run(run, schedule(rows, cols), closed, None, report, store)
    return directed(found, rows * cols, closed), work


def directed(found, squares, closed):
    """The directed tours from every start of a board of ``squares`` squares
    whose run found ``found`` undirected paths (cycles, ``closed``): open,
    two per path (from either end); closed, two per cycle from each of its
    squares. One square: the empty walk is its open tour, and it has no
    closed one (no move back to the start), as the DFS counts them."""
    if squares == 1:
        return 0 if closed else 1
    return 2 * found * (squares if closed else 1)


def width_boards(rows, cols):
    """``(rows, cols)`` of each board ``every_width`` counts: the long side
    cut to 1, 2, ... of its squares, the whole board last."""
    if rows <= cols:
        return [(rows, width) for width in range(1, cols + 1)]
    return [(width, cols) for width in range(1, rows + 1)]


def every_width(rows, cols, closed, progress=None, memory=None, policy=None):
    """``[(rows, cols, tours)]``: the directed tours from every start of each
    board the run over ``rows`` x ``cols`` passes, its first 1, 2, ...
    columns of the short side's squares (the long side cut), the whole
    board last, from that one run (``width_sweep``); ``progress``,
    ``memory`` and ``policy`` as ``total_tours`` takes them."""
    short, long = min(rows, cols), max(rows, cols)
    boards = width_boards(rows, cols)
    if rows * cols == 1:
        return [(1, 1, directed(0, 1, closed))]
    plan = schedule(rows, cols)
    sweep = WidthSweep(plan, closed, MAX_LIMBS)
    report = None if progress is None else reporter(progress)
    found, _work = count_hamiltonian(plan, closed, progress=report, policy=_budgeted(policy, memory), sweep=sweep)
    counts = [*(sweep.found[width] for width in range(1, long)), found]
    return [
        (r, c, directed(n, short * width, closed))
        for width, ((r, c), n) in enumerate(zip(boards, counts, strict=True), 1)
    ]


def reporter(progress):
    """``progress`` as the runs call it, ``(step, steps, held, rates=None)``:
    ``rates`` (a cluster run's transitions a second per worker) is passed
    on only to a ``progress`` that takes a ``rates`` keyword, as the
    command line's bar does; any other gets ``(step, steps, held)``."""
    try:
        takes_rates = "rates" in inspect.signature(progress).parameters
    except (TypeError, ValueError):  # a callable with no signature to read
        takes_rates = False

    def report(step, steps, held, rates=None):
        if takes_rates:
            progress(step, steps, held, rates=rates)
        else:
            progress(step, steps, held)

    return report
