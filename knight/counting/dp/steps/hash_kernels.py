"""This module compiles the hash step's kernel, ``frontier_step``.

The kernel inserts every successor of a table's states into one
open-addressing table (``table_kernels``) and prefetches its cache lines a
batch at a time. Each call takes one part of the successors, by pattern, so
that threads fill tables of their own. ``model.states`` says what a state
and its successors are."""

from typing import NamedTuple

import numpy as np

from knight.counting.dp.model.degree_relaxation import MOST_OPTIONS
from knight.counting.dp.model.states import (
    _DEAD,
    _DONE,
    MAX_SLOTS,
    canonical_key,
    decoded_state,
    successor,
    word_layout,
    word_successor,
)
from knight.counting.dp.tables.table_kernels import (
    _HASH_MULTIPLIER,
    EMPTY,
    _bucket,
    _find,
    _grow,
    _new_table,
    add_count,
)
from knight.runtime._bits import prefetch, wrapping_multiply
from knight.runtime._jit import jit

# successors inserted together after their cache lines were prefetched
_BATCH = 64


class FrontierMade(NamedTuple):
    """What ``frontier_step`` made of its part of a table.

    ``keys`` and ``counts`` are the next table (dense); ``completed`` is the
    number of tours that the step completed, in 64-bit limbs, least
    significant first; ``emitted`` counts the successors (the DP's work, like
    the DFS's nodes); ``dead`` counts the options dropped; ``overflow`` is 1
    if a count carried out of the top limb; ``strays`` counts the states
    whose pattern the relaxation does not list (always 0: the callers check).
    """

    keys: np.ndarray
    counts: np.ndarray
    completed: np.ndarray
    emitted: int
    dead: int
    overflow: int
    strays: int


@jit(inline="always")
def _part_of(pattern, parts):
    # the pattern's digits always add up to the same parity, so a plain
    # pattern % 2 would give one part everything: hash it first
    return np.intp((wrapping_multiply(np.uint64(pattern), _HASH_MULTIPLIER) >> np.uint64(32)) % np.uint64(parts))


@jit
def _insert_pending(table, entry, shift, salt, pending_keys, pending_states, n_pending, counts, held):
    """Insert the ``n_pending`` successors waiting in ``pending_keys`` (their
    parents' rows of ``counts`` in ``pending_states``) into ``table``
    (``held`` keys), growing it once it holds more than 3/4. Returns
    ``(table, shift, held, carry)``, ``carry`` 1 if a count carried out of
    the top limb.

    Called once a batch, and the insertions themselves a call deeper
    (``_insert_run``): in a loop that may grow ``table``, Numba counts the
    array in and out (atomic updates) on every pass."""
    carry = 0
    first = 0
    while first < n_pending:
        # the table grows once it holds more than 3/4: not before ``items`` more keys
        items = min(n_pending - first, (3 * table.shape[0]) // (4 * entry) + 1 - held)
        claimed, carried = _insert_run(table, entry, shift, salt, pending_keys, pending_states, first, items, counts)
        held += claimed
        carry |= carried
        first += items
        if 4 * entry * held > 3 * table.shape[0]:
            table, shift = _grow(table, entry, shift, salt)
    return table, shift, held, carry


@jit
def _insert_run(table, entry, shift, salt, pending_keys, pending_states, first, items, counts):
    """``_insert_pending``'s successors ``first`` .. ``first + items - 1``,
    for which ``table`` has room. Returns ``(claimed, carry)``: the keys
    that were new, 1 if a count carried out of the top limb."""
    limbs = counts.shape[1]
    claimed = 0
    carry = 0
    for index in range(first, first + items):
        source = pending_states[index]
        at, new = _find(table, entry, shift, salt, pending_keys[index])
        if new:
            for limb in range(limbs):
                table[at + 1 + limb] = counts[source, limb]
        else:
            carry |= add_count(table, at + 1, counts, source, limbs)
        claimed += new
    return claimed, carry


@jit
def frontier_step(
    keys,
    counts,
    old_size,
    kept_slots,
    leaving_slots,
    inserted_stays,
    forced_slot,
    inserted_forced,
    final,
    closed,
    options,
    mirror,
    salt,
    capacity_bits,
    part,
    parts,
):
    """Insert one square: map every state of the table ``keys``/``counts``
    (dense, one state per entry, frontier of ``old_size`` slots) to its
    successors and merge equal ones.

    ``kept_slots``: the old slots still on the frontier after this step,
    in order; the inserted square follows them when ``inserted_stays``.
    ``leaving_slots``: old slots whose last neighbour this is.
    ``forced_slot`` (-1: none) / ``inserted_forced``: the square that must
    be a tour end (one start's count). ``options``: what
    ``degree_relaxation.option_lists`` made for this step, with the bitmap
    of patterns before it: ``(rank, before, patterns, starts, firsts,
    seconds, codes, dropped)``. A state tries only the options listed for
    its degree pattern, those whose pattern after the step can still be
    completed. ``mirror``: the reflection of the next frontier
    (``states.canonical_key``'s), under which each successor is kept as
    the canonical member of it and its mirror image. ``salt``: the step's hash salt (a ``uint64``, a new one each
    step). ``capacity_bits``: log2 of the hash table's first size.
    ``part`` of ``parts``: this call builds only the successors whose
    pattern falls in its part (equal states have equal patterns, so parts
    never share a state: threads fill their own tables and the tables need
    no merging).

    ``counts`` is ``(n, limbs)``: each count in 64-bit limbs, least
    significant first.

    Returns a ``FrontierMade``.
    """
    rank, before, _patterns, starts, firsts, seconds, codes, dropped = options
    limbs = counts.shape[1]
    entry = 1 + limbs
    table = _new_table(1 << capacity_bits, entry)
    shift = np.uint64(64 - capacity_bits)
    held = 0
    emitted = 0
    dead = 0
    overflow = 0
    strays = 0
    completed = np.zeros(limbs, dtype=np.uint64)

    inserted = old_size
    narrow, layout = word_layout(old_size, kept_slots, leaving_slots)
    slots = np.zeros(MAX_SLOTS + 1, dtype=np.uint8)
    work = np.zeros(MAX_SLOTS + 1, dtype=np.uint8)
    # successors waiting for insertion: a batch, plus one state's options
    pending_keys = np.empty(_BATCH + MOST_OPTIONS, dtype=np.uint64)
    pending_states = np.empty(_BATCH + MOST_OPTIONS, dtype=np.intp)
    n_pending = 0

    for state in range(keys.shape[0]):
        pattern, word = decoded_state(narrow, keys[state], slots, old_size, forced_slot, rank, before)
        first_option, end_option = 0, 0
        if pattern >= 0:
            first_option, end_option = starts[pattern], starts[pattern + 1]
            if part == 0:
                dead += dropped[pattern]
        else:
            strays += 1
        for option in range(first_option, end_option):
            if _part_of(codes[option], parts) != part:
                continue  # another thread's successor
            first_slot, second_slot = np.intp(firsts[option]), np.intp(seconds[option])
            # the paths are called apart: through one inlined helper, the
            # byte path's arrays, handed to it for every option, were
            # counted in and out (atomic updates) on the word path too
            if narrow:
                outcome, next_key = word_successor(
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
                )
            else:
                outcome, next_key = successor(
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
                )
                next_key = canonical_key(next_key, mirror)
            if outcome == _DEAD:
                dead += 1
            elif outcome == _DONE:
                overflow |= add_count(completed, 0, counts, state, limbs)
            else:
                emitted += 1
                pending_keys[n_pending] = next_key
                pending_states[n_pending] = state
                n_pending += 1
                prefetch(table, entry * _bucket(next_key, shift, salt))
        if n_pending >= _BATCH or state == keys.shape[0] - 1:
            # the batch's cache lines were requested as its keys were made:
            # inserting them now waits on memory once, not once per key
            table, shift, held, carry = _insert_pending(
                table, entry, shift, salt, pending_keys, pending_states, n_pending, counts, held
            )
            overflow |= carry
            n_pending = 0

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
    return FrontierMade(out_keys, out_counts, completed, emitted, dead, overflow, strays)
