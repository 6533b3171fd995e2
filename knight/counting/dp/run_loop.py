"""One run of the frontier dynamic program over a ``Schedule``: build the
arrays each step's kernel trusts, run the steps (partitioned, ``partitioned_step``,
or in parts by hash, ``hash_step``, as the ``StepPolicy`` says), widen the counts when they
outgrow their limbs, report the work.

It validates nothing itself (``knight.counting.driver.prepare`` does).
What the DP computes, and why it is exact, is in
``knight.counting.dp.model.states`` and ``docs/counting-dp.md``.
"""

import shutil
from dataclasses import dataclass, field

import numpy as np

from knight.counting.dp import memory_model, packed_table, table_format
from knight.counting.dp.model import degree_relaxation, states
from knight.counting.dp.model.cell_order import schedule
from knight.counting.dp.policy import StepPolicy
from knight.counting.dp.steps import hash_step, step_choice
from knight.counting.dp.steps.step_arguments import step_arguments
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

    def add(self, other):
        for name in ("held", "emitted", "merged", "dead", "engines"):
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

    def record(self, held, emitted, dead, engine=None):
        """One step's figures (``engine``: the step engine's name, None on a cluster)."""
        self.held.append(int(held))
        self.emitted.append(int(emitted))
        self.merged.append(int(emitted) - int(held))
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
    read that sizes the next step (4 before the first), and the ``Work``."""

    completed: int = 0
    ratio: float = 4.0
    work: Work = field(default_factory=Work)

    def record(self, states_in, held, emitted, dead, found, engine=None):
        """A finished step that read ``states_in`` states and holds ``held``."""
        self.completed += found
        if states_in:
            self.ratio = max(held / states_in, 0.5)
        self.work.record(held, emitted, dead, engine)


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


def count_hamiltonian(
    plan, closed, forced=None, progress=None, state=None, on_step=None, max_limbs=MAX_LIMBS, policy=None, sweep=None
):
    """One DP over ``plan`` (a ``Schedule``): the number of undirected
    Hamiltonian paths (open; with ``forced``, those with that square as an
    end) or cycles (closed). Returns ``(count, work)``.

    ``state``, to resume: ``(step, keys, counts, completed)`` as
    ``on_step`` was given it. ``on_step(step, keys, counts, completed)`` is
    called after each step (checkpoints); ``progress(step, steps, held)``
    too. A step whose counts pass their limbs runs again with twice as
    many; past ``max_limbs`` it is an ``OverflowError``. ``policy``: how
    the steps are taken and in what memory (a ``policy.StepPolicy``; None:
    its defaults). ``sweep``: a ``width_sweep.WidthSweep`` whose relaxation
    the run takes and whose ``before_step`` sees each step's input (every
    narrower board counted on the way); None: none.
    """
    policy = StepPolicy() if policy is None else policy
    # a SIGKILLed run's spill folder goes now, not at the next run that spills
    owned_files.sweep_stale_spill_folders()
    resumed = state is not None
    if state is None:
        keys = np.zeros(1, dtype=np.uint64)
        counts = np.zeros((1, FIRST_LIMBS), dtype=np.uint64)
        counts[0, 0] = 1
        state = (0, keys, counts, 0)
    step, keys, counts, completed = state
    del state  # its arrays are the first step's input only
    relaxation = degree_relaxation.live_patterns if sweep is None else sweep.live_patterns
    live = relaxation(plan, closed, forced, hash_step.step_threads())
    start = degree_relaxation.start_bits(0 if closed else 2)
    if resumed and step < len(plan.order):
        check_resumed(plan, step, keys, closed, forced, live[step - 1] if step else start)
    totals = RunTotals(completed)
    steps = len(plan.order)
    ratios = {}  # states made over states read, by step
    period = min(plan.rows, plan.cols)  # a column's steps: the ratios repeat with it
    folder = []  # the run's spill folder, made on first need

    def spill():
        if not folder:
            folder.append(owned_files.new_spill_folder())
        return folder[0]

    try:
        while step < steps:
            expected = int(keys.shape[0] * totals.ratio) + 1
            high = int(keys.shape[0] * max(totals.ratio, ratios.get(step - period, 0)) * HIGH_MARGIN) + 1
            before = live[step - 1] if step else start
            if sweep is not None:
                sweep.before_step(step, keys, counts, before)
            room = memory_model.step_room(policy)
            if step_choice.out_of_core(high, counts.shape[1], room, policy) and not table_format.is_mapped(keys):
                # the input too leaves memory: the step's chunks get its room
                keys, counts = table_format.to_disk(keys, counts, spill())
                room = memory_model.step_room(policy)
            arguments = step_arguments(plan, step, keys, counts, closed, forced, before, live[step])
            made, engine = step_choice.run_step(arguments, expected, spill, policy, room, high)
            new_keys, new_counts, found, emitted, dead, overflow = made
            del arguments
            if overflow:
                keys, counts = _widen(keys, counts, max_limbs, plan, step)
                continue
            totals.record(keys.shape[0], new_keys.shape[0], emitted, dead, found, engine)
            if keys.shape[0]:
                ratios[step] = totals.ratio
            keys, counts = new_keys, new_counts
            if step:
                live[step - 1] = None  # a bitmap is read by the steps on either side of it only
            step += 1
            if on_step is not None:
                on_step(step, keys, counts, totals.completed)
            if progress is not None:
                progress(step, steps, int(keys.shape[0]))
    finally:
        if folder:
            shutil.rmtree(folder[0], ignore_errors=True)
    return totals.completed, totals.work


def check_resumed(plan, step, keys, closed, forced, before):
    """InvalidArgument if a resumed table holds a key no step makes: the
    step kernel trusts its keys (a file's, here)."""
    forced_slot, _ = plan.forced_place(step, forced)
    reader = packed_table.Reader(keys, keys)  # a packed table decoded a chunk at a time
    while not reader.done():
        first = reader.read
        chunk = reader.take(packed_table.BLOCK_ROWS)[0]
        bad = states.first_malformed(chunk, plan.old_sizes[step], forced_slot, 0 if closed else 2, before)
        if bad >= 0:
            raise InvalidArgument(
                f"its table's state {first + bad} (key {int(chunk[bad])}) is not one that step {step} makes"
            )


def widened_limbs(limbs, max_limbs, plan, step):
    """Twice ``limbs``, the counts' limbs at ``step`` of ``plan`` when one
    carried out of the top limb; OverflowError past ``max_limbs``."""
    if 2 * limbs > max_limbs:
        raise OverflowError(
            f"a count on {plan.rows}x{plan.cols} passed 2^{64 * limbs} - 1 at step {step}: "
            f"the dp carries at most {64 * max_limbs}-bit counts"
        )
    return 2 * limbs


def _widen(keys, counts, max_limbs, plan, step):
    """The table in twice the limbs (``widened_limbs``): a packed one is
    only decoded wider."""
    if isinstance(counts, packed_table.PackedTable):
        wider = counts.widened(widened_limbs(counts.shape[1], max_limbs, plan, step))
        return wider, wider
    wider = np.zeros((counts.shape[0], widened_limbs(counts.shape[1], max_limbs, plan, step)), dtype=np.uint64)
    wider[:, : counts.shape[1]] = counts
    return keys, wider


def compile_kernels():
    """Compile (or load from Numba's cache) the step kernel, every variant
    a count uses, so that no count's ``seconds`` includes it."""
    plan = schedule(3, 4)
    for closed in (False, True):
        count_hamiltonian(plan, closed)
    count_hamiltonian(plan, False, forced=plan.order[0])
