"""Frontier dynamic-programming kernels: count Hamiltonian paths and cycles
of the knight's graph without enumerating them.

The driver (``knight.frontier``) inserts the board's squares one at a time
in a fixed order. When a square ``v`` is inserted, the DP decides which of
the edges to its already-inserted neighbours the tour uses (none, one or
two); edges are never decided at any other time. The *frontier* is the set
of inserted squares that still have a neighbour to come: only they can gain
edges, so only they need remembering. Everything else about a partial
solution is summed away: the table maps each frontier *state* to the number
of partial solutions (edge sets on the inserted squares) that reach it.

State of one frontier square (a 4-bit *slot*, slot ``i`` at bits ``4i``):

* ``BARE`` (0): no edge yet;
* ``INTERIOR`` (1): two edges, finished;
* ``TERMINAL_END`` (2): one edge, the end of a path whose other end has
  left the frontier with one edge: that other end is one of the tour's two
  ends (open tours only);
* a label ``>= FIRST_LABEL``: one edge, the end of a path whose other end
  is the frontier square with the same label.

Labels are renumbered in order of first appearance (slot 0 first), so equal
partial structures have equal keys. With at most 16 slots there are at most
8 paths with both ends on the frontier: labels 3..10 always fit in 4 bits.

A square *leaves* the frontier after its last neighbour is inserted. It must
leave with two edges, or with one as a tour end: open tours have two ends,
and the number of tour ends already gone is exactly the number of
``TERMINAL_END`` slots (each gone end's path ends on the frontier until the
path is complete, which can only happen at the very last square). Closed
tours have no ends: a cycle may close only when the last square is
inserted, every other frontier square already has two edges.

Exactness: a transition copies a count unchanged; counts meet only by
addition of non-negative integers, carried in 128 bits (two words: 3 x 40
already has about 5 x 10^19 tours, past 2^64), and every addition checks
for a carry out of the top word (``sum < addend``). A count that would not
fit sets the overflow flag and the driver raises; no wrapped number is
ever returned.
"""

import numpy as np

from knight._jit import jit

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
# words per hash table entry: key, then the count's low and high halves
_ENTRY = 3

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
def _add_128(low, high, add_low, add_high):
    """``(low, high) + (add_low, add_high)`` as 128-bit integers: returns
    ``(low, high, 1 if the sum carried out of 128 bits)``."""
    total_low = low + add_low
    carry = np.uint64(1) if total_low < add_low else np.uint64(0)
    partial = high + add_high
    overflow = 1 if partial < add_high else 0
    total_high = partial + carry
    if total_high < carry:
        overflow = 1
    return total_low, total_high, overflow


@jit(inline="always")
def _insert(table, shift, key, low, high):
    """Add the count ``(low, high)`` to ``key``'s bucket; returns (1 if
    new, 1 if the sum carried out of 128 bits). ``table`` holds an entry
    in three words, key, low and high half of its count, side by side so
    that a probe touches one cache line."""
    mask = np.intp(table.shape[0] // _ENTRY - 1)
    index = _bucket(key, shift)
    while True:
        held = table[_ENTRY * index]
        if held == key:
            total_low, total_high, carried = _add_128(
                table[_ENTRY * index + 1], table[_ENTRY * index + 2], low, high
            )
            table[_ENTRY * index + 1] = total_low
            table[_ENTRY * index + 2] = total_high
            return 0, carried
        if held == EMPTY:
            table[_ENTRY * index] = key
            table[_ENTRY * index + 1] = low
            table[_ENTRY * index + 2] = high
            return 1, 0
        index = (index + 1) & mask


@jit
def _new_table(capacity):
    table = np.zeros(_ENTRY * capacity, dtype=np.uint64)
    for index in range(capacity):
        table[_ENTRY * index] = EMPTY
    return table


@jit
def _grow(table, shift):
    """The same table at twice the capacity."""
    grown = _new_table(2 * (table.shape[0] // _ENTRY))
    grown_shift = shift - np.uint64(1)
    for index in range(table.shape[0] // _ENTRY):
        if table[_ENTRY * index] != EMPTY:
            _insert(grown, grown_shift, table[_ENTRY * index], table[_ENTRY * index + 1], table[_ENTRY * index + 2])
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

    ``counts`` is ``(n, 2)``: each count's low and high 64 bits.

    Returns ``(keys, counts, completed, emitted, dead, overflow)``: the next
    table (dense), the number of complete tours found at this step (low,
    high), the
    successors emitted into the table (the DP's work, like the DFS's
    nodes), the attempts that died, and 1 if a count carried out of 64 bits.
    """
    table = _new_table(1 << capacity_bits)
    shift = np.uint64(64 - capacity_bits)
    held = 0
    emitted = 0
    dead = 0
    overflow = 0
    completed_low = np.uint64(0)
    completed_high = np.uint64(0)

    inserted = old_size
    slots = np.zeros(MAX_SLOTS + 1, dtype=np.uint8)
    work = np.zeros(MAX_SLOTS + 1, dtype=np.uint8)
    renumber = np.zeros(16, dtype=np.uint8)
    candidates = np.zeros(4, dtype=np.intp)
    most_edges = 1 if inserted_forced else 2

    for state in range(keys.shape[0]):
        key = keys[state]
        low = counts[state, 0]
        high = counts[state, 1]
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
                    completed_low, completed_high, carried = _add_128(completed_low, completed_high, low, high)
                    overflow |= carried
                else:
                    emitted += 1
                    new, carried = _insert(table, shift, next_key, low, high)
                    held += new
                    overflow |= carried
                    if 2 * _ENTRY * held > table.shape[0]:
                        table, shift = _grow(table, shift)
                if first < 0 or most_edges < 2:
                    break
                second = first + 1 if second < 0 else second + 1
                if second >= n_candidates:
                    break

    # compact to a dense table: the next step reads it in order
    out_keys = np.empty(held, dtype=np.uint64)
    out_counts = np.empty((held, 2), dtype=np.uint64)
    filled = 0
    for index in range(table.shape[0] // _ENTRY):
        if table[_ENTRY * index] != EMPTY:
            out_keys[filled] = table[_ENTRY * index]
            out_counts[filled, 0] = table[_ENTRY * index + 1]
            out_counts[filled, 1] = table[_ENTRY * index + 2]
            filled += 1
    completed = np.empty(2, dtype=np.uint64)
    completed[0] = completed_low
    completed[1] = completed_high
    return out_keys, out_counts, completed, emitted, dead, overflow
