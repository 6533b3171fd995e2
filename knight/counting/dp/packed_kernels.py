"""The packed table's byte code, compiled: a table on disk (and a run of
the out-of-core step) is blocks of states, each block's keys in
ascending order, a state written as the gap from the key before (the
first from 0) and then its count, both in LEB128 (seven bits a byte,
the high bit set on every byte but a number's last). A count of any
number of limbs is one LEB128 number, its limbs least significant
first, so a count takes the bytes its value needs whatever the limbs
it is decoded into, and widening the limbs costs nothing on disk.

Why gaps: a block is one partition of a step (its keys' hash with the
step's salt), so its keys spread over the key range and the gaps of a
block of n states are about range / n, a few bytes where a key is 8;
most counts are far below 2^64 and take a byte or three where a limb is
8 (``docs/measurements.md`` has the bytes a state measured).
"""

import numpy as np

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


@jit
def encode_blocks(keys, counts, bounds, out):
    """Rows ``bounds[b]`` .. ``bounds[b + 1]`` - 1 of ``keys``/``counts``
    as block ``b``, its rows in ascending key order (sorted here: the
    tables come in hash order), packed into ``out`` from byte 0 (room:
    ``most_bytes``). Returns the byte each block ends at."""
    limbs = counts.shape[1]
    blocks = bounds.shape[0] - 1
    ends = np.empty(blocks, dtype=np.int64)
    at = 0
    for block in range(blocks):
        first = bounds[block]
        order = np.argsort(keys[first : bounds[block + 1]])
        previous = np.uint64(0)
        for index in range(order.shape[0]):
            row = first + order[index]
            key = keys[row]
            at = _put_number(out, at, key - previous)
            previous = key
            at = _put_count(out, at, counts, row, limbs)
        ends[block] = at
    return ends


@jit
def decode_blocks(data, starts, states, out_keys, out_counts, row):
    """Blocks of ``data`` at bytes ``starts[b]``, ``states[b]`` states
    each, into ``out_keys``/``out_counts`` (zeroed) from ``row``; returns
    the next row."""
    limbs = out_counts.shape[1]
    for block in range(starts.shape[0]):
        at = starts[block]
        key = np.uint64(0)
        for _ in range(states[block]):
            gap, at = _get_number(data, at)
            key += gap
            out_keys[row] = key
            at = _get_count(data, at, out_counts, row, limbs)
            row += 1
    return row


@jit(inline="always")
def _add_into(total, counts, row, limbs):
    """``total += counts[row]``; returns 1 on a carry out of the top limb."""
    carry = np.uint64(0)
    for limb in range(limbs):
        addend = counts[row, limb]
        partial = total[limb] + addend
        carried = partial < addend
        summed = partial + carry
        if summed < carry:
            carried = True
        total[limb] = summed
        carry = np.uint64(1) if carried else np.uint64(0)
    return 1 if carry else 0


@jit
def merge_pieces(data, piece_starts, piece_states, limbs, out):
    """Merge each partition's pieces, one per run (partition ``p``'s piece
    of run ``r``: ``piece_states[r, p]`` states at byte
    ``piece_starts[r, p]`` of ``data``, a block each), into one block of
    ``out`` of its distinct keys, ascending, their counts added
    (carry-checked, ``limbs`` limbs). Returns ``(ends, states, overflow)``:
    each block's end byte and states, 1 if a count carried out of the top
    limb."""
    runs, parts = piece_states.shape
    ends = np.empty(parts, dtype=np.int64)
    held = np.zeros(parts, dtype=np.int64)
    total = np.zeros(limbs, dtype=np.uint64)
    overflow = 0
    at = 0
    for part in range(parts):
        rows = 0
        for run in range(runs):
            rows += piece_states[run, part]
        keys = np.empty(rows, dtype=np.uint64)
        counts = np.zeros((rows, limbs), dtype=np.uint64)
        decode_blocks(data, piece_starts[:, part], piece_states[:, part], keys, counts, 0)
        order = np.argsort(keys)
        previous = np.uint64(0)
        index = 0
        while index < rows:
            row = order[index]
            key = keys[row]
            total[:] = counts[row]
            index += 1
            while index < rows and keys[order[index]] == key:
                overflow |= _add_into(total, counts, order[index], limbs)
                index += 1
            at = _put_number(out, at, key - previous)
            previous = key
            at = _put_count(out, at, total.reshape(1, limbs), 0, limbs)
            held[part] += 1
        ends[part] = at
    return ends, held, overflow
