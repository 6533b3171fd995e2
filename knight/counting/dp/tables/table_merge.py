"""This module exchanges a DP table between the partitions of a cluster run.

It splits one dense table into parts by a hash of the key, and it merges the
pieces that meet in one part, adding the counts of equal keys. The cluster
run is ``knight.counting.dp.runs.cluster_run``.

Why a hash of the key and not the step kernel's pattern part: the
kernel's ``part``/``parts`` arguments keep a part's states apart by
pattern, but each call still decodes every state of its table, so
building ``P`` parts from one source costs ``P`` decodes of it. One call
with ``parts=1`` and a split of its output is one decode and one linear
pass at any ``P``. Equal keys hash alike, so no two parts share a state,
which is all the next step needs.

Counts are ``(n, limbs)`` arrays of 64-bit limbs, least significant first;
every addition checks the carry out of the top limb and reports it (the
caller widens the limbs and runs the step again): never a wrapped count.
"""

import numpy as np

from knight.counting.dp.tables.table_kernels import add_count, mixed_key
from knight.runtime._jit import jit


@jit
def part_numbers(keys, parts):
    """The part (``0 .. parts-1``) of each key, from the step kernel's own
    mix (MurmurHash3's finaliser, unsalted): a successor's key is often
    close to its parent's, and a multiplicative hash alone left parts uneven."""
    out = np.empty(keys.shape[0], dtype=np.int64)
    for index in range(keys.shape[0]):
        out[index] = np.int64(mixed_key(keys[index], np.uint64(0)) % np.uint64(parts))
    return out


@jit
def _sum_sorted(keys, counts, order, out_keys, out_counts):
    """Walk ``keys`` in ``order`` (sorted), writing each distinct key once
    with the sum of its counts; returns ``(held, overflow)``."""
    limbs = counts.shape[1]
    # the step kernel's carry-checked addition, into the rows of a flat view
    flat = out_counts.reshape(-1)
    held = 0
    overflow = 0
    for position in range(order.shape[0]):
        source = order[position]
        key = keys[source]
        if held > 0 and out_keys[held - 1] == key:
            overflow |= add_count(flat, (held - 1) * limbs, counts, source, limbs)
        else:
            out_keys[held] = key
            for limb in range(limbs):
                out_counts[held, limb] = counts[source, limb]
            held += 1
    return held, overflow


@jit
def _scatter_by_part(keys, counts, numbers, parts, out_keys, out_counts):
    """``keys``/``counts`` reordered part by part (a counting sort: one
    pass to count, one to place); returns the parts' bounds."""
    bounds = np.zeros(parts + 1, dtype=np.int64)
    for index in range(numbers.shape[0]):
        bounds[numbers[index] + 1] += 1
    for part in range(parts):
        bounds[part + 1] += bounds[part]
    filled = bounds[:parts].copy()
    for index in range(numbers.shape[0]):
        at = filled[numbers[index]]
        out_keys[at] = keys[index]
        for limb in range(counts.shape[1]):
            out_counts[at, limb] = counts[index, limb]
        filled[numbers[index]] += 1
    return bounds


def split_table(keys, counts, parts):
    """``keys``/``counts`` as ``parts`` tables, each key in the part its
    hash names (``part_numbers``): a list of ``(keys, counts)``, views of
    one reordered copy."""
    if parts == 1:
        return [(keys, counts)]
    out_keys = np.empty_like(keys)
    out_counts = np.empty_like(counts)
    bounds = _scatter_by_part(keys, counts, part_numbers(keys, parts), parts, out_keys, out_counts)
    return [(out_keys[bounds[j] : bounds[j + 1]], out_counts[bounds[j] : bounds[j + 1]]) for j in range(parts)]


def merge_tables(tables, limbs):
    """One table from ``tables`` (a list of ``(keys, counts)``, counts of
    ``limbs`` limbs each), equal keys' counts added: ``(keys, counts,
    overflow)``, keys sorted (but a lone table, returned as it is: its keys
    are distinct); ``overflow`` is 1 if a sum carried out of the
    top limb (the counts are then not to be used)."""
    tables = [(k, c) for k, c in tables if k.shape[0]]
    if not tables:
        return np.zeros(0, dtype=np.uint64), np.zeros((0, limbs), dtype=np.uint64), 0
    for _, table_counts in tables:
        if table_counts.shape[1] != limbs or table_counts.dtype != np.uint64:
            raise ValueError(f"merge_tables: counts of {table_counts.shape[1]} limbs, expected {limbs}")
    if len(tables) == 1:
        # one table's keys are distinct already (the step kernel made it):
        # nothing to add; a view of a split is copied, or it would keep the
        # whole split source alive for the next step
        keys, counts = tables[0]
        return (keys, counts, 0) if keys.base is None else (keys.copy(), counts.copy(), 0)
    keys = np.concatenate([k for k, _ in tables]).astype(np.uint64, copy=False)
    counts = np.ascontiguousarray(np.concatenate([c for _, c in tables]))
    # any sort will do: equal keys need only be adjacent, and addition commutes
    order = np.argsort(keys)
    out_keys = np.empty(keys.shape[0], dtype=np.uint64)
    out_counts = np.empty((keys.shape[0], limbs), dtype=np.uint64)
    held, overflow = _sum_sorted(keys, counts, order, out_keys, out_counts)
    return out_keys[:held].copy(), out_counts[:held].copy(), int(overflow)
