"""This module compiles the kernels of the frontier DP's step with sequential tables.

Successors are appended to per-partition buffers, and each partition is then
reduced in a hash table small enough to stay in cache. ``partitioned_step``
drives the kernels.

Why: the hash step (``hash_kernels.frontier_step``) sends every successor to
a random place in one table as large as the next step's states; once that
table is past the caches each insertion waits on memory. Here a successor
goes to one of ``parts`` partitions by the top bits of its key's hash and is
written at the end of that partition's buffer (a few hundred streams of
sequential writes); a partition is then merged into its own table, sized
to fit the cache, by the hash's low bits. The next table is the reduced
partitions one after the other: equal keys share a partition, so no state
appears twice. What a state's successors are, and the exactness of their
counts (carry-checked limbs), is the hash step's, from the same helpers.

A buffer holds ``region`` entries per partition (an entry: the key, then
its count's limbs, least significant first). The emit kernel stops before a
state whose successors might not fit, and its caller reduces and empties
the buffers before it goes on from there: the successors held at once are a
chunk's, never a whole step's.
"""

from typing import NamedTuple

import numpy as np

from knight.counting.dp.model.degree_relaxation import MOST_OPTIONS
from knight.counting.dp.model.states import (
    _DEAD,
    _DONE,
    MAX_SLOTS,
    canonical_key,
    listed_pattern,
    pattern_code,
    state_pattern,
    successor,
    word_code,
    word_layout,
    word_successor,
)
from knight.counting.dp.tables.table_kernels import EMPTY, add_count, dense_entries, mixed_key
from knight.runtime._bits import prefetch
from knight.runtime._jit import jit

_LOW_HALF = np.uint64(0xFFFFFFFF)
_LINE_WORDS = 8  # 64-bit words in a 64-byte cache line
_STREAM_AHEAD = 2 * _LINE_WORDS
_MERGE_AHEAD = 8
_MERGE_RING = 16  # a power of two past _MERGE_AHEAD: masked
_MERGE_RING_MASK = _MERGE_RING - 1
# emit_successors' ring of states ahead: each link of a state's chain of
# look-ups is taken _LEAD states before the next, so the ring holds the
# 3 * _LEAD states ahead and the state at its turn (a power of two: masked)
_LEAD = 4
_RING = 1 << (3 * _LEAD).bit_length()
_RING_MASK = _RING - 1


class Emitted(NamedTuple):
    """What ``emit_successors`` did with one chunk of a thread's states.

    ``next_state`` is the first state not done; ``completed`` is the number
    of tours completed, in 64-bit limbs, least significant first;
    ``emitted`` counts the successors appended; ``dead`` counts the options
    that died; ``overflow`` is 1 if a completed count carried out of the top
    limb; ``strays`` counts the states whose pattern the relaxation does not
    list.
    """

    next_state: int
    completed: np.ndarray
    emitted: int
    dead: int
    overflow: int
    strays: int


@jit(inline="always")
def partition_of(mixed, parts):
    """The partition of a key whose hash is ``mixed``: its top 32 bits
    scaled to ``parts`` (any number, not only powers of two); the table
    inside a partition uses the low bits, which this leaves free."""
    return np.intp(((mixed >> np.uint64(32)) * np.uint64(parts)) >> np.uint64(32))


@jit(inline="always")
def _bucket_of(mixed, mask):
    """The first bucket a key whose hash is ``mixed`` probes in its
    partition's table of ``mask + 1`` entries: the low 32 bits, which
    ``partition_of`` leaves free."""
    return np.intp(mixed & _LOW_HALF) & mask


@jit
def emit_successors(
    keys,
    counts,
    first_state,
    end_state,
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
    parts,
    region,
    buffer,
    fill,
):
    """Append the successors of states ``first_state`` .. ``end_state`` - 1
    of ``keys``/``counts`` to ``buffer`` (``parts`` partitions of
    ``region`` entries, ``fill[p]`` used), stopping before a state whose
    successors might not all fit. The step's arguments are the hash step's
    (``hash_kernels.frontier_step``).

    Returns an ``Emitted``."""
    rank, before, _patterns, starts, firsts, seconds, _codes, dropped = options
    limbs = counts.shape[1]
    entry = 1 + limbs
    completed = np.zeros(limbs, dtype=np.uint64)
    emitted = 0
    dead = 0
    overflow = 0
    strays = 0
    inserted = old_size
    narrow, layout = word_layout(old_size, kept_slots, leaving_slots)
    slots = np.zeros(MAX_SLOTS + 1, dtype=np.uint8)
    work = np.zeros(MAX_SLOTS + 1, dtype=np.uint8)
    pending_keys = np.empty(MOST_OPTIONS, dtype=np.uint64)
    pending_parts = np.empty(MOST_OPTIONS, dtype=np.intp)
    # the look-ups of a state wait on memory in a chain: its pattern's bit
    # and rank, then the pattern's option range, then its options. A ring
    # of the states ahead takes each link _LEAD states before the next and
    # asks for the line the next link reads, so that the waits of several
    # states overlap. Written out here, not in helpers: an array handed to
    # an inlined helper is counted in and out for every state
    codes = np.empty(_RING, dtype=np.int64)
    words = np.empty(_RING, dtype=np.uint64)
    patterns = np.empty(_RING, dtype=np.intp)
    state = first_state
    for tick in range(first_state - 3 * _LEAD, end_state):
        ahead = tick + 3 * _LEAD
        if ahead < end_state:
            if narrow:
                code, word = word_code(keys[ahead], old_size, forced_slot)
            else:  # the byte path: the slots are decoded again when the state's turn comes
                code, word = pattern_code(keys[ahead], slots, old_size, forced_slot), np.uint64(0)
            codes[ahead & _RING_MASK], words[ahead & _RING_MASK] = code, word
            prefetch(before, code >> 6)
            prefetch(rank, code >> 6)
        ahead = tick + 2 * _LEAD
        if first_state <= ahead < end_state:
            pattern = listed_pattern(codes[ahead & _RING_MASK], rank, before)
            patterns[ahead & _RING_MASK] = pattern
            if pattern >= 0:
                prefetch(starts, pattern)
                prefetch(dropped, pattern)
        ahead = tick + _LEAD
        if first_state <= ahead < end_state:
            pattern = patterns[ahead & _RING_MASK]
            if pattern >= 0:
                prefetch(firsts, starts[pattern])
                prefetch(seconds, starts[pattern])
        if tick < first_state:
            continue
        state = tick
        pattern, word = patterns[state & _RING_MASK], words[state & _RING_MASK]
        if not narrow:
            state_pattern(keys[state], slots, old_size, forced_slot, rank, before)
        if pattern < 0:
            strays += 1
            state += 1
            continue
        n_pending = 0
        state_dead = dropped[pattern]
        done = 0  # options that complete a tour: each adds the state's count
        fits = True
        for option in range(starts[pattern], starts[pattern + 1]):
            first_slot, second_slot = np.intp(firsts[option]), np.intp(seconds[option])
            # the paths are called apart, as in the hash step: through one
            # inlined helper, the byte path's arrays were counted in and
            # out (atomic updates, on arrays both threads share) around
            # every option on the word path too
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
                state_dead += 1
            elif outcome == _DONE:
                done += 1
            else:
                part = partition_of(mixed_key(next_key, salt), parts)
                # room for every option of a state, not only this one's
                fits = fits and fill[part] + MOST_OPTIONS <= region
                pending_keys[n_pending] = next_key
                pending_parts[n_pending] = part
                n_pending += 1
        if not fits:
            break  # this state starts the next chunk
        for _ in range(done):
            overflow |= add_count(completed, 0, counts, state, limbs)
        dead += state_dead
        emitted += n_pending
        for index in range(n_pending):
            part = pending_parts[index]
            at = entry * (part * region + fill[part])
            buffer[at] = pending_keys[index]
            for limb in range(limbs):
                buffer[at + 1 + limb] = counts[state, limb]
            fill[part] += 1
            # the line this partition's stream writes after the next: it
            # is written about ``parts`` successors from now, too many
            # streams for the hardware to follow, and each new line was a
            # wait on memory at the store
            prefetch(buffer, at + _STREAM_AHEAD)
        state += 1
    return Emitted(state, completed, emitted, dead, overflow, strays)


@jit
def new_tables(parts, capacity_bits, entry):
    """``parts`` empty tables of ``2**capacity_bits`` entries, one array."""
    tables = np.empty(parts * entry << capacity_bits, dtype=np.uint64)
    _mark_empty(tables, 0, parts << capacity_bits, entry)
    return tables


@jit(inline="always")
def _mark_empty(tables, first_word, entries, entry):
    for index in range(entries):
        tables[first_word + entry * index] = EMPTY


@jit(inline="always")
def _insert(tables, base, mask, entry, mixed, key, source, at, limbs):
    """Add the entry at ``source[at:]`` (a key and its limbs) to the table
    at word ``base`` (``mask + 1`` entries). Returns ``(claimed, carry)``:
    1 if ``key`` was new, 1 if its count carried out of the top limb."""
    index = _bucket_of(mixed, mask)
    while True:
        word = base + entry * index
        held = tables[word]
        if held == key:
            return 0, _add_entry(tables, word + 1, source, at + 1, limbs)
        if held == EMPTY:
            tables[word] = key
            for limb in range(limbs):
                tables[word + 1 + limb] = source[at + 1 + limb]
            return 1, 0
        index = (index + 1) & mask


@jit(inline="always")
def _add_entry(target, at, source, start, limbs):
    """``target[at:at + limbs] += source[start:start + limbs]`` (limbs of
    64 bits, least significant first); returns 1 on a carry out of the last."""
    carry = np.uint64(0)
    for limb in range(limbs):
        addend = source[start + limb]
        partial = target[at + limb] + addend
        carried = partial < addend
        total = partial + carry
        if total < carry:
            carried = True
        target[at + limb] = total
        carry = np.uint64(1) if carried else np.uint64(0)
    return 1 if carry else 0


@jit
def _merge_items(tables, base, capacity_bits, entry, source, at, items, salt):
    """Add the ``items`` entries of ``source`` from word ``at`` to the table
    at word ``base`` (``2**capacity_bits`` entries), which has room for
    them all. Returns ``(claimed, carry)``: the keys that were new, 1 if a
    count carried out of the top limb.

    A function of its own, called once for each partition of each thread's
    buffer: in the loop that may regrow ``tables``, Numba counted the array
    in and out (atomic updates) around every insertion."""
    limbs = entry - 1
    mask = np.intp((1 << capacity_bits) - 1)
    claimed = 0
    carry = 0
    # each item's bucket is asked for _MERGE_AHEAD items before its turn:
    # a partition's table shares the core's cache with the buffers
    # streaming through it, and a probe that missed it waited (half of
    # this function's samples were on that one load)
    mixes = np.empty(_MERGE_RING, dtype=np.uint64)
    for item in range(-_MERGE_AHEAD, items):
        ahead = item + _MERGE_AHEAD
        if ahead < items:
            mixed = mixed_key(source[at + entry * ahead], salt)
            mixes[ahead & _MERGE_RING_MASK] = mixed
            prefetch(tables, base + entry * _bucket_of(mixed, mask))
        if item < 0:
            continue
        word = at + entry * item
        key = source[word]
        new, carried = _insert(tables, base, mask, entry, mixes[item & _MERGE_RING_MASK], key, source, word, limbs)
        claimed += new
        carry |= carried
    return claimed, carry


@jit
def _regrown(tables, capacity_bits, entry, used, parts, salt):
    """The same ``parts`` tables at twice the capacity each (the entries of
    the first ``used``; the others are empty)."""
    grown_bits = capacity_bits + 1
    grown = new_tables(parts, grown_bits, entry)
    limbs = entry - 1
    mask = np.intp((1 << grown_bits) - 1)
    for part in range(used):
        base = part * entry << capacity_bits
        for index in range(1 << capacity_bits):
            at = base + entry * index
            key = tables[at]
            if key != EMPTY:
                _insert(grown, part * entry << grown_bits, mask, entry, mixed_key(key, salt), key, tables, at, limbs)
    return grown, grown_bits


@jit
def reduce_partitions(buffers, fills, region, entry, first_part, end_part, tables, capacity_bits, held, salt, fresh):
    """Merge partitions ``first_part`` .. ``end_part`` - 1 of every emit
    buffer (``buffers[t]``, ``fills[t, p]`` entries in partition ``p``)
    into their tables: ``tables`` holds one per partition of the range,
    ``2**capacity_bits`` entries each, ``held[p]`` of them used; ``fresh``:
    the step's first chunk, its tables not yet marked empty (they came
    unset). Tables past a load of 3/4 are all regrown at twice the
    size.

    Returns ``(tables, capacity_bits, overflow)``."""
    parts = end_part - first_part
    overflow = 0
    for part in range(first_part, end_part):
        local = part - first_part
        # the table's lines in order first: the hardware streams them in
        # at full bandwidth, where the insertions' own misses would each
        # wait on memory in turn (the table was last touched a chunk ago)
        base = local * entry << capacity_bits
        if fresh:
            # the first chunk marks its tables empty only now, so that
            # the marking leaves them in cache (``tables`` came unset)
            _mark_empty(tables, base, 1 << capacity_bits, entry)
        else:
            for word in range(base, base + (entry << capacity_bits), _LINE_WORDS):
                prefetch(tables, word)
        for thread in range(buffers.shape[0]):
            start = entry * part * region
            done = 0
            while done < fills[thread, part]:
                # a load of 3/4 is reached after ``room`` more new keys at most
                room = (3 << capacity_bits) // 4 - held[part]
                if room <= 0:
                    # a fresh chunk has marked only the tables up to this one
                    tables, capacity_bits = _regrown(
                        tables, capacity_bits, entry, local + 1 if fresh else parts, parts, salt
                    )
                    continue
                items = min(fills[thread, part] - done, room)
                claimed, carry = _merge_items(
                    tables,
                    local * entry << capacity_bits,
                    capacity_bits,
                    entry,
                    buffers[thread],
                    start + entry * done,
                    items,
                    salt,
                )
                held[part] += claimed
                overflow |= carry
                done += items
    return tables, capacity_bits, overflow


@jit
def compact_partitions(tables, capacity_bits, entry, out_keys, out_counts, offset):
    """Write the entries of ``tables`` (each partition's in turn) densely to
    ``out_keys``/``out_counts`` from row ``offset``; returns the next row."""
    return dense_entries(tables, entry, out_keys, out_counts, offset)
