"""This module defines the frontier DP's states and their successors.

It holds the helpers that every step kernel calls. They count the
Hamiltonian paths and cycles of the knight's graph without enumerating them.

The driver (``knight.counting.dp.runs.run_loop``) inserts the board's squares one at a time
in a fixed order. When a square ``v`` is inserted, the DP decides which of
the edges to its already-inserted neighbours the tour uses (none, one or
two); edges are never decided at any other time. The *frontier* is the set
of inserted squares that still have a neighbour to come: only they can gain
edges, so only they need remembering. Everything else about a partial
solution is summed away: the table maps each frontier *state* to the number
of partial solutions (edge sets on the inserted squares) that reach it.

State of one frontier square (a *slot*, digit ``i`` of the key in base 11):

* ``BARE`` (0): no edge yet;
* ``INTERIOR`` (1): two edges, finished;
* ``TERMINAL_END`` (2): one edge, the end of a path whose other end has
  left the frontier with one edge: that other end is one of the tour's two
  ends (open tours only);
* a label ``>= FIRST_LABEL``: one edge, the end of a path whose other end
  is the frontier square with the same label.

Labels are renumbered in order of first appearance (slot 0 first), so equal
partial structures have equal keys. With at most 17 slots there are at most
8 paths with both ends on the frontier: labels 3..10, so every slot is one
of 11 values, and 11^17 < 2^64 keys fit one ``uint64`` (4 bits a slot,
shifts instead of divisions, would hold only 16 in a word: a step holds
its inserted square apart, see the word path below).

A square *leaves* the frontier after its last neighbour is inserted. It must
leave with two edges, or with one as a tour end: open tours have two ends,
and the number of tour ends already gone is exactly the number of
``TERMINAL_END`` slots (each gone end's path ends on the frontier until the
path is complete, which can only happen at the very last square). Closed
tours have no ends: a cycle may close only when the last square is
inserted, every other frontier square already has two edges.

Exactness: a transition copies a count unchanged; counts meet only by
addition of non-negative integers, carried in as many 64-bit limbs as the
``counts`` array has columns (3 x 40 has about 1.8 x 10^20 tours, past
2^64; 5 x 40 passes 2^128), and every addition checks for a carry out of
the top limb (``sum < addend``). A carry out sets the overflow flag: the
driver runs the step again with twice the limbs, and no wrapped number is
ever returned.
"""

import numpy as np

from knight.counting.dp.model.degree_relaxation import POWERS_OF_THREE
from knight.runtime._bits import popcount
from knight.runtime._jit import jit

# The small helpers are inlined into their callers (Numba IR inlining).
# ``word_successor`` is inlined too: it takes only numbers, so inlining
# adds no reference counting, and the step kernels then keep the state's
# word and the step's constants in registers across options instead of
# passing them through a call for every option. ``successor`` (the byte
# path, for frontiers past 16 slots) is compiled once and called: inlined,
# its arrays would be counted in and out around every option, and it was
# typed and optimised again in every kernel for no speed measured
# (journal: "The successors compiled once").

BARE = 0
INTERIOR = 1
TERMINAL_END = 2
FIRST_LABEL = 3
# a label no canonical state uses (at most 8 labels: 3..10), given to the
# path a step creates before the state is renumbered
_FRESH_LABEL = 15
MAX_SLOTS = 17
RADIX = 11

# what a slot value still needs: bare 2, interior 0, a path end 1
_NEED_OF = np.array([2, 0] + [1] * (16 - FIRST_LABEL + 1), dtype=np.int64)
_POWERS_OF_RADIX = np.uint64(RADIX) ** np.arange(MAX_SLOTS, dtype=np.uint64)

# what a successor attempt ended as (the kernel's own tallies)
_ALIVE = 0
_DEAD = 1
_DONE = 2  # a complete tour: counted, not stored


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
def _leave_outcome(value, forced, closed, final, completed):
    """``_leave``'s outcome for a square that held ``value``: _ALIVE with a
    label means its path's other end is now a tour end (the byte and the
    word paths share it: the rules of leaving are one)."""
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
    return _ALIVE


@jit(inline="always")
def _leave(slots, size, index, forced, closed, final, completed):
    """Square in slot ``index`` leaves the frontier. Returns _ALIVE, _DEAD,
    or _DONE when its leaving completes the tour."""
    value = slots[index]
    slots[index] = INTERIOR  # no later label scan may find it again
    outcome = _leave_outcome(value, forced, closed, final, completed)
    if outcome == _ALIVE and value >= FIRST_LABEL:
        # its path's other end is now a tour end
        _replace_label(slots, size, value, TERMINAL_END)
    return outcome


_NIBBLE_ONES = np.uint64(0x1111111111111111)
_SEVENS = np.uint64(0x7777777777777777)
_EIGHTS = np.uint64(0x8888888888888888)
_WORD_NIBBLES = 16


@jit(inline="always")
def _nibbles_equal(word, value):
    """Bit 0 of each nibble of the result: that nibble of ``word`` equals
    ``value``."""
    differ = word ^ (value * _NIBBLE_ONES)
    zero = ~(((differ & _SEVENS) + _SEVENS) | differ) & _EIGHTS
    return zero >> np.uint64(3)


_LOW_NIBBLES = np.uint64(0x0F0F0F0F0F0F0F0F)
_LOW_BYTES = np.uint64(0x00FF00FF00FF00FF)
_LOW_HALVES = np.uint64(0x0000FFFF0000FFFF)
_LOW_HALF = np.uint64(0xFFFFFFFF)


@jit(inline="always")
def _nibbles_in_radix(word):
    """The base-11 number whose digit ``i`` is nibble ``i`` of ``word``
    (each below 11): neighbours joined in pairs, the pairs in fours, the
    fours in eights, all lanes of a word at once (four multiplications,
    where a digit at a time took sixteen, each with a table load)."""
    pairs = (word & _LOW_NIBBLES) + ((word >> np.uint64(4)) & _LOW_NIBBLES) * np.uint64(RADIX)
    fours = (pairs & _LOW_BYTES) + ((pairs >> np.uint64(8)) & _LOW_BYTES) * np.uint64(RADIX**2)
    eights = (fours & _LOW_HALVES) + ((fours >> np.uint64(16)) & _LOW_HALVES) * np.uint64(RADIX**4)
    return (eights & _LOW_HALF) + (eights >> np.uint64(32)) * np.uint64(RADIX**8)


@jit(inline="always")
def _renumbered(word):
    """``word`` (slot values in nibbles) with its labels renumbered 3, 4,
    ... in order of first appearance, one round per path; returns it, the
    map old label -> new (nibble ``old`` of a word) and the next label."""
    # bit 0 of a nibble: it holds a label (3 or more: bit 3, bit 2, or bits 1 and 0)
    labels = ((word >> np.uint64(3)) | (word >> np.uint64(2)) | ((word >> np.uint64(1)) & word)) & _NIBBLE_ONES
    out = word & ~(labels * np.uint64(15))
    relabel = np.uint64(0)
    next_label = np.uint64(FIRST_LABEL)
    while labels:
        first = popcount((labels & (~labels + np.uint64(1))) - np.uint64(1))
        label = (word >> first) & np.uint64(15)
        same = _nibbles_equal(word, label)
        out |= same * next_label
        labels &= ~same
        relabel |= next_label << (label << np.uint64(2))
        next_label += np.uint64(1)
    return out, relabel, next_label


@jit(inline="always")
def _pack(work, kept_slots, inserted, inserted_stays):
    """The key of the next state: the kept slots' values, then the
    inserted square's if it stays, labels renumbered by first appearance.

    The values are gathered 4 bits each into one word (the first 16; a
    17th is handled alone), and the renumbering works on the whole word:
    one round per path, not one branch per slot. Slot values come in no
    order a branch predictor could learn: the loop of one test per slot
    it replaces cost 60 ns a successor, more than all the rest of one."""
    n_kept = kept_slots.shape[0]
    count = n_kept + (1 if inserted_stays else 0)
    low = min(count, _WORD_NIBBLES)
    word = np.uint64(0)
    for position in range(low):
        slot = kept_slots[position] if position < n_kept else inserted
        word |= np.uint64(work[slot]) << np.uint64(4 * position)
    out, relabel, next_label = _renumbered(word)
    key = _nibbles_in_radix(out)
    if count > _WORD_NIBBLES:
        value = np.uint64(work[inserted if n_kept == _WORD_NIBBLES else kept_slots[_WORD_NIBBLES]])
        if value >= np.uint64(FIRST_LABEL):
            mapped = (relabel >> (value << np.uint64(2))) & np.uint64(15)
            value = next_label if mapped == np.uint64(0) else mapped
        key += value * _POWERS_OF_RADIX[_WORD_NIBBLES]
    return key


@jit
def successor(
    slots,
    work,
    inserted,
    first_slot,
    second_slot,
    kept_slots,
    inserted_stays,
    leaving_slots,
    forced_slot,
    inserted_forced,
    final,
    closed,
):
    """Apply one option (edges from the inserted square to ``first_slot``
    and ``second_slot``, -1 for none) to ``slots``, in the scratch
    ``work``. Returns ``(outcome, key)``; ``key`` is the packed canonical
    next state when the outcome is _ALIVE."""
    size = inserted + 1
    for index in range(size):
        work[index] = slots[index]
    done = False
    for target in (first_slot, second_slot):
        if target >= 0:
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
    return _ALIVE, _pack(work, kept_slots, inserted, inserted_stays)


# --- the same successors on one word ---
#
# The old slots of a frontier of at most 16 (every board of short side 8
# or less in its default order) fit one uint64 of nibbles, slot ``i`` in
# nibble ``i``; the inserted square's value is held apart, in a register
# of its own (``spare``). There a successor is made in registers: a slot
# read or set is a shift and a mask, a path relabelled is one word-wide
# compare (``_nibbles_equal``) and one compare of the spare, the kept
# slots are the word with the leaving nibbles cut out and the spare put
# on top. The byte helpers above copied the slots for every option,
# scanned them for every relabelling and gathered them again to pack.
#
# Why the inserted square apart, not a second word of nibbles 16 and up:
# it is the only slot that can be the 17th (the old slots are at most 16),
# every edge of a step has it as one end, so it is read and set by every
# option, and a scalar is cheaper to read and set than a nibble; the
# relabellings that can reach it are those of a leaving old slot's
# partner, one compare and a select. Only a step that keeps all 16 old
# slots and the inserted square (17 after it) puts it past the word, as
# ``_pack`` puts a 17th. Frontiers of 17 old slots (orders other than
# ``cell_order``'s, such as top to bottom on short side 8) and unordered
# kept slots take the byte helpers; both make the same keys (tests hold
# them to it).


@jit
def word_layout(old_size, kept_slots, leaving_slots):
    """``(narrow, layout)``: whether a step's slots fit the word path (at
    most 16 old slots, ``kept_slots`` in order), and what ``word_successor``
    reads of the step's slots, as numbers in nibbles, not arrays: ``(cut,
    cuts, leaving, leavings)``, the old slots that are not kept (highest
    first: cut out of the word in turn) and those that leave (in the order
    of ``leaving_slots``), each with how many. An array handed to the
    successor was counted in and out (two atomic reference-count
    updates each) for every option of every state."""
    kept = np.zeros(old_size + 1, dtype=np.bool_)
    narrow = old_size <= _WORD_NIBBLES
    for index in range(kept_slots.shape[0]):
        kept[kept_slots[index]] = True
        narrow = narrow and (index == 0 or kept_slots[index] > kept_slots[index - 1])
    cut = [slot for slot in range(old_size - 1, -1, -1) if not kept[slot]]
    cut_nibbles, leaving_nibbles = np.uint64(0), np.uint64(0)
    if narrow:  # slots of the word path are below 16: a nibble each
        for index in range(len(cut)):
            cut_nibbles |= np.uint64(cut[index]) << np.uint64(4 * index)
        for index in range(leaving_slots.shape[0]):
            leaving_nibbles |= np.uint64(leaving_slots[index]) << np.uint64(4 * index)
    return narrow, (cut_nibbles, np.intp(len(cut)), leaving_nibbles, np.intp(leaving_slots.shape[0]))


@jit(inline="always")
def _nibble(word, index):
    return (word >> np.uint64(4 * index)) & np.uint64(15)


@jit(inline="always")
def _with_nibble(word, index, value):
    shift = np.uint64(4 * index)
    return (word & ~(np.uint64(15) << shift)) | (np.uint64(value) << shift)


@jit(inline="always")
def _relabelled(word, old, new):
    """``word`` with every nibble ``old`` (a label: never 0, so the unused
    high nibbles never match) made ``new``."""
    same = _nibbles_equal(word, old)
    return word - same * np.uint64(old) + same * np.uint64(new)


@jit(inline="always")
def _spare_relabelled(spare, old, new):
    # a select, not a branch: whether the spare is the partner comes in no
    # order a predictor could learn
    return np.uint64(new) if spare == old else spare


@jit(inline="always")
def _word_edge(word, spare, old_size, a, final, closed):
    """``_add_edge`` from old slot ``a`` to the inserted square (``spare``):
    returns ``(outcome, word, spare)``."""
    x = _nibble(word, a)
    y = spare
    if x == INTERIOR or y == INTERIOR:
        return _DEAD, word, spare
    if x == BARE and y == BARE:
        return _ALIVE, _with_nibble(word, a, _FRESH_LABEL), np.uint64(_FRESH_LABEL)
    if x == BARE:
        return _ALIVE, _with_nibble(word, a, y), np.uint64(INTERIOR)
    if y == BARE:
        return _ALIVE, _with_nibble(word, a, INTERIOR), x
    # two path ends meet: both finished, so the relabellings below never
    # reach the spare
    word = _with_nibble(word, a, INTERIOR)
    spare = np.uint64(INTERIOR)
    if x == y and x >= FIRST_LABEL:
        # a cycle: only the closing edge of a closed tour, every square
        # finished (old_size >= 1 here: slot ``a`` is one, so the shift is
        # at most 60)
        finished = word == _NIBBLE_ONES >> np.uint64(4 * (_WORD_NIBBLES - old_size))
        return (_DONE if closed and final and finished else _DEAD), word, spare
    if x == TERMINAL_END and y == TERMINAL_END:
        return (_DONE if final else _DEAD), word, spare
    if x == TERMINAL_END:
        return _ALIVE, _relabelled(word, y, TERMINAL_END), spare
    if y == TERMINAL_END:
        return _ALIVE, _relabelled(word, x, TERMINAL_END), spare
    return _ALIVE, _relabelled(word, y, x), spare


@jit(inline="always")
def _word_leave(word, spare, index, forced, closed, final, completed):
    """``_leave`` of old slot ``index``: returns ``(outcome, word, spare)``
    (its partner may be the spare)."""
    value = _nibble(word, index)
    word = _with_nibble(word, index, INTERIOR)
    outcome = _leave_outcome(value, forced, closed, final, completed)
    if outcome == _ALIVE and value >= FIRST_LABEL:
        return outcome, _relabelled(word, value, TERMINAL_END), _spare_relabelled(spare, value, TERMINAL_END)
    return outcome, word, spare


@jit(inline="always")
def _spare_leave(word, spare, forced, closed, final, completed):
    """``_leave`` of the inserted square: returns ``(outcome, word, spare)``."""
    outcome = _leave_outcome(spare, forced, closed, final, completed)
    if outcome == _ALIVE and spare >= FIRST_LABEL:
        word = _relabelled(word, spare, TERMINAL_END)
    return outcome, word, np.uint64(INTERIOR)


@jit(inline="always")
def _word_key(word, spare, old_size, cut, cuts, inserted_stays, mirror):
    """``_pack`` on a word: the ``cuts`` slots in the nibbles of ``cut``
    (highest first) cut out, the spare on top if the inserted square stays,
    the whole renumbered, made canonical under ``mirror``
    (``canonical_key``'s) and encoded."""
    for index in range(cuts):
        below = (np.uint64(1) << (np.uint64(4) * _nibble(cut, index))) - np.uint64(1)
        word = (word & below) | ((word >> np.uint64(4)) & ~below)
    kept = old_size - cuts
    if inserted_stays and kept < _WORD_NIBBLES:
        word |= spare << np.uint64(4 * kept)
    if mirror[1]:
        # a mirror map holds at most 16 slots (a step to 17 has none), and
        # only the member of the pair that is kept is renumbered
        return _nibbles_in_radix(_canonical_word(word, mirror))
    out, relabel, next_label = _renumbered(word)
    key = _nibbles_in_radix(out)
    if inserted_stays and kept == _WORD_NIBBLES:
        # the 17th slot after the step: renumbered by the map of the 16
        # below it (its partner is among them, or it is new)
        value = spare
        if value >= np.uint64(FIRST_LABEL):
            mapped = (relabel >> (value << np.uint64(2))) & np.uint64(15)
            value = next_label if mapped == np.uint64(0) else mapped
        key += value * _POWERS_OF_RADIX[_WORD_NIBBLES]
    return key


@jit(inline="always")
def word_successor(
    word,
    inserted,
    first_slot,
    second_slot,
    layout,
    inserted_stays,
    forced_slot,
    inserted_forced,
    final,
    closed,
    mirror,
):
    """``successor`` of the state held in ``word`` (``state_word``: the old
    slots; the inserted square starts bare, apart), the slots cut and
    those leaving given by ``layout`` (``word_layout``), its key made
    canonical under ``mirror`` (``canonical_key``'s)."""
    cut, cuts, leaving, leavings = layout
    old_size = inserted
    spare = np.uint64(BARE)
    done = False
    for target in (first_slot, second_slot):
        if target >= 0:
            outcome, word, spare = _word_edge(word, spare, old_size, target, final, closed)
            if outcome == _DEAD:
                return _DEAD, np.uint64(0)
            done = done or outcome == _DONE
    if not inserted_stays:
        outcome, word, spare = _spare_leave(word, spare, inserted_forced, closed, final, done)
        if outcome == _DEAD:
            return _DEAD, np.uint64(0)
        done = done or outcome == _DONE
    for index in range(leavings):
        slot = np.intp(_nibble(leaving, index))
        outcome, word, spare = _word_leave(word, spare, slot, slot == forced_slot, closed, final, done)
        if outcome == _DEAD:
            return _DEAD, np.uint64(0)
        done = done or outcome == _DONE
    if done:
        return _DONE, np.uint64(0)
    if final:
        return _DEAD, np.uint64(0)
    return _ALIVE, _word_key(word, spare, old_size, cut, cuts, inserted_stays, mirror)


@jit(inline="always")
def pattern_code(key, slots, old_size, forced_slot):
    """Decode ``key`` into ``slots``; return its degree pattern's code:
    what each square still needs (base 3, slot 0 lowest), and above them
    the tour ends committed (the forced start's, once it is in)."""
    ends = 0
    code = np.int64(0)
    for index in range(old_size):
        # division by a constant: a multiply and a shift. No branch on the
        # digit: slot values come in no order a predictor could learn
        # (this loop took 2x longer with them)
        value = np.uint8(key % np.uint64(RADIX))
        key //= np.uint64(RADIX)
        slots[index] = value
        code += _NEED_OF[value] * POWERS_OF_THREE[index]
        ends += value == TERMINAL_END  # its path's other end is a gone tour end
    forced_value = slots[forced_slot] if forced_slot >= 0 else BARE
    return _with_ends(code, ends, old_size, forced_slot, forced_value)


@jit(inline="always")
def _with_ends(code, ends, old_size, forced_slot, forced_value):
    """The pattern's code from its need digits' ``code`` and the gone ends
    counted, the forced start's slot (holding ``forced_value``) counted in."""
    if forced_slot >= 0:
        # the forced start needs one edge in all: none left once it has it
        forced_need = 1 if forced_value == BARE else 0
        code += (forced_need - _NEED_OF[forced_value]) * POWERS_OF_THREE[forced_slot]
        ends += 1
    return code + ends * POWERS_OF_THREE[old_size]


@jit(inline="always")
def listed_pattern(code, rank, before):
    """The number of pattern ``code`` in the step's option lists, -1 when
    it is not among them."""
    # the pattern's own bit says whether it is listed: the check against
    # ``patterns[pattern]`` it replaces waited on one more load from a
    # table past the core's cache, for every state
    word = code >> 6
    bits = before[word]
    bit = np.uint64(code & 63)
    pattern = rank[word] + popcount(bits & ((np.uint64(1) << bit) - np.uint64(1)))
    return np.intp(pattern) if (bits >> bit) & np.uint64(1) else np.intp(-1)


@jit(inline="always")
def state_pattern(key, slots, old_size, forced_slot, rank, before):
    """Decode ``key`` into ``slots`` (the inserted square's slot bare) and
    return its degree pattern's number in the step's option lists, or -1
    when its pattern is not among them (a stray: never, the driver
    checks)."""
    code = pattern_code(key, slots, old_size, forced_slot)
    slots[old_size] = BARE
    return listed_pattern(code, rank, before)


# The word path decodes a key three base-11 digits at a time: one division
# by 11^3 and one look-up in ``_TRIPLES`` (1,331 entries, in the core's
# first cache) per three slots, where a digit at a time was a division and
# two look-ups per slot, one chain of dependent multiplies through the whole
# key (about 350 instructions a state of 12 slots, more than a successor).
# An entry holds the three slots' nibbles (bits 0-11), their needs as base-3
# digits (bits 12-16) and how many are TERMINAL_END (bits 17-18).
_GROUP = 3
_GROUP_RADIX = np.uint64(RADIX**_GROUP)


def _triples():
    table = np.zeros(RADIX**_GROUP, dtype=np.int64)
    for index in range(RADIX**_GROUP):
        values = [index // RADIX**place % RADIX for place in range(_GROUP)]
        nibbles = sum(value << (4 * place) for place, value in enumerate(values))
        needs = sum(int(_NEED_OF[value]) * 3**place for place, value in enumerate(values))
        ends = sum(value == TERMINAL_END for value in values)
        table[index] = nibbles | needs << 12 | ends << 17
    return table


_TRIPLES = _triples()
# the need digits a frontier of ``n`` slots gets from the bare digits above
# it that its last group decodes too (2 each: a bare slot's), to take away
_PAST_THE_END = np.array(
    [sum(2 * 3**place for place in range(size, -(-size // _GROUP) * _GROUP)) for size in range(MAX_SLOTS + 1)],
    dtype=np.int64,
)


@jit(inline="always")
def state_word(key, old_size, forced_slot, rank, before):
    """``state_pattern`` for the word path (``word_successor``): returns
    ``(pattern, word)``, the slots in the word's nibbles (the inserted
    square's bare)."""
    code, word = word_code(key, old_size, forced_slot)
    return listed_pattern(code, rank, before), word


@jit(inline="always")
def word_code(key, old_size, forced_slot):
    """``state_word`` before the look-up: ``(code, word)``, the pattern's
    code (``pattern_code``'s) and the slots in nibbles."""
    ends = np.int64(0)
    code = -_PAST_THE_END[old_size]
    word = np.uint64(0)
    for index in range(0, old_size, _GROUP):
        entry = _TRIPLES[key % _GROUP_RADIX]
        key //= _GROUP_RADIX
        word |= np.uint64(entry & 0xFFF) << np.uint64(4 * index)
        code += ((entry >> 12) & 31) * POWERS_OF_THREE[index]
        ends += entry >> 17
    forced_value = _nibble(word, forced_slot) if forced_slot >= 0 else np.uint64(BARE)
    return _with_ends(code, ends, old_size, forced_slot, forced_value), word


@jit(inline="always")
def decoded_state(narrow, key, slots, old_size, forced_slot, rank, before):
    """``(pattern, word)`` of ``key``: on the word path (``narrow``) its
    word, on the byte path 0 and its slots decoded into ``slots``."""
    if narrow:
        return state_word(key, old_size, forced_slot, rank, before)
    return state_pattern(key, slots, old_size, forced_slot, rank, before), np.uint64(0)


@jit
def first_malformed(keys, old_size, forced_slot, tour_ends, before):
    """The index of the first of ``keys`` that is not a state a step makes
    on a frontier of ``old_size`` slots, -1 if every one is: each digit a
    slot value, every label on exactly two slots and numbered in order of
    first appearance (``_pack`` makes them so), at most ``tour_ends`` tour
    ends, and a degree pattern in ``before``. A resumed table is read from
    a file: the step kernel trusts its keys, and a key past these rules
    would index its arrays out of bounds."""
    seen = np.zeros(RADIX, dtype=np.int64)
    slots = np.zeros(MAX_SLOTS + 1, dtype=np.uint8)
    for state in range(keys.shape[0]):
        key = keys[state]
        if old_size < _POWERS_OF_RADIX.shape[0] and key >= _POWERS_OF_RADIX[old_size]:
            return state
        code = pattern_code(key, slots, old_size, forced_slot)
        seen[:] = 0
        next_label = FIRST_LABEL
        well_formed = True
        for index in range(old_size):
            value = slots[index]
            if value >= FIRST_LABEL:
                if seen[value] == 0:
                    well_formed &= value == next_label
                    next_label += 1
                seen[value] += 1
        for label in range(FIRST_LABEL, next_label):
            well_formed &= seen[label] == 2
        # the need digits stay below 3^old_size: what is above is the tour ends
        if not well_formed or code // POWERS_OF_THREE[old_size] > tour_ends:
            return state
        if not (before[code >> 6] >> np.uint64(code & 63)) & np.uint64(1):
            return state
    return -1


# --- one state for each mirror pair ---
#
# At a cut where the inserted squares are closed under the reflection of
# the rows (``cell_order.mirror_map``), a state and its mirror image have
# as many completions when the count is symmetric. The steps may then keep
# one of the two alone, the same one whichever they meet, with the sum of
# both weights: the tables merge equal keys, so the total stays exact.


@jit(inline="always")
def _mirrored_word(word, mirror):
    """``word`` with nibble ``i`` moved to the nibble that ``mirror``
    (``cell_order.mirror_map``'s) names for it. Nibbles past the frontier
    are 0, wherever they go."""
    nibbles, _size, stay, up, down = mirror
    if stay | up | down:
        # every image is the slot itself or a neighbour: three masks move them all
        return (word & stay) | ((word & up) << np.uint64(4)) | ((word >> np.uint64(4)) & down)
    # the loop runs over the whole word, so that it unrolls
    out = np.uint64(0)
    for index in range(_WORD_NIBBLES):
        shift = np.uint64(4 * index)
        value = (word >> shift) & np.uint64(15)
        out |= value << (((nibbles >> shift) & np.uint64(15)) << np.uint64(2))
    return out


@jit(inline="always")
def _key_word(key, size):
    """The slots of ``key`` (``size`` of them, at most 16) in nibbles."""
    word = np.uint64(0)
    for index in range(0, size, _GROUP):
        entry = _TRIPLES[key % _GROUP_RADIX]
        key //= _GROUP_RADIX
        word |= np.uint64(entry & 0xFFF) << np.uint64(4 * index)
    return word


@jit(inline="always")
def _shape(word):
    """``word`` with every label made 3: what is left of a state when its
    pairing of path ends is forgotten. A state and its mirror image have
    mirrored shapes, whatever their labels."""
    labels = ((word >> np.uint64(3)) | (word >> np.uint64(2)) | ((word >> np.uint64(1)) & word)) & _NIBBLE_ONES
    return (word & ~(labels * np.uint64(15))) | (labels * np.uint64(FIRST_LABEL))


@jit(inline="always")
def _canonical_word(word, mirror):
    """The renumbered slots of the canonical member of the pair of ``word``
    (slots in nibbles, its labels numbered in any way) and its mirror
    image under ``mirror``, a map with slots: the one with the smaller
    shape, and where the shapes are equal the smaller renumbered word.
    Either member gives the same. The shapes are compared first because
    they need no renumbering, and most pairs differ in shape: then only the
    member kept is renumbered."""
    image = _mirrored_word(word, mirror)
    shape, image_shape = _shape(word), _shape(image)
    if shape < image_shape:
        return _renumbered(word)[0]
    if shape > image_shape:
        return _renumbered(image)[0]
    word, image = _renumbered(word)[0], _renumbered(image)[0]
    return image if image < word else word


@jit(inline="always")
def canonical_key(key, mirror):
    """The key of the canonical member of the pair of ``key`` and its mirror
    image (``_canonical_word``'s). ``mirror`` is ``cell_order.mirror_map``'s
    tuple for the frontier of ``key``; a size (its second item) of 0 leaves
    every key as it is."""
    if mirror[1] == 0:
        return key
    word = _key_word(key, mirror[1])
    canonical = _canonical_word(word, mirror)
    return key if canonical == word else _nibbles_in_radix(canonical)


@jit
def asymmetric_states(keys, mirror):
    """How many of ``keys`` differ from their mirror image's key: at a cut
    closed under the reflection, each of them stands for two states."""
    size = mirror[1]
    found = 0
    for index in range(keys.shape[0]):
        word = _key_word(keys[index], size)
        image = _mirrored_word(word, mirror)
        if _shape(image) != _shape(word):
            found += 1
        else:
            image, _relabel, _next = _renumbered(image)
            found += image != word
    return found
