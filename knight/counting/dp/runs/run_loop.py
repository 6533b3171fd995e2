"""This module runs the frontier dynamic program over a ``Schedule``, in one process or on a cluster.

One loop (``run_steps``) does it. The loop keeps the step counter, the ratio
that sizes each step and the ``Work`` (``RunTotals``). It widens the counts
when they outgrow their limbs and runs the step again. It resumes from a
saved state, and it calls the checkpoint hook and the progress function
after each step. A ``StepExecutor`` takes the steps themselves:
``ProcessSteps`` here, each step by the engine that the ``StepPolicy`` picks
(``steps.step_choice``), and ``cluster_run.ClusterSteps`` on Dask.
``count_hamiltonian`` is the loop over ``ProcessSteps``.

It validates nothing itself (``knight.counting.driver.prepare`` does).
What the DP computes, and why it is exact, is in
``knight.counting.dp.model.states`` and ``docs/counting-dp.md``.
"""

import contextlib
import shutil
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

import numpy as np

from knight.counting.dp.model import degree_relaxation, mirror_quotient, states
from knight.counting.dp.model.cell_order import schedule
from knight.counting.dp.planning import memory_model
from knight.counting.dp.planning.policy import StepPolicy
from knight.counting.dp.runs import worker_threads
from knight.counting.dp.steps import hash_step, step_choice
from knight.counting.dp.steps.step_arguments import step_arguments
from knight.counting.dp.steps.step_arrays import StepArrays
from knight.counting.dp.tables import packed_table, table_format
from knight.errors import InvalidArgument
from knight.files import owned_files


@dataclass
class Work:
    """The DP's measure of work, per step: states held after the step,
    successors emitted (each a hash insertion, or an append and a merge), of
    which merged into an existing state, and attempts that died."""

    held: list = field(default_factory=list)
    emitted: list = field(default_factory=list)
    merged: list = field(default_factory=list)
    dead: list = field(default_factory=list)
    # the engine that took each step (``steps.step_choice``'s names; a
    # cluster run's steps name none)
    engines: list = field(default_factory=list)
    # the states held after each step that stand for two, a state and its
    # mirror image (0 where the step keeps every key as it is)
    saved: list = field(default_factory=list)

    def add(self, other):
        for name in ("held", "emitted", "merged", "dead", "engines", "saved"):
            getattr(self, name).extend(getattr(other, name))

    @property
    def states_peak(self):
        return max(self.held, default=0)

    @property
    def transitions(self):
        return int(sum(self.emitted))

    @property
    def merges(self):
        return int(sum(self.merged))

    @property
    def states_saved(self):
        """The states that the mirror quotient saved, summed over the steps."""
        return int(sum(self.saved))

    def record(self, held, emitted, dead, engine=None, saved=0):
        """One step's figures (``engine``: the step engine's name, None on a
        cluster; ``saved``: the states held that stand for two)."""
        held, emitted = int(held), int(emitted)
        self.saved.append(int(saved))
        self.held.append(held)
        self.emitted.append(emitted)
        self.merged.append(emitted - held)
        self.dead.append(int(dead))
        if engine is not None:
            self.engines.append(engine)

    @property
    def out_of_core_steps(self):
        """The steps that ran out of core, their tables through disk."""
        return self.engines.count(step_choice.OUT_OF_CORE)


@dataclass
class RunTotals:
    """What a run carries from step to step, in one process or on a
    cluster: the tours completed, the ratio of states made over states
    read that sizes the next step (4 before the first), that ratio after
    each step that read any (``ratios``, by step), and the ``Work``."""

    completed: int = 0
    ratio: float = 4.0
    work: Work = field(default_factory=Work)
    ratios: dict = field(default_factory=dict)

    def record(self, step, done):
        """Record step ``step``, done as ``done`` (a ``StepDone``) says."""
        self.completed += done.found
        if done.states_in:
            self.ratio = ratio = max(done.held / done.states_in, 0.5)
            self.ratios[step] = ratio
        self.work.record(done.held, done.emitted, done.dead, done.engine, done.saved)


# counts start in one 64-bit limb; a step whose count outgrows them runs
# again with twice as many, up to MAX_LIMBS: as many as any board that
# memory_model.check_count_width lets through can need
FIRST_LIMBS = 1
MAX_LIMBS = memory_model.MAX_COUNT_BITS // 64

# Whether a step fits its room is judged by a high guess of the states it
# makes: the larger of the last step's ratio (states made over states read)
# and that of the step a column before (the ratios repeat with the column:
# on 8 x 8 closed, 1.82 at step 41 after 0.94 at step 40, and 2.38 a column
# before), with this margin. The last ratio alone sent 8 x 8 closed's step
# 41 in memory-sized chunks that made twice the states guessed: 10.3 GiB
# held under a budget of 7
HIGH_MARGIN = 1.25


class StepDone(NamedTuple):
    """What an executor reports of a step it took.

    ``states_in`` states were read and ``held`` are held after it;
    ``emitted`` successors were made, ``dead`` options dropped and ``found``
    tours completed. ``engine`` names the step engine (None on a cluster),
    and ``shown`` is what ``progress`` gets after ``(step, steps, held)``
    (a cluster's rates). ``saved`` of the states held stand for two, a
    state and its mirror image; ``progress`` gets it by name.
    """

    states_in: int
    held: int
    emitted: int
    dead: int
    found: int
    engine: str | None
    shown: tuple
    saved: int = 0


class StepExecutor(Protocol):
    """How the steps of ``run_steps`` are taken: in this process
    (``ProcessSteps``) or on a Dask cluster (``cluster_run.ClusterSteps``).
    The executor holds the run's table between steps, in its own form
    (arrays here, a list of futures on a cluster), reads it from a saved
    state and knows how to save it; the loop never looks inside it."""

    def start(self, state):
        """Hold the table the run starts from: the first one when ``state``
        is None, else the saved one (checked, as untrusted input). Returns
        ``(step, completed)``: the steps it had and the tours they found."""

    def run_step(self, step, totals):
        """Take ``step`` from the held table, sized by ``totals`` (a
        ``RunTotals``: its ``ratio``, ``ratios``). None when a count passed
        its limbs: the table held is unchanged (or moved, not changed), to
        be widened and stepped again. Else the table held is the step's,
        and the answer is a ``StepDone``."""

    def limbs(self):
        """The 64-bit limbs of the held table's counts."""

    def widen(self, limbs):
        """The held table's counts in ``limbs`` limbs, more than they have."""

    @property
    def table(self):
        """The held table, as this executor's checkpoint hooks take it."""

    def close(self):
        """Let go of what the run made outside the table (spill folders,
        work in flight); called once, however the run ends."""


def run_steps(executor, plan, state=None, on_step=None, progress=None, max_limbs=MAX_LIMBS):
    """The one run loop: every step of ``plan`` (a ``Schedule``) by
    ``executor`` (a ``StepExecutor``), from ``state`` (None: the first
    table; else a saved one in the executor's form). It owns the step
    counter, the ``RunTotals``, widening (a step whose counts pass their
    limbs runs again with twice as many; past ``max_limbs`` an
    ``OverflowError``) and the hooks: ``on_step(step, table, completed)``
    after each step (checkpoints; ``table`` as ``executor.table``), then
    ``progress(step, steps, held, *shown, saved=saved)``. Returns
    ``(count, work)``."""
    steps = len(plan.order)
    step, completed = executor.start(state)
    totals = RunTotals(completed)
    try:
        while step < steps:
            made = executor.run_step(step, totals)
            if made is None:
                executor.widen(widened_limbs(executor.limbs(), max_limbs, plan, step))
                continue
            totals.record(step, made)
            step += 1
            if on_step is not None:
                on_step(step, executor.table, totals.completed)
            if progress is not None:
                progress(step, steps, made.held, *made.shown, saved=made.saved)
    finally:
        executor.close()
    return totals.completed, totals.work


def count_hamiltonian(
    plan, closed, forced=None, progress=None, state=None, on_step=None, max_limbs=MAX_LIMBS, policy=None, sweep=None
):
    """Count the Hamiltonian paths or cycles of a board by one run of the frontier DP in this process.

    The count is of undirected paths (open) or cycles (closed), so each tour
    is counted once, not once for each direction. With ``forced``, only the
    paths with that square as an end are counted. A step whose counts
    overflow their limbs runs again with twice as many limbs.

    Parameters
    ----------
    plan : Schedule
        The order in which the DP inserts the board's squares, as
        ``knight.counting.dp.model.cell_order.schedule`` makes it.
    closed : bool
        Whether to count cycles (closed tours) instead of paths (open tours).
    forced : int, optional
        A square, as a 0-based index, that every counted path must end on.
        None counts every path.
    progress : callable, optional
        Called after each step as ``progress(step, steps, held)``, where
        ``held`` is the number of states after the step.
    state : tuple, optional
        The state to resume from, ``(step, keys, counts, completed)``, as
        ``on_step`` was given it. None starts from the first step.
    on_step : callable, optional
        Called after each step as ``on_step(step, keys, counts, completed)``,
        for example to write a checkpoint.
    max_limbs : int, default MAX_LIMBS
        The most 64-bit limbs a count may take.
    policy : StepPolicy, optional
        How the steps are taken and in what memory. None takes the defaults
        of ``StepPolicy``.
    sweep : WidthSweep, optional
        A sweep of every width (``knight.counting.dp.runs.width_sweep``), whose
        relaxation the run takes and whose ``before_step`` sees the input of
        each step. None runs no sweep.

    Returns
    -------
    count : int
        The number of undirected paths or cycles.
    work : Work
        The work of each step: the states held after it, the successors
        emitted and merged, and the engine that took it.

    Raises
    ------
    OverflowError
        If a count needs more than ``max_limbs`` limbs.

    Examples
    --------
    >>> from knight.counting.dp.model.cell_order import schedule
    >>> from knight.harness_api import count_hamiltonian
    >>> count, work = count_hamiltonian(schedule(5, 5), closed=False)
    >>> count
    864
    >>> len(work.held)
    25
    """
    runner = ProcessRunner(StepPolicy() if policy is None else policy, sweep, max_limbs)
    executor = runner.executor(plan, closed, forced)
    hook = None if on_step is None else _arrays_hook(on_step)
    return run_steps(executor, plan, state, hook, progress, max_limbs)


class ProcessRunner:
    """Make the executors of runs in this process, and adapt their checkpoint hooks.

    The engine runs every job through a runner: this one, or a
    ``cluster_run.ClusterRun``. Both offer ``executor``, ``hook``,
    ``guarded`` and ``max_limbs``.
    """

    def __init__(self, policy, sweep=None, max_limbs=MAX_LIMBS):
        self.policy = policy
        self.sweep = sweep
        self.max_limbs = max_limbs

    def executor(self, plan, closed, forced):
        """Return a new ``ProcessSteps`` for one run."""
        return ProcessSteps(plan, closed, forced, self.policy, self.sweep)

    def hook(self, executor, saver):
        """Return the loop's ``on_step`` that saves through ``saver`` (None: no hook)."""
        return None if saver is None else _arrays_hook(saver)

    def guarded(self):
        """Return the context a run of this runner needs: none in this process."""
        return contextlib.nullcontext()


def _arrays_hook(on_step):
    """Return ``on_step(step, keys, counts, completed)`` as ``run_steps`` calls a hook."""

    def hook(step, table, completed):
        on_step(step, table[0], table[1], completed)

    return hook


class ProcessSteps:
    """The ``StepExecutor`` of one process: the table is ``(keys,
    counts)`` arrays, each step taken by the engine ``step_choice`` picks
    for ``policy``; a step that must run out of core first moves its input
    to a spill folder (made on first need, removed at the end); each
    pattern bitmap is freed once the steps on either side of it are done."""

    def __init__(self, plan, closed, forced, policy, sweep=None):
        self.plan, self.closed, self.forced, self.policy = plan, closed, forced, policy
        self.sweep = sweep  # a width_sweep.WidthSweep, or None
        # one state for each mirror pair, where the policy asks for it and the count allows it
        self.quotient = policy.quotient and plan.symmetric(forced)
        # a column's steps: the ratios repeat with it
        self.period = min(plan.rows, plan.cols)
        self.keys = self.counts = self.live = self.start_bits = self._folder = None
        # what the partitioned steps in memory write over, held from step to step
        self.arrays = StepArrays()

    def start(self, state):
        # a SIGKILLed run's spill folder goes now, not at the next run that spills
        owned_files.sweep_stale_spill_folders()
        plan, closed = self.plan, self.closed
        relaxation = degree_relaxation.live_patterns if self.sweep is None else self.sweep.live_patterns
        self.live = relaxation(plan, closed, self.forced, hash_step.step_threads())
        if self.quotient:
            self.live = mirror_quotient.mirror_closed(plan, self.live)
        self.start_bits = degree_relaxation.start_bits(0 if closed else 2)
        if state is None:
            self.keys = np.zeros(1, dtype=np.uint64)
            self.counts = np.zeros((1, FIRST_LIMBS), dtype=np.uint64)
            self.counts[0, 0] = 1
            return 0, 0
        step, self.keys, self.counts, completed = state
        if step < len(plan.order):
            check_resumed(plan, step, self.keys, closed, self.forced, self._before(step), hash_step.step_threads())
        return step, completed

    def _before(self, step):
        return self.live[step - 1] if step else self.start_bits

    def run_step(self, step, totals):
        # per-step Python is counted by the speed guard: locals, one unpacking
        keys = self.keys
        counts = self.counts
        policy = self.policy
        states_in = keys.shape[0]
        ratio = totals.ratio
        expected = int(states_in * ratio) + 1
        high = int(states_in * max(ratio, totals.ratios.get(step - self.period, 0)) * HIGH_MARGIN) + 1
        live = self.live
        before = live[step - 1] if step else self.start_bits
        if self.sweep is not None:
            self.sweep.before_step(step, keys, counts, before)
        arrays = self.arrays
        # the arrays held that the step may write over are room, not memory taken
        room = memory_model.step_room(policy) + arrays.room(keys)
        if step_choice.out_of_core(high, counts.shape[1], room, policy) and not table_format.is_mapped(keys):
            # the input too leaves memory (the held arrays are let go): the step's chunks get its room
            keys, counts = self.keys, self.counts = table_format.to_disk(keys, counts, self._spill())
            arrays.release()
            room = memory_model.step_room(policy)
        arguments = step_arguments(
            self.plan, step, keys, counts, self.closed, self.forced, before, live[step], self.quotient
        )
        made, engine = step_choice.run_step(arguments, expected, self._spill, policy, room, high, arrays)
        if made.overflow:
            return None
        self.keys = made.keys
        self.counts = made.counts
        if step:
            live[step - 1] = None  # a bitmap is read by the steps on either side of it only
        saved = asymmetric_states(made.keys, arguments.mirror, hash_step.step_threads())
        return StepDone(states_in, made.keys.shape[0], made.emitted, made.dead, made.found, engine, (), saved)

    def _spill(self):
        """The run's spill folder, made on first need."""
        if self._folder is None:
            self._folder = owned_files.new_spill_folder()
        return self._folder

    def limbs(self):
        return self.counts.shape[1]

    def widen(self, limbs):
        counts = self.counts
        if isinstance(counts, packed_table.PackedTable):
            # a packed table is only decoded wider: it is its own keys
            self.keys = self.counts = counts.widened(limbs)
            return
        self.counts = wider_counts(counts, limbs)

    @property
    def table(self):
        return self.keys, self.counts

    def close(self):
        self.arrays.release()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None


def asymmetric_states(keys, mirror, threads=1):
    """How many of the table ``keys`` (arrays, or a packed table) stand for
    two states, a state and its mirror image, after a step whose
    reflection is ``mirror`` (``StepArguments.mirror``; none: 0). The
    chunks are counted on ``threads`` threads."""
    if not mirror[1]:
        return 0

    def asymmetric(chunk):
        return states.asymmetric_states(chunk[1](), mirror)

    chunks = packed_table.key_chunks(keys, packed_table.BLOCK_ROWS)
    batch = 4 * threads  # chunks in flight: each is decoded, a few MiB
    return sum(
        sum(worker_threads.map_all(asymmetric, chunks[start : start + batch], threads=threads))
        for start in range(0, len(chunks), batch)
    )


def check_resumed(plan, step, keys, closed, forced, before, threads=1):
    """InvalidArgument if a resumed table holds a key no step makes: the
    step kernel trusts its keys (a file's, here). Its chunks are checked on
    ``threads`` threads (the check releases the GIL; on one, 8 x 8 open's
    two billion keys took minutes); the first bad state in the table's
    order is the one named."""
    forced_slot, _ = plan.forced_place(step, forced)
    old_size, tour_ends = plan.old_sizes[step], 0 if closed else 2

    def first_bad(chunk):
        first, read = chunk
        part = read()
        bad = states.first_malformed(part, old_size, forced_slot, tour_ends, before)
        return None if bad < 0 else (first + bad, int(part[bad]))

    chunks = packed_table.key_chunks(keys, packed_table.BLOCK_ROWS)
    batch = 4 * threads  # chunks in flight: each is decoded, a few MiB
    for start in range(0, len(chunks), batch):
        for found in worker_threads.map_all(first_bad, chunks[start : start + batch], threads=threads):
            if found is not None:
                raise InvalidArgument(
                    f"its table's state {found[0]} (key {found[1]}) is not one that step {step} makes"
                )


def wider_counts(counts, limbs):
    """Dense ``counts`` in ``limbs`` limbs (as many or more), the new high
    limbs zero: a table's counts after ``widened_limbs``."""
    wider = np.zeros((counts.shape[0], limbs), dtype=np.uint64)
    wider[:, : counts.shape[1]] = counts
    return wider


def widened_limbs(limbs, max_limbs, plan, step):
    """Twice ``limbs``, the counts' limbs at ``step`` of ``plan`` when one
    carried out of the top limb; OverflowError past ``max_limbs``."""
    if 2 * limbs > max_limbs:
        raise OverflowError(
            f"a count on {plan.rows}x{plan.cols} passed 2^{64 * limbs} - 1 at step {step}: "
            f"the dp carries at most {64 * max_limbs}-bit counts"
        )
    return 2 * limbs


def compile_kernels():
    """Compile (or load from Numba's cache) the step kernel, every variant
    a count uses, so that no count's ``seconds`` includes it."""
    plan = schedule(3, 4)
    for closed in (False, True):
        count_hamiltonian(plan, closed)
    count_hamiltonian(plan, False, forced=plan.order[0])
