"""Run the frontier DP for a prepared ``Job`` and return its named result.

The engine has one function per kind of job, and each takes the ``Job``
that ``knight.counting.driver.prepare`` validated:

* ``total`` counts the directed tours from every start together, from one
  run with no forced end, and returns a ``Total``;
* ``every_width`` counts the total of every width of the board from that
  same run, and returns a ``WidthTotals``;
* ``count_by_dp`` counts the tours from each searched start, one run per
  symmetry class (one run for closed tours), and returns a ``Tally``.

Counts follow knight's convention of directed tours, as the DFS counts
them. Open, a run from start ``s`` counts the undirected paths with ``s`` as
an end, each of which is one directed tour from ``s``. Closed, every start
has twice the number of undirected cycles, one for each direction.
"""

import contextlib
import dataclasses
import time

from knight.counting.dp.checkpoints.checkpoint_header import damaged
from knight.counting.dp.checkpoints.cluster_checkpoint import ClusterCheckpoint
from knight.counting.dp.checkpoints.process_checkpoint import Checkpoint
from knight.counting.dp.model.cell_order import schedule
from knight.counting.dp.planning.policy import StepPolicy
from knight.counting.dp.runs.run_loop import (
    MAX_LIMBS,
    ProcessRunner,
    Work,
    compile_kernels,
    count_hamiltonian,
    run_steps,
)
from knight.counting.dp.runs.width_sweep import WidthSweep
from knight.counting.jobs import Tally
from knight.counting.peak_sampler import PeakSampler
from knight.errors import InvalidArgument
from knight.files import journal
from knight.geometry import theory
from knight.result import Progress, Total, WidthTotal, WidthTotals
from knight.runtime import machine

# the key of the one run with no forced end (closed tours, or a total) in a checkpoint
NO_FORCED_END = -1


def total(job, progress=None, policy=None):
    """Count the directed tours from every start of a prepared total.

    Parameters
    ----------
    job : knight.counting.jobs.Job
        A job that ``prepare`` made with ``total=True``.
    progress : callable, optional
        Called with a ``knight.Progress`` after each step.
    policy : StepPolicy, optional
        How a run in this process takes its steps; None for the default,
        under the job's memory and disk budgets.

    Returns
    -------
    Total
        The tours with the run's work, seconds and peaks.

    Examples
    --------
    >>> from knight.harness_api import prepare, total_of
    >>> job = prepare(5, 5, method="dp", total=True)
    >>> total_of(job).tours
    1728
    >>> done = []
    >>> total_of(job, progress=lambda now: done.append(now.done)).tours
    1728
    >>> done[-1]
    25
    """
    if job.ruled_out:
        check_unwritten_checkpoint(job)
        return Total(job.rows, job.cols, job.closed, 0, method="theory", ruled_out=job.ruled_out)
    if job.rows * job.cols == 1:
        return Total(job.rows, job.cols, job.closed, directed(0, 1, job.closed))
    plan = schedule(job.rows, job.cols)
    with (
        _runner(job, policy) as runner,
        opened_checkpoint(job.resume, job.scheduler, job.rows, job.cols, job.closed, _wanted(job), policy) as store,
        PeakSampler() as peaks,
    ):
        began = time.perf_counter()
        found, work = one_run(runner, plan, job.closed, None, _StepSampler(progress, peaks), store)
        seconds = time.perf_counter() - began
    local = job.scheduler is None
    return Total(
        job.rows,
        job.cols,
        job.closed,
        directed(found, job.rows * job.cols, job.closed),
        seconds=seconds,
        transitions=work.transitions,
        states_peak=work.states_peak,
        states_per_step=tuple(work.held),
        transitions_per_step=tuple(work.emitted),
        states_saved=work.states_saved,
        states_saved_per_step=tuple(work.saved),
        ram_peak_bytes=peaks.ram if local else None,
        rss_peak_bytes=machine.peak_resident_memory() if local else None,
        disk_peak_bytes=peaks.disk if local else None,
    )


def every_width(job, progress=None, policy=None):
    """Count the total of every width of a prepared total from one run.

    The run over the whole board passes each narrower board: the long side
    cut to 1, 2, ... squares. A ``WidthSweep`` harvests each one's tours on
    the way.

    Parameters
    ----------
    job : knight.counting.jobs.Job
        A job that ``prepare`` made with ``every_width=True``.
    progress : callable, optional
        Called with a ``knight.Progress`` after each step.
    policy : StepPolicy, optional
        How the run takes its steps; None for the default, under the job's
        memory budget.

    Returns
    -------
    WidthTotals
        One ``WidthTotal`` a width, the whole board last.
    """
    boards = width_boards(job.rows, job.cols)
    reasons = [theory.no_tour_reason(rows, cols, job.closed) for rows, cols in boards]
    if all(reasons):
        widths = tuple(WidthTotal(rows, cols, 0, reason) for (rows, cols), reason in zip(boards, reasons, strict=True))
        return WidthTotals(job.rows, job.cols, job.closed, widths, method="theory")
    if job.rows * job.cols == 1:
        return WidthTotals(job.rows, job.cols, job.closed, (WidthTotal(1, 1, directed(0, 1, job.closed)),))
    plan = schedule(job.rows, job.cols)
    sweep = WidthSweep(plan, job.closed, MAX_LIMBS)
    with _runner(job, policy, sweep) as runner:
        began = time.perf_counter()
        found, work = one_run(runner, plan, job.closed, None, _StepSampler(progress), None)
        seconds = time.perf_counter() - began
    short = min(job.rows, job.cols)
    counts = [*(sweep.found[width] for width in range(1, len(boards))), found]
    widths = tuple(
        WidthTotal(rows, cols, directed(paths, short * width, job.closed), reason)
        for width, ((rows, cols), paths, reason) in enumerate(zip(boards, counts, reasons, strict=True), 1)
    )
    return WidthTotals(
        job.rows,
        job.cols,
        job.closed,
        widths,
        seconds=seconds,
        transitions=work.transitions,
        states_peak=work.states_peak,
    )


def count_by_dp(job, progress=None, policy=None):
    """Count the directed tours from each searched start of a prepared job.

    Parameters
    ----------
    job : knight.counting.jobs.Job
        A per-start job that ``prepare`` made, its starts planned.
    progress : callable, optional
        Called with a ``knight.Progress`` after each step of every run.
    policy : StepPolicy, optional
        How a run in this process takes its steps.

    Returns
    -------
    knight.counting.jobs.Tally
        The tours per searched start, with the DP's measures in ``work``.
    """
    with (
        _runner(job, policy) as runner,
        opened_checkpoint(job.resume, job.scheduler, job.rows, job.cols, job.closed, _wanted(job), policy) as store,
    ):
        return _count_runs(job, progress, runner, store)


def _budgeted(policy, memory, disk=None):
    """Return ``policy`` (None: the default) under the job's budgets, each when given."""
    policy = StepPolicy() if policy is None else policy
    policy = policy if memory is None else dataclasses.replace(policy, memory=memory)
    return policy if disk is None else dataclasses.replace(policy, disk=disk)


@contextlib.contextmanager
def _runner(job, policy, sweep=None):
    """Yield the runner of the job's runs: this process's, or a cluster's.

    ``sweep``, a ``WidthSweep``, rides along a run in this process; an
    every-width job has no cluster.
    """
    if job.scheduler is None:
        compile_kernels()  # before the clock starts
        yield ProcessRunner(_budgeted(policy, job.memory, job.disk), sweep)
        return
    with on_cluster(job.scheduler, job.rows, job.cols, job.closed) as run:
        yield run


@contextlib.contextmanager
def on_cluster(address, rows, cols, closed):
    """Yield a ``ClusterRun`` on the cluster at ``address``, its workers' memory checked first.

    The client is closed afterwards, however the run ends.
    """
    from knight.counting.cluster import cluster_faults, dask_client
    from knight.counting.dp.runs import cluster_run

    client = dask_client.connect(address)
    try:
        with cluster_faults.translated(client.scheduler.address):
            run = cluster_run.ClusterRun(client)
            cluster_run.check_cluster_fits(client, rows, cols, closed, run.parts)
        yield run
    finally:
        cluster_faults.close(client)


@contextlib.contextmanager
def opened_checkpoint(path, scheduler, rows, cols, closed, starts, policy=None):
    """Yield the checkpoint at ``path``, locked for the count, or None when ``path`` is None.

    ``starts`` are the squares whose tours the count asks for; none for a
    total. The checkpoint names whether the runs keep one state for each
    mirror pair: a cluster's runs always do, and a run in this process
    does unless ``policy`` turns the quotient off. The lock makes a second
    count on the same file fail before its work, with "in use by another
    run".
    """
    if path is None:
        yield None
        return
    quotient = scheduler is not None or policy is None or policy.quotient
    with journal.SideLock(path):
        yield checkpoint_kind(scheduler).open(path, rows, cols, closed, starts, quotient=quotient)


def checkpoint_kind(scheduler):
    """Return the checkpoint class of a count in this process (``scheduler`` None) or on a cluster."""
    return Checkpoint if scheduler is None else ClusterCheckpoint


def run_key(forced):
    """Return a run's key in its checkpoint: its forced end, or ``NO_FORCED_END``."""
    return NO_FORCED_END if forced is None else forced


def one_run(runner, plan, closed, forced, progress, store):
    """Run the DP once over ``plan``, resumed from and saved into ``store`` when it is given.

    A run that ``store`` holds finished is not run again.

    Returns
    -------
    tuple of (int, Work)
        The undirected paths (cycles, when ``closed``) that the run found, and its work.
    """
    key = run_key(forced)
    if store is not None and key in store.finished:
        return store.finished[key], Work()
    state = None if store is None else store.resume_state(key)
    saver = None if store is None else store.saver(key)
    with runner.guarded():
        executor = runner.executor(plan, closed, forced)
        try:
            found, work = run_steps(executor, plan, state, runner.hook(executor, saver), progress, runner.max_limbs)
        except InvalidArgument as error:  # the resumed table's keys, checked before its first step
            if state is None:
                raise
            raise damaged(store.path, error) from None
    if store is not None:
        store.finish(key, found)
    return found, work


def _wanted(job):
    """Return the squares whose tours ``job`` asks for; none for a total."""
    if job.total:
        return ()
    return range(job.rows * job.cols) if job.start is None else [job.start[0] * job.cols + job.start[1]]


def check_unwritten_checkpoint(job):
    """Refuse a checkpoint made for another count, though the theorems answer this one.

    A count that the theorems answer writes no checkpoint, but a file at
    ``job.resume`` made for another count is refused all the same, as its
    run would refuse it.
    """
    if job.resume is not None:
        checkpoint_kind(job.scheduler).open(job.resume, job.rows, job.cols, job.closed, _wanted(job))  # writes nothing


def _count_runs(job, progress, runner, store):
    """Return the ``Tally`` of a per-start job: one run per searched start, or one for closed tours."""
    began = time.perf_counter()
    rows, cols, closed = job.rows, job.cols, job.closed
    classes = list(job.starts.classes)
    runs, fixed = _planned_runs(job, classes)
    plan = schedule(rows, cols) if runs else None
    steps = len(plan.order) if plan else 0
    total_steps = steps * len(runs)
    tours = dict(fixed)
    work = Work()
    for done_runs, (forced, members) in enumerate(runs.items()):
        if store is not None and run_key(forced) in store.finished and progress is not None:
            progress(Progress((done_runs + 1) * steps, total_steps, 0))
        step_progress = _StepSampler(progress, offset=done_runs * steps, steps=total_steps)
        found, run_work = one_run(runner, plan, closed, forced, step_progress, store)
        work.add(run_work)
        for member in members:
            tours[member] = 2 * found if closed else found
    measures = dict(states_peak=work.states_peak, transitions=work.transitions, merges=work.merges, runs=len(runs))
    return Tally(tours, {s: 0 for s in classes}, {s: True for s in classes}, time.perf_counter() - began, work=measures)


def _planned_runs(job, classes):
    """Return ``(runs, fixed)``: the runs to make, forced end to members, and the counts known without a run."""
    if job.rows * job.cols == 1:
        # one square: the empty walk is the open tour, and (as the DFS
        # counts it) no closed tour: there is no move back to the start
        return {}, {s: 0 if job.closed else 1 for s in classes}
    if job.closed:
        # every start of a closed tour has the same count: one run
        return {None: classes}, {}
    # a tour of an odd number of squares starts on the corner's colour
    # (knight.geometry.theory): no run for the other one
    runs = {s: [s] for s in job.starts.searched(pruned=True)}
    return runs, {s: 0 for s in classes if s in job.starts.excluded}


def directed(found, squares, closed):
    """Return the directed tours from every start, given the undirected paths or cycles found.

    Open, each path is two directed tours, one from each end. Closed, each
    cycle is two directed tours from each of its squares. One square: the
    empty walk is its open tour, and it has no closed one, since there is no
    move back to the start.
    """
    if squares == 1:
        return 0 if closed else 1
    return 2 * found * (squares if closed else 1)


def width_boards(rows, cols):
    """Return ``(rows, cols)`` of each board that ``every_width`` counts, the whole board last."""
    if rows <= cols:
        return [(rows, width) for width in range(1, cols + 1)]
    return [(width, cols) for width in range(1, rows + 1)]


class _StepSampler:
    """A progress callback that samples the run's peaks at each step's end, then reports.

    A step's end is when its tables are made and its input is not yet let
    go, so the sample there catches the step's peak.
    """

    def __init__(self, progress, peaks=None, offset=0, steps=None):
        self.progress = progress
        self.peaks = peaks  # a PeakSampler, or None: nothing sampled
        self.offset = offset  # the steps of the runs before this one
        self.steps = steps  # the steps of every run, or None: this run's

    def __call__(self, step, steps, held, rates=None, saved=0):
        if self.peaks is not None:
            self.peaks.sample()
        if self.progress is not None:
            total = steps if self.steps is None else self.steps
            self.progress(Progress(self.offset + step, total, held, rates, saved))


def total_with_work(rows, cols, closed, progress=None, run=None):
    """Run the DP once with no forced end on a runner of the caller's, and return ``(tours, work)``.

    This is the harness's door for a total on its own runner (a
    ``ClusterRun``, or ``count_hamiltonian`` under a policy of its own). It
    validates nothing and measures nothing; ``total`` is the road of a
    prepared job.

    Parameters
    ----------
    rows, cols : int
        The board.
    closed : bool
        Count closed tours.
    progress : callable, optional
        Called with a ``knight.Progress`` after each step.
    run : callable, optional
        ``run(plan, closed, forced, progress)`` returning ``(count, work)``;
        None for ``count_hamiltonian``.

    Returns
    -------
    tuple of (int, Work)
        The directed tours from every start together, and the run's work.

    Examples
    --------
    >>> from knight.harness_api import total_with_work
    >>> total_with_work(3, 4, False)[0]
    16
    """
    if rows * cols == 1:
        return directed(0, 1, closed), Work()
    run = count_hamiltonian if run is None else run
    found, work = run(schedule(rows, cols), closed, None, _StepSampler(progress))
    return directed(found, rows * cols, closed), work
