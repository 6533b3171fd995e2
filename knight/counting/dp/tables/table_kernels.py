"""This module compiles the open-addressing table and the carry-checked counts that every DP step shares.

It holds the key's hash (a 64-bit mix, salted for each step), the probe that
finds or claims a key's entry, a table's growth, and the addition of
multi-limb counts, which reports a carry out of the top limb. A table is a
flat ``uint64`` array of entries of ``entry`` words: the key, then its
count's limbs, least significant first."""

import numpy as np

from knight.runtime._bits import wrapping_multiply
from knight.runtime._jit import jit

# the key no state can have (past 11^17): marks an empty bucket
EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)
_HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)


def step_salt(step):
    """The table hash's salt for ``step``: a new one every step (``_bucket``
    says why), the same on every run, so tables come out in the same order
    each time."""
    return np.uint64((step + 1) * int(_HASH_MULTIPLIER) % 2**64)


@jit(inline="always")
def _bucket(key, shift, salt):
    # the top bits of a full 64-bit mix (MurmurHash3's finaliser) of the
    # key and a salt that changes every step. A table is read in the order
    # of its buckets, and a successor's key is often its parent's (no edge,
    # nothing leaves: the new square is a 0 digit on top), or close to an
    # affine map of it: with one hash for every step, successors arrived in
    # nearly hash order and crowded the first buckets of a table that then
    # grew (a 7 x 7 step took 141 s, not 10 s). Fibonacci hashing, linear
    # in the key, kept the order even across different multipliers.
    return np.intp(mixed_key(key, salt) >> shift)


@jit(inline="always")
def mixed_key(key, salt):
    """MurmurHash3's 64-bit finaliser of ``key ^ salt``: every bit of the
    key moves every bit of the result (``_bucket`` says why it must)."""
    mixed = key ^ salt
    mixed ^= mixed >> np.uint64(33)
    mixed = wrapping_multiply(mixed, np.uint64(0xFF51AFD7ED558CCD))
    mixed ^= mixed >> np.uint64(33)
    mixed = wrapping_multiply(mixed, np.uint64(0xC4CEB9FE1A85EC53))
    mixed ^= mixed >> np.uint64(33)
    return mixed


@jit(inline="always")
def dense_entries(table, entry, out_keys, out_counts, row):
    """Write the entries of ``table`` (``entry`` words each, the empty ones
    ``EMPTY``) densely to ``out_keys``/``out_counts`` from ``row``, in the
    table's order; return the next row."""
    limbs = entry - 1
    for index in range(table.shape[0] // entry):
        key = table[entry * index]
        if key != EMPTY:
            out_keys[row] = key
            for limb in range(limbs):
                out_counts[row, limb] = table[entry * index + 1 + limb]
            row += 1
    return row


@jit(inline="always")
def _find(table, entry, shift, salt, key):
    """The word offset of ``key``'s entry in ``table`` (entries of
    ``entry`` words: the key, then its count's limbs), claiming an empty
    one if ``key`` is not there; returns (offset, 1 if claimed)."""
    mask = np.intp(table.shape[0] // entry - 1)
    index = _bucket(key, shift, salt)
    while True:
        held = table[entry * index]
        if held == key:
            return entry * index, 0
        if held == EMPTY:
            table[entry * index] = key
            return entry * index, 1
        index = (index + 1) & mask


@jit(inline="always")
def add_count(target, at, counts, state, limbs):
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
def _grow(table, entry, shift, salt):
    """The same table at twice the capacity."""
    grown = _new_table(2 * (table.shape[0] // entry), entry)
    grown_shift = shift - np.uint64(1)
    for index in range(table.shape[0] // entry):
        if table[entry * index] != EMPTY:
            at, _ = _find(grown, entry, grown_shift, salt, table[entry * index])
            for word in range(1, entry):
                grown[at + word] = table[entry * index + word]
    return grown, grown_shift


def capacity_bits(expected, least_bits):
    """log2 of the entries of a table that holds ``expected`` states at a
    load of at most 3/4 (linear probing on a well-mixed hash stays short
    there; at 1/2 the 7 x 7 run held 3.29 GB, not 2.0), at least
    ``2**least_bits``."""
    bits = least_bits
    while 3 * (1 << bits) < 4 * expected:
        bits += 1
    return bits
