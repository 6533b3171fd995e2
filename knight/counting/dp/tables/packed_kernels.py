"""This module compiles the byte code of the DP's packed table.

A table on disk, and a run of the out-of-core step, is made of blocks of
states. The keys of a block are in ascending order. A state is written as
the gap from the key before (the first from 0) and then its count, both in
LEB128, which puts seven bits in a byte and sets the high bit on every byte
but a number's last. A count of any number of limbs is one LEB128 number,
least significant limb first. A count therefore takes the bytes its value
needs, whatever limbs it is decoded into, and widening the limbs costs
nothing on disk.

Why gaps: a block is one partition of a step (its keys' hash with the
step's salt), so its keys spread over the key range and the gaps of a
block of n states are about range / n, a few bytes where a key is 8;
most counts are far below 2^64 and take a byte or three where a limb is
8 (journal: "Packed tables on disk").
"""

import numpy as np

from knight.counting.dp.tables.table_kernels import add_count, dense_entries
from knight.runtime._jit import jit

_LOW7 = np.uint64(0x7F)
_HIGH = np.uint8(0x80)
_KEY_BYTES = 10  # a 64-bit number in LEB128 at most


def most_bytes(states, limbs):
    """The most bytes ``states`` states of ``limbs`` limbs can take packed."""
    return int(states) * (_KEY_BYTES + -(-64 * int(limbs) // 7))


@jit(inline="always")
def _put_number(out, at, value):
    """``value`` (uint64) in LEB128 at ``out[at:]``; returns the next byte."""
    while value > _LOW7:
        out[at] = np.uint8(value & _LOW7) | _HIGH
        value >>= np.uint64(7)
        at += 1
    out[at] = np.uint8(value)
    return at + 1


@jit(inline="always")
def _get_number(data, at):
    """The LEB128 number at ``data[at:]`` (at most 64 bits) and the next byte."""
    value = np.uint64(0)
    shift = np.uint64(0)
    while True:
        byte = np.uint64(data[at])
        at += 1
        value |= (byte & _LOW7) << shift
        if byte < np.uint64(0x80):
            return value, at
        shift += np.uint64(7)


@jit(inline="always")
def _put_count(out, at, counts, row, limbs):
    """``counts[row]`` (limbs least significant first) as one LEB128 number."""
    if limbs == 1:
        return _put_number(out, at, counts[row, 0])
    top = limbs - 1
    while top > 0 and counts[row, top] == 0:
        top -= 1
    if top == 0:
        return _put_number(out, at, counts[row, 0])
    # the bits past the top limb's highest set one are not written
    bits = 64 * top
    high = counts[row, top]
    while high:
        bits += 1
        high >>= np.uint64(1)
    position = 0
    while True:
        limb, offset = position // 64, position % 64
        group = counts[row, limb] >> np.uint64(offset)
        if offset > 57 and limb + 1 < limbs:
            group |= counts[row, limb + 1] << np.uint64(64 - offset)
        group &= _LOW7
        position += 7
        if position >= bits:
            out[at] = np.uint8(group)
            return at + 1
        out[at] = np.uint8(group) | _HIGH
        at += 1


@jit(inline="always")
def _get_count(data, at, counts, row, limbs):
    """The LEB128 count at ``data[at:]`` into ``counts[row]`` (zeroed before);
    returns the next byte."""
    if limbs == 1:
        value, at = _get_number(data, at)
        counts[row, 0] = value
        return at
    position = 0
    while True:
        byte = np.uint64(data[at])
        at += 1
        group = byte & _LOW7
        limb, offset = position // 64, position % 64
        counts[row, limb] |= group << np.uint64(offset)
        if offset > 57 and limb + 1 < limbs:
            counts[row, limb + 1] |= group >> np.uint64(64 - offset)
        position += 7
        if byte < np.uint64(0x80):
            return at


# the sort of a block's keys: least significant digit first, _DIGIT_BITS a
# pass (a block of tens of thousands of rows and its 2^11 counters stay in
# the core's L2), a pass skipped where every key has the same digit. Why not
# np.argsort: its quicksort compares each key about log2(rows) times, on
# branches no predictor learns, and reads the keys through the order
_DIGIT_BITS = 11
_DIGITS = -(-64 // _DIGIT_BITS)
_DIGIT_MASK = np.uint64((1 << _DIGIT_BITS) - 1)


@jit(inline="always")
def sort_scratch(rows):
    """Scratch for ``ascending_order`` of up to ``rows`` keys."""
    return (
        np.empty(rows, dtype=np.int64),
        np.empty(rows, dtype=np.int64),
        np.empty(rows, dtype=np.uint64),
        np.empty(rows, dtype=np.uint64),
        np.empty((_DIGITS, 1 << _DIGIT_BITS), dtype=np.int64),
    )


@jit(inline="always")
def _pair_scratch(rows):
    """Scratch for ``_radix_sort`` of up to ``rows`` keys with a value each:
    the values to sort (filled by the caller), the keys and values sorted
    and their spares, the histogram."""
    return (
        np.empty(rows, dtype=np.uint64),
        np.empty(rows, dtype=np.uint64),
        np.empty(rows, dtype=np.uint64),
        np.empty(rows, dtype=np.uint64),
        np.empty((_DIGITS, 1 << _DIGIT_BITS), dtype=np.int64),
    )


@jit
def ascending_order(keys, order, spare_order, sorted_keys, spare_keys, histogram):
    """The rows of ``keys`` in ascending key order, equal keys in row
    order (a stable radix sort; what ``np.argsort(keys, kind="stable")``
    gives), in ``order`` or ``spare_order`` (scratch of at least as many
    rows, as ``sorted_keys``, ``spare_keys``; ``histogram``: ``_DIGITS`` x
    2^``_DIGIT_BITS``)."""
    for row in range(keys.shape[0]):
        order[row] = row
    return _radix_sort(keys, order, sorted_keys, spare_keys, spare_order, histogram)[1]


@jit
def _radix_sort(keys, values, sorted_keys, spare_keys, spare_values, histogram):
    """``keys`` ascending, each carrying its entry of ``values`` (sorted
    where they lie, with ``spare_values``; ``keys`` itself is copied to
    ``sorted_keys`` and left as it was), a stable radix sort, least
    significant digit first. Returns the sorted keys and values, each in
    its scratch array or its spare."""
    rows = keys.shape[0]
    histogram[:, :] = 0
    for row in range(rows):
        key = keys[row]
        for digit in range(_DIGITS):
            histogram[digit, np.intp((key >> np.uint64(digit * _DIGIT_BITS)) & _DIGIT_MASK)] += 1
        sorted_keys[row] = key
    source_keys, target_keys = sorted_keys, spare_keys
    source, target = values, spare_values
    for digit in range(_DIGITS):
        shift = np.uint64(digit * _DIGIT_BITS)
        counted = histogram[digit]
        if rows == 0 or counted[np.intp((keys[0] >> shift) & _DIGIT_MASK)] == rows:
            continue  # every key has this digit: the pass would move nothing
        total = 0
        for bucket in range(counted.shape[0]):
            size = counted[bucket]
            counted[bucket] = total
            total += size
        for index in range(rows):
            key = source_keys[index]
            bucket = np.intp((key >> shift) & _DIGIT_MASK)
            at = counted[bucket]
            counted[bucket] = at + 1
            target_keys[at] = key
            target[at] = source[index]
        source_keys, target_keys = target_keys, source_keys
        source, target = target, source
    return source_keys[:rows], source[:rows]


@jit(inline="always")
def _most_bytes(states, limbs):
    """``most_bytes`` in the kernels."""
    return states * (_KEY_BYTES + (64 * limbs + 6) // 7)


@jit(inline="always")
def _block_scratch(rows, limbs):
    """Scratch for ``_encode_block`` of blocks of up to ``rows`` rows."""
    return sort_scratch(rows if limbs > 1 else 0), _pair_scratch(rows if limbs == 1 else 0)


@jit(inline="always")
def _encode_block(keys, counts, first, end, out, at, scratch, pair_scratch):
    """Rows ``first`` .. ``end`` - 1 of ``keys``/``counts`` as one block,
    its rows in ascending key order (sorted here), packed into ``out`` from
    byte ``at``; returns the byte it ends at. ``scratch``, ``pair_scratch``:
    ``_block_scratch``'s.

    Counts of one limb are sorted with their keys, so that the packing
    reads both in order; wider ones are read through the rows' order."""
    limbs = counts.shape[1]
    previous = np.uint64(0)
    if limbs == 1:
        values, sorted_keys, spare_keys, spare_values, histogram = pair_scratch
        for row in range(first, end):
            values[row - first] = counts[row, 0]
        in_order, their_counts = _radix_sort(
            keys[first:end], values[: end - first], sorted_keys, spare_keys, spare_values, histogram
        )
        for index in range(end - first):
            key = in_order[index]
            at = _put_number(out, at, key - previous)
            previous = key
            at = _put_number(out, at, their_counts[index])
        return at
    order = ascending_order(keys[first:end], *scratch)
    for index in range(order.shape[0]):
        row = first + order[index]
        key = keys[row]
        at = _put_number(out, at, key - previous)
        previous = key
        at = _put_count(out, at, counts, row, limbs)
    return at


@jit
def encode_blocks(keys, counts, bounds, out):
    """Rows ``bounds[b]`` .. ``bounds[b + 1]`` - 1 of ``keys``/``counts``
    as block ``b``, its rows in ascending key order (sorted here: the
    tables come in hash order), packed into ``out`` from byte 0 (room:
    ``most_bytes``). Returns the byte each block ends at."""
    blocks = bounds.shape[0] - 1
    ends = np.empty(blocks, dtype=np.int64)
    widest = 0
    for block in range(blocks):
        widest = max(widest, bounds[block + 1] - bounds[block])
    scratch, pair_scratch = _block_scratch(widest, counts.shape[1])
    at = 0
    for block in range(blocks):
        at = _encode_block(keys, counts, bounds[block], bounds[block + 1], out, at, scratch, pair_scratch)
        ends[block] = at
    return ends


@jit
def encode_tables(tables, capacity_bits, entry, first, end, out):
    """Partitions ``first`` .. ``end`` - 1 of ``tables`` (a hash table of
    ``2**capacity_bits`` entries of ``entry`` words each a partition, the
    empty ones ``EMPTY``) as one block each, packed into ``out`` from byte
    0, as many as fit ``out`` whatever their keys and counts. Returns
    ``(done, ends)``: the partitions from ``first`` packed end before
    ``done``, and ``ends[i]`` is the byte partition ``first + i`` ends at.

    Why straight from the tables: a dense copy of them would take as much
    memory again, and a chunk out of core that needs none reads more
    input in the same room (``out_of_core_step``)."""
    limbs = entry - 1
    size = 1 << capacity_bits
    keys = np.empty(size, dtype=np.uint64)
    counts = np.empty((size, limbs), dtype=np.uint64)
    scratch, pair_scratch = _block_scratch(size, limbs)
    ends = np.empty(end - first, dtype=np.int64)
    at = 0
    for part in range(first, end):
        base = part * entry << capacity_bits
        rows = dense_entries(tables[base : base + (entry << capacity_bits)], entry, keys, counts, 0)
        if at + _most_bytes(rows, limbs) > out.shape[0]:
            return part, ends[: part - first]
        at = _encode_block(keys, counts, 0, rows, out, at, scratch, pair_scratch)
        ends[part - first] = at
    return end, ends


@jit
def decode_blocks(data, starts, states, out_keys, out_counts, row):
    """Blocks of ``data`` at bytes ``starts[b]``, ``states[b]`` states
    each, into ``out_keys``/``out_counts`` from ``row``; returns the next
    row."""
    limbs = out_counts.shape[1]
    for block in range(starts.shape[0]):
        at = starts[block]
        key = np.uint64(0)
        for _ in range(states[block]):
            gap, at = _get_number(data, at)
            key += gap
            out_keys[row] = key
            if limbs > 1:
                # a count of several limbs is decoded into zeros
                out_counts[row, :] = 0
            at = _get_count(data, at, out_counts, row, limbs)
            row += 1
    return row


# a partition's pieces of this many runs or fewer are merged as streams
# (``_merge_streams``), not decoded whole and sorted: the least of a few
# next keys costs less than the sort's passes, and no array of the
# partition's rows is made. With more runs the scan for the least key
# costs more than the sort saves
STREAM_RUNS = 8


@jit(inline="always")
def _merge_streams(data, starts, states, out, at, cursor, left, heads, counts):
    """One partition's pieces of one-limb counts (``states[r]`` states at
    byte ``starts[r]`` of ``data``), each ascending, merged as they are
    decoded into one block of ``out`` from byte ``at``: the least of the
    runs' next keys, its counts added. ``cursor`` .. ``counts``: scratch
    of a slot a run, the last run moved into the slot of a run spent.
    Returns ``(at, states, overflow)``."""
    active = 0
    for run in range(starts.shape[0]):
        if states[run] > 0:
            heads[active], position = _get_number(data, starts[run])
            counts[active], cursor[active] = _get_number(data, position)
            left[active] = states[run] - 1
            active += 1
    held = 0
    overflow = 0
    previous = np.uint64(0)
    while active > 0:
        least = heads[0]
        for slot in range(1, active):
            least = min(least, heads[slot])
        summed = np.uint64(0)
        slot = 0
        while slot < active:
            if heads[slot] != least:
                slot += 1
                continue
            # a run's equal keys too (a gap of 0), so that no key is written twice
            while True:
                summed += counts[slot]
                overflow |= summed < counts[slot]  # a carry out of the one limb
                if left[slot] == 0:
                    break
                gap, position = _get_number(data, cursor[slot])
                counts[slot], cursor[slot] = _get_number(data, position)
                left[slot] -= 1
                if gap:
                    heads[slot] += gap
                    break
            if heads[slot] == least:  # the run is spent: the last slot takes its place
                active -= 1
                heads[slot], counts[slot] = heads[active], counts[active]
                cursor[slot], left[slot] = cursor[active], left[active]
            else:
                slot += 1
        at = _put_number(out, at, least - previous)
        at = _put_number(out, at, summed)
        previous = least
        held += 1
    return at, held, overflow


@jit
def merge_pieces(data, piece_starts, piece_states, limbs, out):
    """Merge each partition's pieces, one per run (partition ``p``'s piece
    of run ``r``: ``piece_states[r, p]`` states at byte
    ``piece_starts[r, p]`` of ``data``, a block each), into one block of
    ``out`` of its distinct keys, ascending, their counts added
    (carry-checked, ``limbs`` limbs). Returns ``(ends, states, overflow)``:
    each block's end byte and states, 1 if a count carried out of the top
    limb.

    Where there are ``STREAM_RUNS`` runs or fewer and counts of one limb,
    a partition's pieces are merged as streams (``_merge_streams``).
    Otherwise they are decoded whole and sorted (a merge of the sorted
    runs by a heap was slower at tens of runs; journal: "The merge of
    runs by a heap"). Counts of one limb are sorted with their keys, so
    that the sums read both in order; wider ones are read through the
    rows' order."""
    parts = piece_states.shape[1]
    ends = np.empty(parts, dtype=np.int64)
    held = np.zeros(parts, dtype=np.int64)
    overflow = 0
    at = 0
    sizes = np.zeros(parts, dtype=np.int64)  # each partition's rows, all runs'
    for part in range(parts):
        sizes[part] = piece_states[:, part].sum()
    runs = piece_states.shape[0]
    streams = limbs == 1 and runs <= STREAM_RUNS
    # merged as streams, a partition needs no arrays of its rows
    widest = sizes.max() if parts and not streams else 0
    keys = np.empty(widest, dtype=np.uint64)
    counts = np.zeros((widest, limbs), dtype=np.uint64)
    flat = counts.reshape(-1)  # one limb: the counts as the sort's values
    total = np.zeros((1, limbs), dtype=np.uint64)
    scratch = sort_scratch(widest if limbs > 1 else 0)
    _, sorted_keys, spare_keys, spare_values, histogram = _pair_scratch(widest if limbs == 1 else 0)
    cursor, left = np.empty(runs, dtype=np.int64), np.empty(runs, dtype=np.int64)
    heads, run_counts = np.empty(runs, dtype=np.uint64), np.empty(runs, dtype=np.uint64)
    for part in range(parts):
        rows = sizes[part]
        if streams:
            at, held[part], carried = _merge_streams(
                data, piece_starts[:, part], piece_states[:, part], out, at, cursor, left, heads, run_counts
            )
            overflow |= carried
            ends[part] = at
            continue
        decode_blocks(data, piece_starts[:, part], piece_states[:, part], keys, counts, 0)
        previous = np.uint64(0)
        index = 0
        if limbs == 1:
            in_order, their_counts = _radix_sort(
                keys[:rows], flat[:rows], sorted_keys, spare_keys, spare_values, histogram
            )
            while index < rows:
                key, summed = in_order[index], their_counts[index]
                index += 1
                while index < rows and in_order[index] == key:
                    summed += their_counts[index]
                    overflow |= summed < their_counts[index]  # a carry out of the one limb
                    index += 1
                at = _put_number(out, at, key - previous)
                at = _put_number(out, at, summed)
                previous = key
                held[part] += 1
        else:
            order = ascending_order(keys[:rows], *scratch)
            while index < rows:
                row = order[index]
                key = keys[row]
                total[0, :] = counts[row]
                index += 1
                while index < rows and keys[order[index]] == key:
                    overflow |= add_count(total[0], 0, counts, order[index], limbs)
                    index += 1
                at = _put_number(out, at, key - previous)
                at = _put_count(out, at, total, 0, limbs)
                previous = key
                held[part] += 1
        ends[part] = at
    return ends, held, overflow
