"""The frontier dynamic program's driver: plan the square order, build the
arrays each step's kernel trusts, run the steps, add up the answer.

It validates nothing itself (``knight.counting.prepare`` does). What the
DP computes, and why it is exact, is in ``knight.frontier_kernels`` and
``docs/counting-dp.md``.

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
import hashlib
import json
import os
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from knight import frontier_degrees, frontier_kernels, journal, owned_files, validate
from knight.board import neighbour_table
from knight.errors import InvalidArgument

MAX_SLOTS = frontier_kernels.MAX_SLOTS

# bytes per state at the peak: the dense table read (key and one-limb
# count: 16 bytes), the next step's hash tables at a load of 3/8..3/4
# (21..43 bytes) and the dense copy made from them (16 bytes). The 7 x 7
# open run peaked at 1.98 GB resident with 29.6 million states (67 bytes a
# state, the pattern bitmaps and the interpreter included; 4.19 GB and 60.9
# million before the tuned cell order): with margin
BYTES_PER_STATE = 80
_MIN_CAPACITY_BITS = 10


@dataclass(frozen=True)
class Schedule:
    """The DP's plan for one board: squares in insertion order and, for
    each step, the slot arrays the kernel reads."""

    rows: int
    cols: int
    order: list
    old_sizes: list
    neighbour_slots: list
    kept_slots: list
    leaving_slots: list
    stays: list
    frontiers: list  # the squares on the frontier after each step
    leave_step: dict
    # per step, for the old slots then the inserted square: how many of
    # its neighbours are still to come after the step, and its colour (+1
    # or -1); and twice the colour balance of the squares still to come
    futures: list
    colours: list
    future_balance: list

    def forced_place(self, step, forced):
        """The forced start's place in ``step``: ``(its slot on the frontier
        before, -1 if it is not there; whether it is the square inserted)``."""
        if forced is None:
            return -1, False
        before = self.frontiers[step - 1] if step else []
        return (before.index(forced) if forced in before else -1), self.order[step] == forced

    @property
    def widest(self):
        return max(len(f) for f in self.frontiers) if self.frontiers else 0


# The order of the cells within each column, per short side: the one that
# made the DP's work least, found by search on 2026-12-01 (every order, up
# to mirror image, for short sides 3 to 6, by successors emitted on 3 x 30,
# 4 x 14, 5 x 10 and 6 x 6 open; short side 7 by a hill-climb of swaps on
# the live patterns' count, which ranks the 6 x 6 orders like the work
# does: Spearman 0.96). Against top-to-bottom, successors emitted: 3 x 30
# -45%, 4 x 14 -10%, 5 x 10 -52%, 6 x 6 -27%, 6 x 6 closed -23%; live
# patterns on 7 x 7 -27%. Short side 8 keeps top-to-bottom: 8 x 8
# closed's pattern passes take about 12 s (one thread), too long to search.
WITHIN_COLUMN = {
    3: (1, 0, 2),
    4: (1, 2, 0, 3),
    5: (1, 3, 2, 0, 4),
    6: (1, 4, 2, 0, 5, 3),
    7: (1, 5, 3, 4, 2, 0, 6),
}
# names the orders above in checkpoints: a table made in another order
# cannot be resumed
ORDER_NAME = "columns-across-short-side/within-2026-12-01"


def column_order(rows, cols, within=None):
    """Column by column across the short side: a knight moves one or two
    columns, so a square leaves the frontier about two columns after it
    came, and the frontier spans about 2 x short side + 1 squares.
    ``within(c)``: the order of the short side's cells in column ``c``
    (default ``WITHIN_COLUMN``, top to bottom where it has no entry)."""
    short, long = min(rows, cols), max(rows, cols)
    if within is None:
        cells = WITHIN_COLUMN.get(short, range(short))
        within = lambda c: cells  # noqa: E731
    if rows <= cols:
        return [r * cols + c for c in range(long) for r in within(c)]
    return [r * cols + c for r in range(long) for c in within(r)]


def schedule(rows, cols, order=None):
    """The step arrays for inserting the squares in ``order`` (default
    ``column_order``)."""
    if order is None:
        order = column_order(rows, cols)
    table = neighbour_table(rows, cols)
    position = {square: step for step, square in enumerate(order)}
    neighbours = {square: [int(n) for n in table[square] if n >= 0] for square in order}
    leave_step = {
        square: max([position[square]] + [position[n] for n in neighbours[square]]) for square in order
    }
    frontier = []
    old_sizes, neighbour_slots, kept_slots, leaving_slots, stays, frontiers = [], [], [], [], [], []
    futures, colours, future_balance = [], [], []
    colour = {square: 1 if (square // cols + square % cols) % 2 else -1 for square in order}
    balance = 2 * sum(colour.values())
    for step, square in enumerate(order):
        balance -= 2 * colour[square]
        future_balance.append(balance)
        touched = [*frontier, square]
        futures.append(np.array([sum(position[n] > step for n in neighbours[s]) for s in touched], dtype=np.intp))
        colours.append(np.array([colour[s] for s in touched], dtype=np.intp))
        slot_of = {s: i for i, s in enumerate(frontier)}
        old_sizes.append(len(frontier))
        earlier = [slot_of[n] for n in neighbours[square] if position[n] < step]
        neighbour_slots.append(np.array(sorted(earlier), dtype=np.intp))
        kept = [i for i, s in enumerate(frontier) if leave_step[s] != step]
        leaving_slots.append(np.array([i for i, s in enumerate(frontier) if leave_step[s] == step], dtype=np.intp))
        kept_slots.append(np.array(kept, dtype=np.intp))
        stays.append(leave_step[square] > step)
        frontier = [frontier[i] for i in kept] + ([square] if stays[-1] else [])
        frontiers.append(list(frontier))
    return Schedule(rows, cols, order, old_sizes, neighbour_slots, kept_slots, leaving_slots, stays, frontiers,
                    leave_step, futures, colours, future_balance)


# Peak states held by one run with no forced end (the heaviest kind of
# each), with the degree relaxation, on long boards of each short side,
# rounded up: the basis of the memory projection. Open (2026-12-01, tuned
# cell order): 3 x 40: 719; 4 x 40: 4,001; 5 x 16 and 5 x 40: 254,855;
# 6 x 8: 4,916,820; 7 x 7: 29,635,356. Short side 6 keeps the bound
# measured before the relaxation (6 x 6 held 5,644,449 then, 6 x 8 more):
# no 6 x n open run longer than 6 x 8 was measured since. Closed
# (2026-11-30, top-to-bottom order, upper bounds now): 3 x 40: 178; 5 x 20:
# 54,936; 6 x 8: 256,539; 7 x 8: 7,164,484; 8 x 8 (2026-12-01, the whole
# count, top to bottom as before): 229,828,413 at step 44 of 64.
# Past the last entry, the growth per extra row is extrapolated (7 x 8
# closed over 6 x 8: 28x).
_MEASURED_PEAK_STATES = {
    False: {1: 1, 2: 4, 3: 1_000, 4: 5_000, 5: 300_000, 6: 30_000_000, 7: 35_000_000},
    True: {1: 1, 2: 4, 3: 200, 4: 100, 5: 100_000, 6: 300_000, 7: 8_000_000, 8: 230_000_000},
}
_GROWTH_PER_ROW = 30


def projected_peak_states(rows, cols, closed=False):
    short = min(rows, cols)
    measured = _MEASURED_PEAK_STATES[bool(closed)]
    known = max(measured)
    if short <= known:
        return measured[short]
    return measured[known] * _GROWTH_PER_ROW ** (short - known)


def widest_frontier(rows, cols):
    """The most squares on the frontier at once. It is reached within the
    first few columns, so a board cut to 8 columns of its long side (or
    short side + 3, on a wider board) has the same, and its schedule costs
    nothing on a very long board."""
    short = min(rows, cols)
    # never cut the long side below the short one: the cut board would
    # then be swept across its other side
    long = min(max(rows, cols), max(8, short + 3))
    return schedule(short, long).widest


def check_fits(rows, cols, available, closed=False):
    """Refuse, before allocating, a board the DP cannot hold: a frontier
    wider than one key, pattern bitmaps past half of ``available``, or
    projected peak tables that fit neither ``available`` nor, sharded, the
    spill folder's free disk."""
    widest = widest_frontier(rows, cols)
    if widest > MAX_SLOTS:
        raise InvalidArgument(
            f"board {rows}x{cols}: the dp frontier spans {widest} squares, at most {MAX_SLOTS} fit its 64-bit states"
        )
    # the relaxation's bitmaps, one a step, stay in memory for the whole run
    bitmaps = rows * cols * frontier_degrees.empty_bits(widest, 0 if closed else 2).nbytes
    if bitmaps > available / 2:
        raise InvalidArgument(
            f"board {rows}x{cols} needs about {bitmaps / 2**30:.1f} GiB for the dp's pattern bitmaps "
            f"({rows * cols} steps), more than half the {available / 2**30:.1f} GiB available"
        )
    states = projected_peak_states(rows, cols, closed)
    needed = states * BYTES_PER_STATE
    if needed <= available:
        return
    # past memory, steps go to disk in shards (two dense tables: the one
    # read and the one made)
    on_disk = 2 * 16 * states
    free = spill_space()
    if on_disk > free:
        raise InvalidArgument(
            f"board {rows}x{cols} needs about {needed / 2**30:.1f} GiB for the dp's state tables "
            f"(~{states:.2g} states), but only {available / 2**30:.1f} GiB is available, and "
            f"{on_disk / 2**30:.1f} GiB of disk to shard them but only {free / 2**30:.1f} GiB free in "
            f"{tempfile.gettempdir()}"
        )


def spill_space():
    """Free bytes where a sharded step writes its tables."""
    return shutil.disk_usage(tempfile.gettempdir()).free


@dataclass
class Work:
    """The DP's measure of work, per step: states held after the step,
    successors emitted (each one a hash insertion), of which merged into an
    existing state, and attempts that died."""

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


def _capacity_bits(expected):
    bits = _MIN_CAPACITY_BITS
    # room for the expected states at a load of at most 3/4 (linear
    # probing on a well-mixed hash stays short there)
    while 3 * (1 << bits) < 4 * expected:
        bits += 1
    return bits


# counts start in one 64-bit limb; a step whose count outgrows them runs
# again with twice as many, up to MAX_LIMBS (2^1024: far past any board here)
FIRST_LIMBS = 1
MAX_LIMBS = 16


def run(plan, closed, forced=None, progress=None, state=None, on_step=None, max_limbs=MAX_LIMBS):
    """One DP over ``plan`` (a ``Schedule``): the number of undirected
    Hamiltonian paths (open; with ``forced``, those with that square as an
    end) or cycles (closed). Returns ``(count, work)``.

    ``state``, to resume: ``(step, keys, counts, completed)`` as
    ``on_step`` was given it. ``on_step(step, keys, counts, completed)`` is
    called after each step (checkpoints); ``progress(step, steps, held)``
    too. A step whose counts pass their limbs runs again with twice as
    many; past ``max_limbs`` it is an ``OverflowError``.
    """
    if state is None:
        keys = np.zeros(1, dtype=np.uint64)
        counts = np.zeros((1, FIRST_LIMBS), dtype=np.uint64)
        counts[0, 0] = 1
        state = (0, keys, counts, 0)
    step, keys, counts, completed = state
    live = frontier_degrees.live_patterns(plan, closed, forced, _threads())
    start = frontier_degrees.start_bits(0 if closed else 2)
    work = Work()
    steps = len(plan.order)
    ratio = 4.0
    folder = []  # the run's spill folder, made on first need

    def spill():
        if not folder:
            folder.append(owned_files.new_spill_folder())
        return folder[0]

    try:
        while step < steps:
            expected = int(keys.shape[0] * ratio) + 1
            before = live[step - 1] if step else start
            arguments = step_arguments(plan, step, keys, counts, closed, forced, before, live[step])
            new_keys, new_counts, found, emitted, dead, overflow = _step_in_parts(arguments, expected, spill)
            if overflow:
                counts = _widen(counts, max_limbs, plan, step)
                continue
            completed += found
            if keys.shape[0]:
                ratio = max(new_keys.shape[0] / keys.shape[0], 0.5)
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


def step_arguments(plan, step, keys, counts, closed, forced, before, after):
    """The step kernel's arguments, but for its table size and part, to
    step ``keys``/``counts``: ``before`` and ``after`` are the bitmaps of
    the live patterns on either side of the step."""
    forced_slot, inserted_forced = plan.forced_place(step, forced)
    final = step == len(plan.order) - 1
    options = frontier_degrees.option_lists(
        before, plan.old_sizes[step], len(plan.frontiers[step]), plan.neighbour_slots[step], plan.kept_slots[step],
        plan.leaving_slots[step], plan.stays[step], forced_slot, inserted_forced, 0 if closed else 2, final, after)
    rank, patterns, starts, firsts, seconds, codes, dropped = options
    salt = frontier_kernels.step_salt(step)
    return (keys, counts, plan.old_sizes[step], plan.kept_slots[step], plan.leaving_slots[step], plan.stays[step],
            forced_slot, inserted_forced, final, bool(closed),
            (rank, before, patterns, starts, firsts, seconds, codes, dropped), salt)


# a table smaller than this is stepped on one thread: starting threads
# would cost more than they save
PARALLEL_STATES = 20_000


def _threads():
    return max(1, min(len(os.sched_getaffinity(0)), 8))


# the hash tables of one step may take at most this share of the memory
# available when it starts; past that the step runs shard by shard, and
# the table it makes goes to disk
_TABLE_SHARE = 0.5
_MAX_SHARDS = 1024


def _shards(expected, limbs, threads):
    """How many parts a step's successors are split into: one per thread,
    or more (a multiple) when their tables would not fit in memory at once.
    An entry is a key and its limbs; a table's load is 3/8..3/4, and its
    dense copy is made before the table is freed: about three entries a
    state at the peak."""
    per_state = 3 * 8 * (1 + limbs)
    budget = _TABLE_SHARE * validate.available_memory()
    shards = threads
    while expected * per_state * threads / shards > budget and shards < _MAX_SHARDS:
        shards *= 2
    return shards


def _step_in_parts(arguments, expected, spill):
    """One step, its successors split by pattern into parts (the kernel
    releases the GIL, so the threads run at once); the parts' tables are
    disjoint, so the next table is their concatenation. Parts that would
    not fit in memory together are made a thread-full at a time and
    appended to files in the folder ``spill()`` gives; the next step reads
    them back mapped (the page cache, not this process, holds them)."""
    keys, counts = arguments[0], arguments[1]
    threads = _threads() if keys.shape[0] >= PARALLEL_STATES else 1
    shards = _shards(expected, counts.shape[1], threads)
    bits = _capacity_bits(expected // shards + 1)

    def part(index):
        made = frontier_kernels.frontier_step(*arguments, bits, index, shards)
        if made[-1]:
            raise AssertionError(f"{made[-1]} dp states have a pattern the relaxation calls dead")
        # the tours completed, from limbs (least significant first) to an int
        found = sum(int(limb) << (64 * place) for place, limb in enumerate(made[2]))
        return (made[0], made[1], found, *made[3:-1])

    if shards == 1:
        return part(0)
    tallies = [0, 0, 0, 0]  # found, emitted, dead, overflow
    made_keys, made_counts = [], []
    on_disk = shards > threads
    if on_disk:
        folder = spill()
        key_path, count_path = os.path.join(folder, "keys.next"), os.path.join(folder, "counts.next")
    with ThreadPoolExecutor(threads) as pool, contextlib.ExitStack() as files:
        if on_disk:
            key_file, count_file = (files.enter_context(open(path, "wb")) for path in (key_path, count_path))
        for first in range(0, shards, threads):
            for result in pool.map(part, range(first, first + threads)):
                for index in range(4):
                    tallies[index] += int(result[2 + index])
                if on_disk:
                    # written from the array's own buffer: no copy in memory
                    key_file.write(memoryview(result[0]))
                    count_file.write(memoryview(result[1]))
                    made_keys.append(result[0].shape[0])
                else:
                    made_keys.append(result[0])
                    made_counts.append(result[1])
    if not on_disk:
        return (np.concatenate(made_keys), np.concatenate(made_counts), *tallies)
    held = sum(made_keys)
    # the files of the step before are still mapped by its arrays; renaming
    # over them unlinks the old data only once those arrays are gone
    os.replace(key_path, os.path.join(folder, "keys"))
    os.replace(count_path, os.path.join(folder, "counts"))
    return (_mapped(os.path.join(folder, "keys"), (held,)),
            _mapped(os.path.join(folder, "counts"), (held, counts.shape[1])), *tallies)


def _mapped(path, shape):
    if shape[0] == 0:
        return np.zeros(shape, dtype=np.uint64)
    # copy-on-write: the kernel's argument type is a plain writable array
    return np.asarray(np.memmap(path, dtype=np.uint64, mode="c", shape=shape))


def _widen(counts, max_limbs, plan, step):
    """``counts`` in twice the limbs, or OverflowError past ``max_limbs``."""
    limbs = 2 * counts.shape[1]
    if limbs > max_limbs:
        raise OverflowError(
            f"a count on {plan.rows}x{plan.cols} passed 2^{64 * counts.shape[1]} - 1 at step {step}: "
            f"the dp carries at most {64 * max_limbs}-bit counts"
        )
    wider = np.zeros((counts.shape[0], limbs), dtype=np.uint64)
    wider[:, : counts.shape[1]] = counts
    return wider


def count_job(job, progress=None):
    """The DP engine of ``knight.counting``: directed tours per searched
    start of ``job`` (a ``counting.Job``, validated and its starts
    planned), as a ``counting.Tally`` whose ``work`` holds the DP's
    measures. ``progress(done, total, held)`` counts steps over every run;
    ``job.resume`` names a checkpoint file."""
    from knight.counting import Tally

    compile_kernels()  # before the clock starts
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
        # (knight.theory): no run for the other one
        runs = {s: [s] for s in job.starts.searched(pruned=True)}
        fixed = {s: 0 for s in classes if s in job.starts.excluded}
    wanted = range(squares) if job.start is None else [job.start[0] * cols + job.start[1]]
    store = None if job.resume is None else Checkpoint.open(job.resume, rows, cols, closed, wanted)
    plan = schedule(rows, cols) if runs else None
    steps = len(plan.order) if plan else 0
    total_steps = steps * len(runs)
    tours = dict(fixed)
    work = Work()
    for done_runs, (forced, members) in enumerate(runs.items()):
        key = -1 if forced is None else forced
        if store is not None and key in store.finished:
            found = store.finished[key]
            if progress is not None:
                progress((done_runs + 1) * steps, total_steps, 0)
        else:
            def step_progress(step, _steps, held, offset=done_runs * steps):
                if progress is not None:
                    progress(offset + step, total_steps, held)

            resume_state = store.resume_state(key) if store is not None else None
            on_step = store.saver(key) if store is not None else None
            found, run_work = run(plan, closed, forced, step_progress, resume_state, on_step)
            work.add(run_work)
            if store is not None:
                store.finish(key, found)
        for member in members:
            tours[member] = 2 * found if closed else found
    measures = dict(states_peak=work.states_peak, transitions=work.transitions, merges=work.merges, runs=len(runs))
    return Tally(tours, {s: 0 for s in classes}, {s: True for s in classes}, time.perf_counter() - began,
                 work=measures)


def total_tours(rows, cols, closed):
    """Directed tours from every start together, from one run with no
    forced end: open, each undirected path is two directed tours (from
    either end); closed, each cycle is two directed tours from each of its
    squares. The grid's sum, at the cost of a single run."""
    return total_with_work(rows, cols, closed)[0]


def total_with_work(rows, cols, closed, progress=None):
    """``(total_tours, work)``: the total and its run's ``Work``;
    ``progress`` as ``run`` takes it."""
    squares = rows * cols
    if squares == 1:
        return (0 if closed else 1), Work()
    found, work = run(schedule(rows, cols), closed, progress=progress)
    return 2 * found * (squares if closed else 1), work


def compile_kernels():
    """Compile (or load from Numba's cache) the step kernel, every variant
    a count uses, so that no count's ``seconds`` includes it."""
    plan = schedule(3, 4)
    for closed in (False, True):
        run(plan, closed)
    run(plan, False, forced=plan.order[0])


# /3: a checksum over the header and the table; /2 had none; a /1 file
# holds base-16 keys
CHECKPOINT_FORMAT = "knight-dp-checkpoint/3"
# a checkpoint is written at most this often: a 7x7 table is a few GB, and
# writing it after every step would cost more than the steps
CHECKPOINT_SECONDS = 60.0


class Checkpoint:
    """A resumable DP count in one ``.npz`` file: the runs finished (their
    counts) and the table after the last saved step of the run under way.

    Written whole to a temporary file, then renamed over the old one
    (``os.replace`` is atomic), so a kill at any moment leaves the last
    complete checkpoint. A file that is not a checkpoint is never
    overwritten; one made for a different count is refused.
    """

    def __init__(self, path, identity, finished, current, arrays):
        self.path = path
        self.identity = identity
        self.finished = finished
        self._current = current  # (run key, step, completed) or None
        self._arrays = arrays  # (keys, counts) of the current run, or None
        self._saved = time.monotonic()

    @staticmethod
    def check(path):
        """``path`` as a string, if it can be a checkpoint: refuses (before
        a count starts) a folder, a missing parent, a file that is not one."""
        # the same refusals as a resume file's (knight.journal)
        path = journal.usable_path(path, "a knight dp checkpoint", replaced=True)
        if os.path.exists(path):
            _read_checkpoint(path)
        return path

    @classmethod
    def open(cls, path, rows, cols, closed, starts):
        path = journal.followed(os.fspath(path), "a knight dp checkpoint")
        identity = {
            "format": CHECKPOINT_FORMAT,
            "rows": rows,
            "cols": cols,
            "closed": closed,
            "starts": sorted(int(s) for s in starts),
            "order": ORDER_NAME,
        }
        if not os.path.exists(path):
            return cls(path, identity, {}, None, None)
        header, keys, counts = _read_checkpoint(path)
        found = {key: header.get(key) for key in identity}
        if found != identity:
            changed = [key for key in identity if found[key] != identity[key]]
            differ = ", ".join(f"{key} {_brief(found[key])} (now {_brief(identity[key])})" for key in changed)
            raise InvalidArgument(f"{path} records a different count: {differ}")
        finished, current = _checked_fields(path, header, keys, counts, rows * cols, closed, starts)
        arrays = (keys, counts) if current is not None else None
        return cls(path, identity, finished, current, arrays)

    def resume_state(self, run_key):
        """``(step, keys, counts, completed)`` saved for this run, or None."""
        if self._current is None or self._current[0] != run_key:
            return None
        _, step, completed = self._current
        keys, counts = self._arrays
        return step, keys, counts, completed

    def saver(self, run_key):
        """An ``on_step`` for ``run``: saves the table at most every
        ``CHECKPOINT_SECONDS``."""

        def on_step(step, keys, counts, completed):
            if time.monotonic() - self._saved >= CHECKPOINT_SECONDS:
                self._current = (run_key, step, completed)
                self._write(keys, counts)

        return on_step

    def finish(self, run_key, count):
        self.finished[int(run_key)] = int(count)
        self._current = None
        self._write(np.zeros(0, dtype=np.uint64), np.zeros((0, 2), dtype=np.uint64))

    def _write(self, keys, counts):
        header = dict(self.identity)
        header["finished"] = {str(key): value for key, value in self.finished.items()}
        header["current"] = None if self._current is None else list(self._current)
        keys, counts = np.ascontiguousarray(keys), np.ascontiguousarray(counts)
        header["checksum"] = _checksum(header, keys, counts)
        encoded = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
        # a fresh name beside the checkpoint: a file of the user's that
        # happens to be called CHECKPOINT.tmp is never overwritten
        folder, name = os.path.split(os.path.abspath(self.path))
        owned_files.remove_stale_temporaries(folder, name)
        try:
            handle, temporary = tempfile.mkstemp(prefix=owned_files.temporary_prefix(name), suffix=".tmp", dir=folder)
            with os.fdopen(handle, "wb") as file:
                np.savez(file, header=encoded, keys=keys, counts=counts)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self.path)
        except OSError as error:  # a full disk: exit status 74, the last checkpoint kept
            raise OSError(error.errno, error.strerror, self.path) from None
        self._saved = time.monotonic()


def _checksum(header, keys, counts):
    """SHA-256 of the header (less its checksum) and the table's bytes: a
    file edited or damaged since knight wrote it is refused, not resumed
    into a count printed as exact."""
    digest = hashlib.sha256()
    fields = {key: value for key, value in header.items() if key != "checksum"}
    digest.update(json.dumps(fields, sort_keys=True).encode())
    for array in (keys, counts):
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(np.ascontiguousarray(array).reshape(-1).view(np.uint8))
    return digest.hexdigest()


def _is_count(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _checked_fields(path, header, keys, counts, squares, closed, starts):
    """``(finished, current)`` of a checkpoint's header, every field's type
    and range checked (a file is untrusted input), or InvalidArgument."""

    def refuse(what):
        return InvalidArgument(
            f"{path} is damaged or was edited ({what}); it is left untouched: resume into a new file"
        )

    if header.get("checksum") != _checksum(header, keys, counts):
        raise refuse("its checksum does not match")
    # the runs a count can have: one per start, or -1, the one run of closed tours
    run_keys = {-1} if closed else {int(start) for start in starts}
    finished = header.get("finished")
    if not isinstance(finished, dict):
        raise refuse("'finished' is not a mapping")
    checked = {}
    for key, value in finished.items():
        if not (isinstance(key, str) and key.lstrip("-").isdigit() and int(key) in run_keys) or not _is_count(value):
            raise refuse(f"'finished' holds {_brief(key)}: {_brief(value)}")
        checked[int(key)] = value
    current = header.get("current")
    if current is None:
        return checked, None
    if not (isinstance(current, list) and len(current) == 3 and all(isinstance(v, int) for v in current)):
        raise refuse("'current' is not [run, step, tours]")
    run_key, step, completed = current
    if run_key not in run_keys or run_key in checked or not 0 <= step <= squares or not _is_count(completed):
        raise refuse(f"'current' is {current}")
    if not (keys.dtype == np.uint64 and keys.ndim == 1 and counts.dtype == np.uint64 and counts.ndim == 2
            and counts.shape[0] == keys.shape[0] and 1 <= counts.shape[1] <= MAX_LIMBS):
        raise refuse("its table's arrays have the wrong shape or type")
    return checked, (run_key, step, completed)


def _brief(value):
    return f"{len(value)} squares" if isinstance(value, list) else value


def _read_checkpoint(path):
    """``(header, keys, counts)`` of the checkpoint at ``path``, or
    InvalidArgument: a file that is not one is never overwritten."""
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(bytes(data["header"]).decode())
            keys, counts = data["keys"], data["counts"]
    except Exception:
        raise InvalidArgument(f"{path} is not a knight dp checkpoint; refusing to overwrite it") from None
    if not isinstance(header, dict) or header.get("format") != CHECKPOINT_FORMAT:
        raise InvalidArgument(f"{path} is not a knight dp checkpoint; refusing to overwrite it")
    return header, keys, counts
