"""Frozen reference of the frontier DP for the speed guard: NEVER EDIT THIS FILE.

A verbatim copy of knight/frontier_kernels.py (the step kernel and its
inlined helpers) and of the driver loop of knight/frontier.py (the schedule,
``Work``, ``run`` and ``_run``) as of commit 939426f, with the jit policy of
knight/_jit.py of that commit copied in beside them and the neighbour table
of the frozen bench/references/reference_kernels.py, so that nothing here moves when
the project's code does. Changed from the copied text: the imports, and
``frontier_kernels.frontier_step`` called as ``frontier_step`` (one module
here, two there).

`make bench-check` times knight's DP (``count_tours(method="dp")``) against
this in the same run and compares the throughput ratio, DP transitions per
CPU second, with the committed one (bench/references.py, ``DPReference``).
The ratio cancels the machine but not the project's code: that is the whole
point, and it holds only while this file stays as it is. If the DP's
arguments change, adapt the runner in bench/references.py, not this file.
"""

import functools
from dataclasses import dataclass, field

import numba
import numpy as np

from bench.references.reference_kernels import neighbour_table

# knight/_jit.py's policy at 939426f
jit = functools.partial(
    numba.njit,
    cache=True,
    nogil=True,
    error_model="numpy",
    fastmath=False,
    boundscheck=False,
)

# knight/frontier_kernels.py at 939426f, after its imports

# The helpers are inlined into the step kernel (Numba IR inlining): called
# as functions, every call passed its arrays with reference-count updates,
# and that cost more than the work itself (about 300 ns an attempt).

BARE = 0
INTERIOR = 1
TERMINAL_END = 2
FIRST_LABEL = 3
# a label no canonical state uses (at most 8 labels: 3..10), given to the
# path a step creates before the state is renumbered
_FRESH_LABEL = 15
MAX_SLOTS = 16
BITS_PER_SLOT = 4

# the key no state can have (every slot would be 15): marks an empty bucket
EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)
_HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)
_SLOT_MASK = np.uint64(0xF)

# what a successor attempt ended as (the kernel's own tallies)
_ALIVE = 0
_DEAD = 1
_DONE = 2  # a complete tour: counted, not stored


@jit(inline="always")
def _bucket(key, shift):
    # Fibonacci hashing: the top bits of key * 2^64/phi spread the packed
    # slot patterns, whose low bits alone would cluster badly
    return np.intp((key * _HASH_MULTIPLIER) >> shift)


@jit(inline="always")
def _find(table, entry, shift, key):
    """The word offset of ``key``'s entry in ``table`` (entries of
    ``entry`` words: the key, then its count's limbs), claiming an empty
    one if ``key`` is not there; returns (offset, 1 if claimed)."""
    mask = np.intp(table.shape[0] // entry - 1)
    index = _bucket(key, shift)
    while True:
        held = table[entry * index]
        if held == key:
            return entry * index, 0
        if held == EMPTY:
            table[entry * index] = key
            return entry * index, 1
        index = (index + 1) & mask


@jit(inline="always")
def _add_count(target, at, counts, state, limbs):
    """``target[at:at + limbs] += counts[state]``, limbs of 64 bits, least
    significant first; returns 1 if the sum carried out of the last."""
    carry = np.uint64(0)
    for limb in range(limbs):
        addend = counts[state, limb]
        partial = target[at + limb] + addend
        carried = partial < addend
        total = partial + carry
        if total < carry:
            carried = True
        target[at + limb] = total
        carry = np.uint64(1) if carried else np.uint64(0)
    return 1 if carry else 0


@jit
def _new_table(capacity, entry):
    table = np.zeros(entry * capacity, dtype=np.uint64)
    for index in range(capacity):
        table[entry * index] = EMPTY
    return table


@jit
def _grow(table, entry, shift):
    """The same table at twice the capacity."""
    grown = _new_table(2 * (table.shape[0] // entry), entry)
    grown_shift = shift - np.uint64(1)
    for index in range(table.shape[0] // entry):
        if table[entry * index] != EMPTY:
            at, _ = _find(grown, entry, grown_shift, table[entry * index])
            for word in range(1, entry):
                grown[at + word] = table[entry * index + word]
    return grown, grown_shift


@jit(inline="always")
def _replace_label(slots, size, old, new):
    for index in range(size):
        if slots[index] == old:
            slots[index] = new


@jit(inline="always")
def _add_edge(slots, size, a, b, final, closed):
    """Join frontier slots ``a`` and ``b`` (``b`` is the square being
    inserted). Returns _ALIVE, _DEAD, or _DONE when this edge completes the
    tour (legal only at the last square)."""
    x = slots[a]
    y = slots[b]
    if x == INTERIOR or y == INTERIOR:
        return _DEAD
    if x == BARE and y == BARE:
        slots[a] = _FRESH_LABEL
        slots[b] = _FRESH_LABEL
        return _ALIVE
    if x == BARE:
        slots[a] = y
        slots[b] = INTERIOR
        return _ALIVE
    if y == BARE:
        slots[b] = x
        slots[a] = INTERIOR
        return _ALIVE
    # two path ends meet
    slots[a] = INTERIOR
    slots[b] = INTERIOR
    if x == y and x >= FIRST_LABEL:
        # both ends of one path: a cycle. Only the closing edge of a closed
        # tour at the last square, with every square finished, may do that
        if not (closed and final):
            return _DEAD
        for index in range(size):
            if slots[index] != INTERIOR:
                return _DEAD
        return _DONE
    if x == TERMINAL_END and y == TERMINAL_END:
        # two different paths (one path has at most one gone end), each with a gone tour end join: the whole tour, which
        # must then hold every square
        if not final:
            return _DEAD
        return _DONE
    if x == TERMINAL_END:
        _replace_label(slots, size, y, TERMINAL_END)
    elif y == TERMINAL_END:
        _replace_label(slots, size, x, TERMINAL_END)
    else:
        _replace_label(slots, size, y, x)
    return _ALIVE


@jit(inline="always")
def _leave(slots, size, index, forced, closed, final, completed):
    """Square in slot ``index`` leaves the frontier. Returns _ALIVE, _DEAD,
    or _DONE when its leaving completes the tour."""
    value = slots[index]
    slots[index] = INTERIOR  # no later label scan may find it again
    if value == INTERIOR:
        # the forced tour end must leave with exactly one edge
        return _DEAD if forced else _ALIVE
    if value == BARE or closed or completed:
        # a square never entered; an end in a closed tour; a second path
        # after the tour was already complete
        return _DEAD
    if value == TERMINAL_END:
        # its path's other end is a gone tour end: the path is complete
        return _DONE if final else _DEAD
    _replace_label(slots, size, value, TERMINAL_END)
    return _ALIVE


@jit(inline="always")
def _successor(slots, work, inserted, first_slot, second_slot, kept_slots, inserted_stays, leaving_slots,
               forced_slot, inserted_forced, terminals_allowed, final, closed, renumber, remaining,
               forced_position):
    """Apply one option (edges from the inserted square to ``first_slot``
    and ``second_slot``, -1 for none) to ``slots``, in the scratch
    ``work``. Returns ``(outcome, key)``; ``key`` is the packed canonical
    next state when the outcome is _ALIVE."""
    size = inserted + 1
    for index in range(size):
        work[index] = slots[index]
    done = False
    for target in (first_slot, second_slot):
        if target < 0:
            continue
        outcome = _add_edge(work, size, target, inserted, final, closed)
        if outcome == _DEAD:
            return _DEAD, np.uint64(0)
        done = done or outcome == _DONE
    if not inserted_stays:
        outcome = _leave(work, size, inserted, inserted_forced, closed, final, done)
        if outcome == _DEAD:
            return _DEAD, np.uint64(0)
        done = done or outcome == _DONE
    for index in range(leaving_slots.shape[0]):
        slot = leaving_slots[index]
        outcome = _leave(work, size, slot, slot == forced_slot, closed, final, done)
        if outcome == _DEAD:
            return _DEAD, np.uint64(0)
        done = done or outcome == _DONE
    if done:
        # a complete tour: every square still on the frontier was checked
        # as it left (the last step empties the frontier)
        return _DONE, np.uint64(0)
    if final:
        # the frontier emptied without completing a tour
        return _DEAD, np.uint64(0)
    # pack the next state, labels renumbered by first appearance
    for index in range(renumber.shape[0]):
        renumber[index] = 0
    next_label = FIRST_LABEL
    terminal_ends = 0
    key = np.uint64(0)
    n_kept = kept_slots.shape[0]
    for position in range(n_kept + (1 if inserted_stays else 0)):
        slot = kept_slots[position] if position < n_kept else inserted
        value = work[slot]
        if value >= FIRST_LABEL:
            if renumber[value] == 0:
                renumber[value] = next_label
                next_label += 1
            value = renumber[value]
        elif value == TERMINAL_END:
            terminal_ends += 1
        elif value == BARE and remaining[position] == 1 and position != forced_position:
            # one neighbour left to come: this square can only get one
            # edge, so it is a tour end to be: count it now, and a state
            # with too many ends dies here instead of squares later
            terminal_ends += 1
        key |= np.uint64(value) << np.uint64(BITS_PER_SLOT * position)
    if terminal_ends > terminals_allowed:
        return _DEAD, np.uint64(0)
    return _ALIVE, key


@jit
def frontier_step(keys, counts, old_size, neighbour_slots, kept_slots, leaving_slots, inserted_stays,
                  forced_slot, inserted_forced, terminals_allowed, final, closed, capacity_bits, remaining,
                  forced_position):
    """Insert one square: map every state of the table ``keys``/``counts``
    (dense, one state per entry, frontier of ``old_size`` slots) to its
    successors and merge equal ones.

    ``neighbour_slots``: the slots of the inserted square's earlier
    neighbours. ``kept_slots``: the old slots still on the frontier after
    this step, in order; the inserted square follows them when
    ``inserted_stays``. ``leaving_slots``: old slots whose last neighbour
    this is. ``forced_slot`` (-1: none) / ``inserted_forced``: the square
    that must be a tour end (one start's count). ``terminals_allowed``: how
    many tour ends may have gone by the end of this step, counting bare
    squares that have one neighbour left to come (``remaining``, by
    position on the next frontier) as ends to be, except the forced
    square (at ``forced_position`` on the next frontier, or -1).
    ``capacity_bits``: log2 of the hash table's first size.

    ``counts`` is ``(n, limbs)``: each count in 64-bit limbs, least
    significant first.

    Returns ``(keys, counts, completed, emitted, dead, overflow)``: the next
    table (dense), the number of complete tours found at this step (in
    limbs), the
    successors emitted into the table (the DP's work, like the DFS's
    nodes), the attempts that died, and 1 if a count carried out of 64 bits.
    """
    limbs = counts.shape[1]
    entry = 1 + limbs
    table = _new_table(1 << capacity_bits, entry)
    shift = np.uint64(64 - capacity_bits)
    held = 0
    emitted = 0
    dead = 0
    overflow = 0
    completed = np.zeros(limbs, dtype=np.uint64)

    inserted = old_size
    slots = np.zeros(MAX_SLOTS + 1, dtype=np.uint8)
    work = np.zeros(MAX_SLOTS + 1, dtype=np.uint8)
    renumber = np.zeros(16, dtype=np.uint8)
    candidates = np.zeros(4, dtype=np.intp)
    most_edges = 1 if inserted_forced else 2

    for state in range(keys.shape[0]):
        key = keys[state]
        for index in range(old_size):
            slots[index] = np.uint8((key >> np.uint64(BITS_PER_SLOT * index)) & _SLOT_MASK)
        slots[inserted] = BARE
        # a square leaving now that needs an edge can only get it from the
        # inserted square: find them first, and skip every option without
        # them (most of the options of most states)
        needed = 0
        state_dead = False
        for index in range(leaving_slots.shape[0]):
            value = slots[leaving_slots[index]]
            if value == BARE or (closed and value != INTERIOR):
                needed += 1
                if value == BARE and closed:
                    state_dead = True
        n_candidates = 0
        must = 0  # bit i: candidate i must be taken
        for index in range(neighbour_slots.shape[0]):
            slot = neighbour_slots[index]
            value = slots[slot]
            # a finished square takes no edge; the forced end takes one
            if value == INTERIOR or (slot == forced_slot and value != BARE):
                continue
            for leaving in range(leaving_slots.shape[0]):
                if leaving_slots[leaving] == slot and (value == BARE or closed):
                    must |= 1 << n_candidates
            candidates[n_candidates] = slot
            n_candidates += 1
        n_must = 0
        for index in range(n_candidates):
            n_must += (must >> index) & 1
        if state_dead or n_must < needed or n_must > most_edges:
            dead += 1
            continue
        # the fewest edges the inserted square may get: a square with no
        # later neighbour leaves now (closed: with two edges)
        fewest = 0 if inserted_stays else (2 if closed else 1)
        # options: no edge, one edge, or two (a pair of candidates)
        for first in range(-1, n_candidates):
            second = -1
            while True:
                taken = 0
                if first >= 0:
                    taken |= 1 << first
                if second >= 0:
                    taken |= 1 << second
                edges = (1 if first >= 0 else 0) + (1 if second >= 0 else 0)
                if (taken & must) != must or edges < fewest:
                    dead += 1
                    if first < 0 or most_edges < 2:
                        break
                    second = first + 1 if second < 0 else second + 1
                    if second >= n_candidates:
                        break
                    continue
                outcome, next_key = _successor(
                    slots, work, inserted,
                    candidates[first] if first >= 0 else -1,
                    candidates[second] if second >= 0 else -1,
                    kept_slots, inserted_stays, leaving_slots, forced_slot, inserted_forced,
                    terminals_allowed, final, closed, renumber, remaining, forced_position,
                )
                if outcome == _DEAD:
                    dead += 1
                elif outcome == _DONE:
                    overflow |= _add_count(completed, 0, counts, state, limbs)
                else:
                    emitted += 1
                    at, new = _find(table, entry, shift, next_key)
                    if new:
                        for limb in range(limbs):
                            table[at + 1 + limb] = counts[state, limb]
                    else:
                        overflow |= _add_count(table, at + 1, counts, state, limbs)
                    held += new
                    if 2 * entry * held > table.shape[0]:
                        table, shift = _grow(table, entry, shift)
                if first < 0 or most_edges < 2:
                    break
                second = first + 1 if second < 0 else second + 1
                if second >= n_candidates:
                    break

    # compact to a dense table: the next step reads it in order
    out_keys = np.empty(held, dtype=np.uint64)
    out_counts = np.empty((held, limbs), dtype=np.uint64)
    filled = 0
    for index in range(table.shape[0] // entry):
        if table[entry * index] != EMPTY:
            out_keys[filled] = table[entry * index]
            for limb in range(limbs):
                out_counts[filled, limb] = table[entry * index + 1 + limb]
            filled += 1
    return out_keys, out_counts, completed, emitted, dead, overflow


# knight/frontier.py's driver loop at 939426f

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
    remaining: list  # per step, per square on the next frontier: neighbours still to come
    leave_step: dict

    @property
    def widest(self):
        return max(len(f) for f in self.frontiers) if self.frontiers else 0


def column_order(rows, cols, within=None):
    """Column by column across the short side: a knight moves one or two
    columns, so a square leaves the frontier about two columns after it
    came, and the frontier spans about 2 x short side + 1 squares.
    ``within(c)``: the order of the short side's cells in column ``c``."""
    short, long = min(rows, cols), max(rows, cols)
    within = within or (lambda c: range(short))
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
    old_sizes, neighbour_slots, kept_slots, leaving_slots, stays, frontiers, remaining = [], [], [], [], [], [], []
    for step, square in enumerate(order):
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
        later = [sum(1 for n in neighbours[s] if position[n] > step) for s in frontier]
        remaining.append(np.array(later, dtype=np.uint8))
    return Schedule(rows, cols, order, old_sizes, neighbour_slots, kept_slots, leaving_slots, stays, frontiers,
                    remaining, leave_step)


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
    # room for the expected states at a load of at most 1/2
    while (1 << bits) < 2 * expected:
        bits += 1
    return bits


# counts start in two 64-bit limbs; a count that outgrows them runs again
# with twice as many, up to MAX_LIMBS (2^1024: far past any board here)
FIRST_LIMBS = 2
MAX_LIMBS = 16


class _CountTooWide(Exception):
    pass


def run(plan, closed, forced=None, progress=None, state=None, on_step=None, max_limbs=MAX_LIMBS):
    """One DP over ``plan`` (a ``Schedule``): the number of undirected
    Hamiltonian paths (open; with ``forced``, those with that square as an
    end) or cycles (closed). Returns ``(count, work)``.

    ``state``, to resume: ``(step, keys, counts, completed)`` as
    ``on_step`` was given it. ``on_step(step, keys, counts, completed)`` is
    called after each step (checkpoints); ``progress(step, steps, held)``
    too. A count past its limbs runs again (from ``state``, or from the
    start) with twice as many; past ``max_limbs`` it is an
    ``OverflowError``.
    """
    if state is None:
        keys = np.zeros(1, dtype=np.uint64)
        counts = np.zeros((1, FIRST_LIMBS), dtype=np.uint64)
        counts[0, 0] = 1
        state = (0, keys, counts, 0)
    while True:
        try:
            return _run(plan, closed, forced, progress, state, on_step)
        except _CountTooWide as error:
            first, keys, counts, completed = state
            limbs = 2 * counts.shape[1]
            if limbs > max_limbs:
                raise OverflowError(
                    f"a count on {plan.rows}x{plan.cols} passed 2^{64 * counts.shape[1]} - 1 at step {error}: "
                    f"the dp carries at most {64 * max_limbs}-bit counts"
                ) from None
            wider = np.zeros((counts.shape[0], limbs), dtype=np.uint64)
            wider[:, : counts.shape[1]] = counts
            state = (first, keys, wider, completed)


def _run(plan, closed, forced, progress, state, on_step):
    work = Work()
    first, keys, counts, completed = state
    terminals = 0 if closed else 2
    steps = len(plan.order)
    ratio = 4.0
    for step in range(first, steps):
        square = plan.order[step]
        old = plan.frontiers[step - 1] if step else []
        forced_slot = -1
        allowed = terminals
        if forced is not None:
            forced_slot = old.index(forced) if forced in old else -1
            # one tour end is the forced square's: another may go before it
            allowed = 2 if plan.leave_step[forced] <= step else 1
        expected = int(keys.shape[0] * ratio) + 1
        new_keys, new_counts, found, emitted, dead, overflow = frontier_step(
            keys, counts, plan.old_sizes[step], plan.neighbour_slots[step], plan.kept_slots[step],
            plan.leaving_slots[step], plan.stays[step], forced_slot, square == forced, allowed,
            step == steps - 1, bool(closed), _capacity_bits(expected), plan.remaining[step],
            plan.frontiers[step].index(forced) if forced in plan.frontiers[step] else -1,
        )
        limbs = counts.shape[1]
        if overflow:
            raise _CountTooWide(step)
        completed += sum(int(found[limb]) << (64 * limb) for limb in range(limbs))
        if completed >= 2 ** (64 * limbs):
            raise _CountTooWide(step)
        if keys.shape[0]:
            ratio = max(new_keys.shape[0] / keys.shape[0], 0.5)
        keys, counts = new_keys, new_counts
        work.held.append(int(keys.shape[0]))
        work.emitted.append(int(emitted))
        work.merged.append(int(emitted) - int(keys.shape[0]))
        work.dead.append(int(dead))
        if on_step is not None:
            on_step(step + 1, keys, counts, completed)
        if progress is not None:
            progress(step + 1, steps, int(keys.shape[0]))
    return completed, work
