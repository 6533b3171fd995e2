"""One run of the frontier dynamic program over a ``Schedule``: build the
arrays each step's kernel trusts, run the steps (partitioned, ``partitioned_step``,
or in parts by hash, ``hash_step``: ``TABLE``), widen the counts when they
outgrow their limbs, report the work.

It validates nothing itself (``knight.counting.driver.prepare`` does).
What the DP computes, and why it is exact, is in
``knight.counting.dp.model.states`` and ``docs/counting-dp.md``.
"""

import shutil
from dataclasses import dataclass, field

import numpy as np

from knight import machine, owned_files
from knight.counting.dp import memory_model, table_format, table_kernels
from knight.counting.dp.model import degree_relaxation, states
from knight.counting.dp.model.cell_order import schedule
from knight.counting.dp.steps import hash_step, out_of_core_step, partitioned_step
from knight.errors import InvalidArgument


@dataclass
class Work:
    """The DP's measure of work, per step: states held after the step,
    successors emitted (each a hash insertion, or an append and a merge), of
    which merged into an existing state, and attempts that died."""

    held: list = field(default_factory=list)
    emitted: list = field(default_factory=list)
    merged: list = field(default_factory=list)
    dead: list = field(default_factory=list)

    def add(self, other):
        for name in ("held", "emitted", "merged", "dead"):
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


# counts start in one 64-bit limb; a step whose count outgrows them runs
# again with twice as many, up to MAX_LIMBS: as many as any board that
# memory_model.check_count_width lets through can need
FIRST_LIMBS = 1
MAX_LIMBS = memory_model.MAX_COUNT_BITS // 64

# how a step merges its successors: "partitioned" (partitioned_step:
# sequential buffers reduced in cache-sized tables), "hash" (hash_step: one
# hash table per thread, the step before it), or "auto": partitioned for a
# step expected to make at least PARTITIONED_STATES states, hash below.
# Both stay callable so that one run can compare them. Measured
# (docs/measurements.md): where the tables fit in cache (6 x 6
# open, 0.36 M states at most) the hash step was 4% faster; past them
# (7 x 7 open, 7 x 8 closed) the partitioned one 1.1-2.7x. Past memory,
# steps go to disk in shards of the hash step either way
TABLE = "auto"
TABLES = ("auto", "partitioned", "hash")
# a million states: 16-32 MB of tables at one limb, past any core's L2
PARTITIONED_STATES = 1_000_000

# what a partitioned step may take of the memory available as it starts,
# with no budget given (``--memory``): the rest is the system's and the
# page cache's. A step whose tables would take more runs out of core
# (``out_of_core_step``), its tables on disk
FREE_SHARE = 0.75
# Whether a step fits its room is judged by a high guess of the states it
# makes: the larger of the last step's ratio (states made over states read)
# and that of the step a column before (the ratios repeat with the column:
# on 8 x 8 closed, 1.82 at step 41 after 0.94 at step 40, and 2.38 a column
# before), with this margin. The last ratio alone sent 8 x 8 closed's step
# 41 in memory-sized chunks that made twice the states guessed: 10.3 GiB
# held under a budget of 7
HIGH_MARGIN = 1.25
# the room a step is given however little is left of the budget: its
# chunks' tables need some (the budget is then passed by this much)
MIN_ROOM = 32 << 20


def count_hamiltonian(
    plan, closed, forced=None, progress=None, state=None, on_step=None, max_limbs=MAX_LIMBS, memory=None
):
    """One DP over ``plan`` (a ``Schedule``): the number of undirected
    Hamiltonian paths (open; with ``forced``, those with that square as an
    end) or cycles (closed). Returns ``(count, work)``.

    ``state``, to resume: ``(step, keys, counts, completed)`` as
    ``on_step`` was given it. ``on_step(step, keys, counts, completed)`` is
    called after each step (checkpoints); ``progress(step, steps, held)``
    too. A step whose counts pass their limbs runs again with twice as
    many; past ``max_limbs`` it is an ``OverflowError``. ``memory``: the
    bytes of anonymous memory (``RssAnon``) the run may hold, None for
    ``FREE_SHARE`` of what is available at each step; steps past it run
    out of core.
    """
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
    live = degree_relaxation.live_patterns(plan, closed, forced, hash_step.step_threads())
    start = degree_relaxation.start_bits(0 if closed else 2)
    if resumed and step < len(plan.order):
        check_resumed(plan, step, keys, closed, forced, live[step - 1] if step else start)
    work = Work()
    steps = len(plan.order)
    ratio = 4.0
    ratios = {}  # states made over states read, by step
    period = min(plan.rows, plan.cols)  # a column's steps: the ratios repeat with it
    folder = []  # the run's spill folder, made on first need

    def spill():
        if not folder:
            folder.append(owned_files.new_spill_folder())
        return folder[0]

    try:
        while step < steps:
            expected = int(keys.shape[0] * ratio) + 1
            high = int(keys.shape[0] * max(ratio, ratios.get(step - period, 0)) * HIGH_MARGIN) + 1
            before = live[step - 1] if step else start
            room = step_room(memory)
            if _out_of_core(high, counts.shape[1], room) and not table_format.is_mapped(keys):
                # the input too leaves memory: the step's chunks get its room
                keys, counts = table_format.to_disk(keys, counts, spill())
                room = step_room(memory)
            arguments = step_arguments(plan, step, keys, counts, closed, forced, before, live[step])
            new_keys, new_counts, found, emitted, dead, overflow = run_step(
                arguments, expected, spill, room=room, high=high
            )
            del arguments
            if overflow:
                counts = _widen(counts, max_limbs, plan, step)
                continue
            completed += found
            if keys.shape[0]:
                ratio = ratios[step] = max(new_keys.shape[0] / keys.shape[0], 0.5)
            keys, counts = new_keys, new_counts
            if step:
                live[step - 1] = None  # a bitmap is read by the steps on either side of it only
            step += 1
            work.held.append(int(keys.shape[0]))
            work.emitted.append(int(emitted))
            work.merged.append(int(emitted) - int(keys.shape[0]))
            work.dead.append(int(dead))
            if on_step is not None:
                on_step(step, keys, counts, completed)
            if progress is not None:
                progress(step, steps, int(keys.shape[0]))
    finally:
        if folder:
            shutil.rmtree(folder[0], ignore_errors=True)
    return completed, work


def check_resumed(plan, step, keys, closed, forced, before):
    """InvalidArgument if a resumed table holds a key no step makes: the
    step kernel trusts its keys (a file's, here)."""
    forced_slot, _ = plan.forced_place(step, forced)
    bad = states.first_malformed(keys, plan.old_sizes[step], forced_slot, 0 if closed else 2, before)
    if bad >= 0:
        raise InvalidArgument(f"its table's state {bad} (key {int(keys[bad])}) is not one that step {step} makes")


def step_arguments(plan, step, keys, counts, closed, forced, before, after):
    """The step kernel's arguments, but for its table size and part, to
    step ``keys``/``counts``: ``before`` and ``after`` are the bitmaps of
    the live patterns on either side of the step."""
    forced_slot, inserted_forced = plan.forced_place(step, forced)
    final = step == len(plan.order) - 1
    options = degree_relaxation.option_lists(
        before,
        plan.old_sizes[step],
        len(plan.frontiers[step]),
        plan.neighbour_slots[step],
        plan.kept_slots[step],
        plan.leaving_slots[step],
        plan.stays[step],
        forced_slot,
        inserted_forced,
        0 if closed else 2,
        final,
        after,
    )
    rank, patterns, starts, firsts, seconds, codes, dropped = options
    salt = table_kernels.step_salt(step)
    return (
        keys,
        counts,
        plan.old_sizes[step],
        plan.kept_slots[step],
        plan.leaving_slots[step],
        plan.stays[step],
        forced_slot,
        inserted_forced,
        final,
        bool(closed),
        (rank, before, patterns, starts, firsts, seconds, codes, dropped),
        salt,
    )


def step_room(memory=None):
    """The anonymous memory a step may take now: what is left of the
    ``memory`` budget (bytes; None: ``FREE_SHARE`` of what is available),
    never more than ``FREE_SHARE`` of what is available, nor less than
    ``MIN_ROOM``."""
    free = FREE_SHARE * machine.available_memory()
    if memory is None:
        return max(free, MIN_ROOM)
    return max(min(memory - machine.anonymous_memory(), free), MIN_ROOM)


def _out_of_core(expected, limbs, room):
    """Whether a partitioned step of ``expected`` states must run out of core."""
    return expected >= PARTITIONED_STATES and memory_model.step_bytes(expected, limbs) > room


def run_step(arguments, expected, spill, table=None, room=None, high=None):
    """One step by the ``table`` way (default ``TABLE``) in at most
    ``room`` bytes (default ``step_room()``): the partitioned step in
    memory, or out of core when the tables of ``high`` states (a high
    guess of those it makes; default ``expected``) would take more; the
    hash step's disk shards when the hash step's tables would not fit."""
    high = expected if high is None else high
    table = TABLE if table is None else table
    keys, counts = arguments[0], arguments[1]
    threads = hash_step.step_threads() if keys.shape[0] >= hash_step.PARALLEL_STATES else 1
    if table == "auto":
        table = "partitioned" if expected >= PARTITIONED_STATES else "hash"
    if table == "hash":
        return hash_step.step_in_parts(arguments, expected, spill)
    room = step_room() if room is None else room
    if memory_model.step_bytes(high, counts.shape[1]) <= room:
        return partitioned_step.step_partitioned(arguments, expected, threads)
    return out_of_core_step.step_out_of_core(arguments, high, threads, room, spill())


def widened_limbs(limbs, max_limbs, plan, step):
    """Twice ``limbs``, the counts' limbs at ``step`` of ``plan`` when one
    carried out of the top limb; OverflowError past ``max_limbs``."""
    if 2 * limbs > max_limbs:
        raise OverflowError(
            f"a count on {plan.rows}x{plan.cols} passed 2^{64 * limbs} - 1 at step {step}: "
            f"the dp carries at most {64 * max_limbs}-bit counts"
        )
    return 2 * limbs


def _widen(counts, max_limbs, plan, step):
    """``counts`` in twice the limbs (``widened_limbs``)."""
    wider = np.zeros((counts.shape[0], widened_limbs(counts.shape[1], max_limbs, plan, step)), dtype=np.uint64)
    wider[:, : counts.shape[1]] = counts
    return wider


def compile_kernels():
    """Compile (or load from Numba's cache) the step kernel, every variant
    a count uses, so that no count's ``seconds`` includes it."""
    plan = schedule(3, 4)
    for closed in (False, True):
        count_hamiltonian(plan, closed)
    count_hamiltonian(plan, False, forced=plan.order[0])
