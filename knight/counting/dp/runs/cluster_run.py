"""This module runs the frontier DP on a Dask cluster.

Each step's table is split into ``parts`` partitions, which the workers hold
as futures and step where they lie. Dask exchanges the successors from
worker to worker.

A step, for ``S`` source partitions and ``P`` target parts:

* ``S`` *source* tasks, each on the worker holding its partition: the
  single-process step kernel (``hash_kernels.frontier_step``, one call, all
  successors) and a split of what it made into ``P`` pieces by a hash of
  the key (``table_merge``: one decode of each state at any ``P``, where
  the kernel's own pattern parts would decode the table ``P`` times);
* ``S x P`` *piece* tasks (an item of a source's result, run beside it),
  so that a target fetches only its own piece of each source;
* ``P`` *merge* tasks, target ``j`` on worker ``j mod W`` (a loose
  restriction: any worker takes it when that one is gone), adding the
  counts of equal keys from different sources (``table_merge``,
  carry-checked). Dask moves the pieces between the workers; nothing but
  small summaries (states, transitions, bytes, seconds per worker, the
  tours completed, as Python ints) comes back to the client.

Equal keys hash alike, so the targets never share a state: they are the
next step's partitions as they stand.

The run is the one run loop's (``run_loop.run_steps``: the ratio, the
``Work``, widening, resume, the hooks), its steps ``ClusterSteps``'s.
Exactness, as in one process: a carry out of the top limb anywhere (the
kernel's or a merge's) makes the loop run the step again from the
previous partitions with twice the limbs; the tours completed are summed
as ints.

The pattern bitmaps (``degree_relaxation.live_patterns``) are computed on
each worker, once a run, not scattered from the client: every partition is
then a task's result, and Dask can recompute any of them from its lineage.
A worker lost mid-step leaves the step's futures to Dask, which reruns the
lost tasks (those partitions the dead worker held, from theirs); an error
that still reaches the client (a task killed on too many workers) makes
the step run again from the previous step's partitions, kept until the
next step is complete, up to ``STEP_ATTEMPTS`` times; then the count
fails in one line (``ClusterLost``, an ``OSError``). Every wait on the
cluster is bounded (``cluster.cluster_faults.Watch``): a cluster with no
worker left, or no scheduler, ends the count in one line too, and so does
every failure of Dask's (``translated``). Never a wrong count: no partial
answer is ever used.
"""

import hashlib
import io
import math
import os
import threading
import time
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from knight.counting.cluster.cluster_faults import Watch, is_lost_work, lost, translated
from knight.counting.dp.model import degree_relaxation, mirror_quotient
from knight.counting.dp.model.cell_order import schedule
from knight.counting.dp.planning import memory_model
from knight.counting.dp.runs import run_loop
from knight.counting.dp.runs.run_loop import FIRST_LIMBS, MAX_LIMBS, check_resumed, wider_counts
from knight.counting.dp.steps import hash_kernels, hash_step
from knight.counting.dp.steps.step_arguments import step_arguments
from knight.counting.dp.steps.step_made import from_limbs
from knight.counting.dp.tables import table_kernels
from knight.counting.dp.tables.table_merge import merge_tables, split_table
from knight.errors import InvalidArgument
from knight.files import atomic_write

STEP_ATTEMPTS = 3
# what a step's source tasks report, summed over them for the run loop
_FIGURES = ("states_in", "emitted", "dead", "found")


# --- on the workers ----------------------------------------------------------

_context_lock = threading.Lock()
_contexts = {}


def _context(rows, cols, closed, forced):
    """This worker's plan and live-pattern bitmaps for a run, computed on
    first need and kept (one run at a time: the previous one is freed);
    with the options of the step last asked for."""
    wanted = (rows, cols, closed, forced)
    with _context_lock:
        if wanted not in _contexts:
            _contexts.clear()
            plan = schedule(rows, cols)
            live = degree_relaxation.live_patterns(plan, closed, forced, 1)
            # a cluster's run keeps one state for each mirror pair wherever its count is symmetric
            quotient = plan.symmetric(forced)
            if quotient:
                live = mirror_quotient.mirror_closed(plan, live)
            _contexts[wanted] = {"plan": plan, "live": live, "quotient": quotient, "step": None, "rest": None}
        return _contexts[wanted]


def _step_rest(rows, cols, closed, forced, step):
    """``step_arguments`` for ``step`` on an empty table: made once a
    step on each worker, however many partitions it steps."""
    context = _context(rows, cols, closed, forced)
    with _context_lock:
        if context["step"] != step:
            plan, live = context["plan"], context["live"]
            before = live[step - 1] if step else degree_relaxation.start_bits(0 if closed else 2)
            empty_keys, empty_counts = np.zeros(0, dtype=np.uint64), np.zeros((0, 1), dtype=np.uint64)
            arguments = step_arguments(
                plan, step, empty_keys, empty_counts, closed, forced, before, live[step], context["quotient"]
            )
            context["step"], context["rest"] = step, arguments
        return context["rest"]


def _worker_name():
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return "local"


def first_partition(limbs):
    """The table before the first step: the empty frontier, one way."""
    counts = np.zeros((1, limbs), dtype=np.uint64)
    counts[0, 0] = 1
    return np.zeros(1, dtype=np.uint64), counts, {}


def step_source(partition, rows, cols, closed, forced, step, parts, ratio):
    """Step one partition (``(keys, counts, summary)``): its successors in
    ``parts`` pieces by key, and what the step did, as
    ``(pieces, stats)``."""
    began = time.perf_counter()
    keys, counts = partition[0], partition[1]
    rest = _step_rest(rows, cols, closed, forced, step)
    bits = table_kernels.capacity_bits(int(keys.shape[0] * ratio) + 1, hash_step.MIN_CAPACITY_BITS)
    made = hash_kernels.frontier_step(*rest.with_table(keys, counts), bits, 0, 1)
    if made.strays:
        raise AssertionError(f"{made.strays} dp states have a pattern the relaxation calls dead")
    pieces = split_table(made.keys, made.counts, parts)
    stats = {
        "worker": _worker_name(),
        "seconds": time.perf_counter() - began,
        "found": from_limbs(made.completed),
        "emitted": int(made.emitted),
        "dead": int(made.dead),
        "overflow": int(made.overflow),
        "states_in": int(keys.shape[0]),
    }
    return pieces, stats


def piece_of(source, part):
    """Piece ``part`` of a source's result, as ``(keys, counts, stats,
    maker)``: the source's stats ride with piece 0 only (counted once,
    with no extra round trip)."""
    pieces, stats = source
    keys, counts = pieces[part]
    return keys, counts, stats if part == 0 else None, stats["worker"]


def merge_part(pieces, limbs):
    """One target partition from its pieces: ``(keys, counts, summary)``."""
    began = time.perf_counter()
    keys, counts, overflow = merge_tables([(piece[0], piece[1]) for piece in pieces], limbs)
    here = _worker_name()
    moved = sum(piece[0].nbytes + piece[1].nbytes for piece in pieces if piece[3] != here)
    summary = {
        "worker": here,
        "seconds": time.perf_counter() - began,
        "held": int(keys.shape[0]),
        "overflow": overflow,
        "moved": int(moved),
        "bytes": int(keys.nbytes + counts.nbytes),
        "sources": [piece[2] for piece in pieces if piece[2] is not None],
    }
    return keys, counts, summary


def summary_of(partition):
    return partition[2]


def save_partition(partition, folder, name):
    """Write a partition to ``folder``/``name`` (atomically: a kill leaves
    the old file or the new one); ``{"file", "sha256", "states"}`` of what
    was written, the checksum over the file's bytes."""
    keys, counts = partition[0], partition[1]
    buffer = io.BytesIO()
    np.savez(buffer, keys=keys, counts=counts)
    data = buffer.getbuffer()
    # a failure (a full disk, a folder the worker cannot reach) is an OSError naming the file
    atomic_write.replace(os.path.join(folder, name), lambda file: file.write(data), binary=True)
    return {"file": name, "sha256": hashlib.sha256(data).hexdigest(), "states": int(keys.shape[0])}


def load_partition(folder, saved, limbs, rows, cols, closed, forced, step):
    """A partition from its file (``saved``: what ``save_partition``
    returned), as ``(keys, counts, summary)``: InvalidArgument naming the
    file if it is missing, does not match its checksum, or holds a table
    that is not one the step kernel may trust (``run_loop.check_resumed``)."""
    path = os.path.join(folder, saved["file"])
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as error:
        raise InvalidArgument(f"partition file {path} cannot be read: {error.strerror or error}") from None
    if hashlib.sha256(data).hexdigest() != saved["sha256"]:
        raise InvalidArgument(f"partition file {path} does not match its checksum")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            keys, counts = arrays["keys"], arrays["counts"]
    except Exception:
        raise InvalidArgument(f"partition file {path} is not a table of the dp's") from None
    if not (
        keys.dtype == np.uint64
        and keys.ndim == 1
        and keys.shape[0] == saved["states"]
        and counts.dtype == np.uint64
        and counts.shape == (keys.shape[0], limbs)
    ):
        raise InvalidArgument(f"partition file {path}: its arrays have the wrong shape or type")
    context = _context(rows, cols, closed, forced)
    plan, live = context["plan"], context["live"]
    if step < len(plan.order):
        before = live[step - 1] if step else degree_relaxation.start_bits(0 if closed else 2)
        try:
            check_resumed(plan, step, keys, closed, forced, before)
        except InvalidArgument as error:
            raise InvalidArgument(f"partition file {path}: {error}") from None
    return keys, np.ascontiguousarray(counts), {"states": int(keys.shape[0])}


def widened(partition, limbs):
    """A partition's counts in ``limbs`` limbs (more than it has)."""
    keys, counts, summary = partition
    return keys, wider_counts(counts, limbs), summary


# --- on the client -----------------------------------------------------------


def cluster_workers(client):
    """The scheduler's workers now, ``{address: info}`` (``Watch.workers``:
    fetched afresh, within a bound)."""
    return Watch(client, client.scheduler.address).workers()


def default_parts(client):
    """One partition per worker thread of the cluster."""
    return max(1, sum(int(info.get("nthreads", 1)) for info in cluster_workers(client).values()))


def check_cluster_fits(client, rows, cols, closed, parts):
    """Refuse, before the run, a board whose projected partitions do not
    fit the smallest worker's memory limit: each worker holds about
    ``ceil(parts / workers)`` of the ``parts`` partitions at the peak
    (``memory_model``'s bytes a state), beside its pattern bitmaps."""
    memory_model.check_fits(rows, cols, math.inf, closed)  # the frontier's width alone: memory is checked below
    workers = cluster_workers(client)
    if not workers:
        return
    limits = {address: int(info.get("memory_limit") or 0) for address, info in workers.items()}
    limited = {address: limit for address, limit in limits.items() if limit > 0}
    if not limited:
        return
    smallest = min(limited, key=limited.get)
    states = memory_model.projected_peak_states(rows, cols, closed)
    share = math.ceil(parts / len(workers)) / parts
    bitmaps = memory_model.bitmap_bytes(rows, cols, closed)
    needed = states * share * memory_model.BYTES_PER_STATE + bitmaps
    if needed > limited[smallest]:
        raise InvalidArgument(
            f"board {rows}x{cols} needs about {needed / 2**30:.1f} GiB a worker for the dp's partitions "
            f"(~{states:.2g} states over {parts} partitions on {len(workers)} workers, and "
            f"{bitmaps / 2**30:.1f} GiB of pattern bitmaps), more than the {limited[smallest] / 2**30:.1f} GiB "
            f"memory limit of worker {smallest}"
        )


class ClusterRun:
    """Run the frontier DP on a Dask cluster, called as ``count_hamiltonian`` is.

    An instance is called as ``run(plan, closed, forced, progress)`` and
    returns ``(count, work)``. It splits each step's table into ``parts``
    partitions held on the workers, and steps them by the one run loop
    (``run_loop.run_steps``). After a run, ``steps`` holds each step's
    summary: its states, transitions, bytes moved, seconds and transitions
    a second per worker, and wall seconds. ``reruns`` counts the steps run
    again after lost work. A ``progress`` function is called as
    ``progress(step, steps, held, rates)``, where ``rates`` maps each worker's
    address to its transitions a second.

    Parameters
    ----------
    client : distributed.Client
        The client of the cluster.
    parts : int, optional
        The number of partitions of each step's table. None means one for
        each worker thread.
    max_limbs : int, default MAX_LIMBS
        The most 64-bit limbs a count may take.
    on_step : callable, optional
        Called on the client as ``on_step(step)`` after each completed step.

    Raises
    ------
    InvalidArgument
        If ``parts`` is less than 1.

    See Also
    --------
    count_hamiltonian : The same run in this process.

    Examples
    --------
    The example is not run by the tests, since it starts a cluster.

    >>> from distributed import Client, LocalCluster  # doctest: +SKIP
    >>> from knight.counting.dp.model.cell_order import schedule
    >>> from knight.harness_api import ClusterRun
    >>> with LocalCluster(n_workers=2) as cluster, Client(cluster) as client:  # doctest: +SKIP
    ...     count, work = ClusterRun(client, parts=2)(schedule(5, 5), closed=False)
    >>> count  # doctest: +SKIP
    864
    """

    def __init__(self, client, parts=None, max_limbs=MAX_LIMBS, on_step=None):
        self.client = client
        self.watch = Watch(client, client.scheduler.address)
        self.parts = default_parts(client) if parts is None else int(parts)
        if self.parts < 1:
            raise InvalidArgument(f"parts must be at least 1, got {parts}")
        self.max_limbs = max_limbs
        self.on_step = on_step
        self.steps = []
        self._executors = []

    def executor(self, plan, closed, forced):
        """Return a new ``ClusterSteps`` for one run of the DP on the cluster.

        The runner keeps the executor, so that ``steps`` and ``reruns``
        report the work of its run.

        Parameters
        ----------
        plan : Schedule
            The order in which the DP inserts the board's squares, as
            ``knight.counting.dp.model.cell_order.schedule`` makes it.
        closed : bool
            Whether to count cycles (closed tours) instead of paths (open tours).
        forced : int or None
            A square, as a 0-based index, that every counted path must end
            on. None counts every path.

        Returns
        -------
        ClusterSteps
            The executor whose steps ``run_loop.run_steps`` takes.

        Examples
        --------
        The example is not run by the tests, since it starts a cluster.

        >>> from distributed import Client, LocalCluster  # doctest: +SKIP
        >>> from knight.counting.dp.model.cell_order import schedule
        >>> from knight.harness_api import ClusterRun
        >>> client = Client(LocalCluster(n_workers=2))  # doctest: +SKIP
        >>> from knight.counting.dp.runs.run_loop import run_steps
        >>> runner = ClusterRun(client, parts=2)  # doctest: +SKIP
        >>> executor = runner.executor(schedule(5, 5), closed=False, forced=None)  # doctest: +SKIP
        >>> count, work = run_steps(executor, schedule(5, 5))  # doctest: +SKIP
        >>> count, len(runner.steps)  # doctest: +SKIP
        (864, 25)
        """
        executor = ClusterSteps(self.client, self.watch, self.parts, plan, closed, forced)
        self.steps = executor.steps
        self._executors.append(executor)
        return executor

    @property
    def reruns(self):
        """The steps run again after lost work, over every run of this runner.

        Returns
        -------
        int
            The number of steps that ran again. It is 0 when no work was lost.

        Examples
        --------
        The example is not run by the tests, since it starts a cluster.

        >>> from distributed import Client, LocalCluster  # doctest: +SKIP
        >>> from knight.counting.dp.model.cell_order import schedule
        >>> from knight.harness_api import ClusterRun
        >>> client = Client(LocalCluster(n_workers=2))  # doctest: +SKIP
        >>> runner = ClusterRun(client, parts=2)  # doctest: +SKIP
        >>> count, work = runner(schedule(5, 5), closed=False)  # doctest: +SKIP
        >>> runner.reruns  # doctest: +SKIP
        0
        """
        return sum(executor.reruns for executor in self._executors)

    def hook(self, executor, saver):
        """Return the function that the run loop calls after each step of a run.

        The function saves the table through ``saver`` when a save is due,
        except after the last step. It then calls this runner's own
        ``on_step``.

        Parameters
        ----------
        executor : ClusterSteps
            The executor of the run, as ``executor`` made it.
        saver : PartsSaver or None
            The checkpoint that the workers save the partitions through.
            None saves nothing.

        Returns
        -------
        callable or None
            The loop's ``on_step(step, table, completed)``. None when there
            is neither a ``saver`` nor an ``on_step`` to call.

        Examples
        --------
        The example is not run by the tests, since it starts a cluster.

        >>> from distributed import Client, LocalCluster  # doctest: +SKIP
        >>> from knight.counting.dp.model.cell_order import schedule
        >>> from knight.harness_api import ClusterRun
        >>> client = Client(LocalCluster(n_workers=2))  # doctest: +SKIP
        >>> runner = ClusterRun(client, parts=2)  # doctest: +SKIP
        >>> executor = runner.executor(schedule(5, 5), closed=False, forced=None)  # doctest: +SKIP
        >>> print(runner.hook(executor, None))  # doctest: +SKIP
        None
        >>> called = ClusterRun(client, on_step=print).hook(executor, None)  # doctest: +SKIP
        >>> called(1, executor.table, 0)  # doctest: +SKIP
        1
        """
        return self._hook(executor, saver, len(executor.plan.order))

    def guarded(self):
        """Return the context in which a run on the cluster takes its steps.

        Inside the context, whatever Dask raises on losing work becomes a
        ``ClusterLost`` that names the cluster. Every other error passes
        through unchanged.

        Returns
        -------
        contextlib.AbstractContextManager
            The context that turns Dask's failures into a ``ClusterLost``.

        Examples
        --------
        The example is not run by the tests, since it starts a cluster.

        >>> from distributed import Client, LocalCluster  # doctest: +SKIP
        >>> from knight.counting.dp.model.cell_order import schedule
        >>> from knight.harness_api import ClusterRun
        >>> client = Client(LocalCluster(n_workers=2))  # doctest: +SKIP
        >>> from knight.counting.dp.runs.run_loop import run_steps
        >>> runner = ClusterRun(client, parts=2)  # doctest: +SKIP
        >>> with runner.guarded():  # doctest: +SKIP
        ...     executor = runner.executor(schedule(5, 5), closed=False, forced=None)
        ...     count, work = run_steps(executor, schedule(5, 5))
        >>> count  # doctest: +SKIP
        864
        """
        return translated(self.watch.where)

    def __call__(self, plan, closed, forced=None, progress=None, state=None, on_step=None):
        """Run the DP once on the cluster and return ``(count, work)``.

        ``state``: a ``cluster_checkpoint.SavedParts`` to resume from;
        ``on_step``: a ``cluster_checkpoint.PartsSaver`` to save through.
        Whatever Dask raises on losing the cluster is a ``ClusterLost``.
        """
        with self.guarded():
            executor = self.executor(plan, closed, forced)
            return run_loop.run_steps(executor, plan, state, self.hook(executor, on_step), progress, self.max_limbs)

    def _hook(self, executor, saver, steps):
        """The loop's ``on_step``: the table saved through ``saver`` when
        one is due (not after the last step: the run's count is), then this
        run's own ``on_step``."""
        if saver is None and self.on_step is None:
            return None
        client_hook = self.on_step

        def hook(step, table, completed):
            if saver is not None and step < steps and saver.due():
                executor.save(saver, step, table, completed)
            if client_hook is not None:
                client_hook(step)

        return hook


class ClusterSteps:
    """The ``StepExecutor`` of a Dask cluster (``run_loop.StepExecutor``):
    the table is a list of futures, one a partition, on the workers; a
    step's tasks are submitted, and the next step's go in before this one's
    summaries are gathered (the workers chain the two without waiting on
    the client's round trip). Lost work reruns the step from the partitions
    it read, up to ``STEP_ATTEMPTS`` times a step; a resumed table is
    loaded, and saved, by the workers (``load_partition``,
    ``save_partition``)."""

    def __init__(self, client, watch, parts, plan, closed, forced):
        self.client, self.watch, self.parts = client, watch, parts
        self.plan, self.closed, self.forced = plan, closed, forced
        self.rows, self.cols = plan.rows, plan.cols
        self.steps = []  # each step's summary (``_step_summary``)
        self.reruns = 0
        self.sources = None  # the partitions held: the table
        self._limbs = FIRST_LIMBS
        self._ahead = None  # the next step, launched from ``sources``
        self._failures = 0  # this step's losses so far
        self._workers = sorted(watch.workers())

    def start(self, state):
        if state is None:
            self.sources = [self.client.submit(first_partition, self._limbs, pure=False)]
            return 0, 0
        self._limbs = state.limbs
        self.sources = self._load(state)
        return state.step, state.completed

    def run_step(self, step, totals):
        current, self._ahead = self._ahead, None
        if current is None:
            current = self._launch(step, self.sources, totals.ratio)
        while True:
            # the next step goes in before this one's summaries are back
            # (dropped if this one must run again)
            ahead = self._launch(step + 1, current.targets, totals.ratio) if step + 1 < len(self.plan.order) else None
            try:
                summaries = self.watch.gather(current.summaries)
                break
            except Exception as error:  # sorted by is_lost_work: a task's own error is raised
                if not is_lost_work(error):
                    raise
                self._count_failure(step, error)
                self._workers = sorted(self.watch.workers())
                current = self._launch(step, current.sources, totals.ratio)
        stats = [source for summary in summaries for source in summary["sources"]]
        if any(item["overflow"] for item in stats) or any(summary["overflow"] for summary in summaries):
            return None
        self._failures = 0
        held = self._record(current, stats, summaries)
        # the partitions read (current.sources) are let go: the step is done
        self.sources, self._ahead = current.targets, ahead
        states_in, emitted, dead, found = (sum(item[name] for item in stats) for name in _FIGURES)
        return run_loop.StepDone(states_in, held, emitted, dead, found, None, (self.steps[-1]["rates"],))

    def limbs(self):
        return self._limbs

    def widen(self, limbs):
        self._limbs = limbs
        self.sources = [self.client.submit(widened, source, limbs, pure=False) for source in self.sources]

    @property
    def table(self):
        return self.sources

    def close(self):
        self.sources = self._ahead = None

    def _load(self, saved):
        """The partitions of a checkpoint, read by the workers (file ``j``
        on worker ``j mod W``), every file checked before any step runs:
        the next step splits them into ``self.parts`` by key hash, however
        many there were."""
        workers = self._workers
        loaded = [
            self.client.submit(
                load_partition,
                saved.folder,
                part,
                saved.limbs,
                self.rows,
                self.cols,
                self.closed,
                self.forced,
                saved.step,
                pure=False,
                workers=[workers[index % len(workers)]] if workers else None,
                allow_other_workers=bool(workers),
            )
            for index, part in enumerate(saved.parts)
        ]
        # a bad file is an InvalidArgument here, raised before any step
        self.watch.gather([self.client.submit(summary_of, partition, pure=False) for partition in loaded])
        return loaded

    def save(self, saver, step, table, completed):
        """The workers write ``table``, the partitions after ``step``; then
        the checkpoint names them (and the files it named before are
        removed)."""
        folder = saver.folder()
        written = [
            self.client.submit(save_partition, target, folder, saver.name(step, part), pure=False)
            for part, target in enumerate(table)
        ]
        try:
            parts = self.watch.gather(written)
        except Exception as error:
            if not is_lost_work(error) or isinstance(error, OSError):
                raise
            return  # the work was lost, not the files' writing: the last checkpoint stands, the next save is due
        saver.record(step, completed, self._limbs, parts)

    def _launch(self, step, sources, ratio):
        targets = self._submit_step(sources, step, ratio)
        summaries = [self.client.submit(summary_of, target, pure=False) for target in targets]
        return _Launched(step, sources, targets, summaries, time.perf_counter())

    def _count_failure(self, step, error):
        self._failures += 1
        self.reruns += 1
        if self._failures >= STEP_ATTEMPTS:
            # errno, reason and the cluster's address, as the command line
            # prints an OSError: "ADDRESS: REASON"
            raise lost(
                self.watch.where,
                f"lost step {step} of the {self.rows}x{self.cols} dp {self._failures} times "
                f"({type(error).__name__}): no count",
            ) from None

    def _record(self, current, stats, summaries):
        """A finished step's summary into ``self.steps``; returns the
        states it holds."""
        held = sum(summary["held"] for summary in summaries)
        emitted = sum(item["emitted"] for item in stats)
        now = time.perf_counter()
        began = max(current.began, self.steps[-1]["done_at"]) if self.steps else current.began
        summary = _step_summary(current.step + 1, held, emitted, stats, summaries, now - began)
        summary["done_at"] = now
        self.steps.append(summary)
        return held

    def _submit_step(self, sources, step, ratio):
        client, parts, workers = self.client, self.parts, self._workers
        rows, cols, closed, forced = self.rows, self.cols, self.closed, self.forced
        made = [
            client.submit(step_source, source, rows, cols, closed, forced, step, parts, ratio, pure=False)
            for source in sources
        ]
        pieces = [[client.submit(piece_of, source, part, pure=False) for source in made] for part in range(parts)]
        # target j on worker j mod W keeps the partitions spread (Dask alone
        # would put a merge where most of its input lies); loosely, so that
        # another takes it when that worker is gone
        return [
            client.submit(
                merge_part,
                pieces[part],
                self._limbs,
                pure=False,
                workers=[workers[part % len(workers)]] if workers else None,
                allow_other_workers=bool(workers),
            )
            for part in range(parts)
        ]


@dataclass
class _Launched:
    """One step submitted: the partitions it reads (kept for a rerun),
    the ones it makes, their summaries' futures, when it went in."""

    step: int
    sources: list
    targets: list
    summaries: list
    began: float


def _step_summary(step, held, emitted, stats, summaries, seconds):
    """What the client keeps of a step: totals, and per worker its seconds
    of task time (``busy``) and ``rates``: the transitions its step tasks
    made per second of its task time (steps and merges)."""
    busy, made = defaultdict(float), defaultdict(int)
    for item in stats:
        busy[item["worker"]] += item["seconds"]
        made[item["worker"]] += item["emitted"]
    for summary in summaries:
        busy[summary["worker"]] += summary["seconds"]
    return {
        "step": step,
        "states": held,
        "transitions": emitted,
        "seconds": seconds,
        "moved": sum(summary["moved"] for summary in summaries),
        "bytes": sum(summary["bytes"] for summary in summaries),
        "step_seconds": sum(item["seconds"] for item in stats),
        "merge_seconds": sum(summary["seconds"] for summary in summaries),
        "busy": dict(busy),
        "rates": {worker: made[worker] / seconds for worker, seconds in busy.items() if seconds > 0},
    }
