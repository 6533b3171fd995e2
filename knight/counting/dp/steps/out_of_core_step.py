"""One step of the frontier DP out of core, for a step whose tables do
not fit in the memory it may use: the partitioned step
(``partitioned_step``) run on the input a chunk at a time, each chunk's
reduced partitions appended to *runs* on disk (one pair of files, the
partitions of a chunk in order); then every partition merged across the
runs (``partition_kernels.merge_runs``, one cache-sized table reused)
and written, in order, as the next table, which the next step reads
back mapped.

Why this shape (Yang and Du's disk buckets, the sort-and-reduce variants
of Knuth's DYNAHAM): every byte goes to disk and back once, in long
sequential writes and reads, and what the step holds in anonymous memory
at once is one chunk's tables and a few partitions' merge, set by the
room it is given, not by the step's size. The files are page cache,
which the kernel reclaims under pressure. Equal keys have equal
partitions (the key's hash, with the step's salt, as in memory), so a
partition merged across the runs holds each of its states once, with
every count added (carry-checked).
"""

import contextlib
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from knight.counting.dp import memory_model
from knight.counting.dp.steps import partition_kernels, partitioned_step
from knight.counting.dp.table_format import mapped
from knight.exit_status import naming

# a chunk's states made a state read vary from chunk to chunk (the input
# is in hash order, so less than from step to step): the next chunk is
# sized for this much more than the last made
_CHUNK_MARGIN = 1.25


def step_out_of_core(arguments, expected, threads, room, folder):
    """One step (``StepArguments``)
    that makes about ``expected`` states, in chunks whose tables fit in
    ``room`` bytes, through run files in ``folder`` (the run's spill
    folder). Returns ``(keys, counts, found, emitted, dead, overflow)`` as
    ``partitioned_step.step_partitioned``; the next table is mapped from
    ``folder`` (``keys``, ``counts``), replacing the step before's."""
    keys, counts = arguments.keys, arguments.counts
    limbs = counts.shape[1]
    entry = 1 + limbs
    parts = partitioned_step.partition_count(expected, entry)
    per_state = max(expected / max(keys.shape[0], 1), 0.5)
    paths = {name: os.path.join(folder, name) for name in ("runs.keys", "runs.counts", "keys.next", "counts.next")}
    # a full disk names the spill folder (exit status 74); the run's finally removes it
    with naming(folder):
        try:
            starts, ends, tallies = _write_runs(arguments, parts, room, per_state, threads, paths)
            if tallies[3]:
                # a count wrapped: the driver widens the limbs and runs the step again
                return (keys[:0], counts[:0], *tallies)
            held, tallies[3] = _merge_runs(paths, starts, ends, limbs, arguments.salt, threads, room)
            if tallies[3]:
                # counts of two chunks added past the limbs: the same
                return (keys[:0], counts[:0], *tallies)
        finally:
            for name in ("runs.keys", "runs.counts"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(paths[name])
        # the files of the step before are still mapped by its arrays; renaming
        # over them unlinks the old data only once those arrays are gone
        os.replace(paths["keys.next"], os.path.join(folder, "keys"))
        os.replace(paths["counts.next"], os.path.join(folder, "counts"))
    return (
        mapped(os.path.join(folder, "keys"), (held,)),
        mapped(os.path.join(folder, "counts"), (held, limbs)),
        *tallies,
    )


def _write_runs(arguments, parts, room, per_state, threads, paths):
    """Step the input a chunk at a time, appending each chunk's partitions
    to the run files; a chunk as many states as make tables that fit
    ``room`` at ``per_state`` states made a state read, for the first
    (half of it: a trial) and then at the rate the chunks before made.
    Returns ``(starts, ends, tallies)``: rows ``starts[r, p]`` ..
    ``ends[r, p]`` - 1 of the runs are partition ``p`` of run ``r``."""
    keys, counts = arguments.keys, arguments.counts
    entry = 1 + counts.shape[1]
    tallies = [0, 0, 0, 0]  # found, emitted, dead, overflow
    starts, ends = [], []
    written = 0
    first = 0
    chunk = max(1, int(room / (per_state * 8 * entry * memory_model.ENTRIES_PER_STATE)) // 2)
    with open(paths["runs.keys"], "wb") as key_file, open(paths["runs.counts"], "wb") as count_file:
        # one chunk at least, even of no states
        while first < keys.shape[0] or not starts:
            part = arguments.with_table(keys[first : first + chunk], counts[first : first + chunk])
            expected = int(part.keys.shape[0] * per_state) + 1
            made_keys, made_counts, held, made = partitioned_step.partition_tables(part, expected, threads, parts)
            for index in range(4):
                tallies[index] += made[index]
            if tallies[3]:
                break
            # written from the arrays' own buffers: no copy in memory
            key_file.write(memoryview(made_keys))
            count_file.write(memoryview(made_counts))
            del made_keys, made_counts  # not held while the next chunk is made
            bounds = written + np.concatenate(([0], np.cumsum(held)))
            starts.append(bounds[:-1])
            ends.append(bounds[1:])
            first += part.keys.shape[0]
            # the next chunk at the rate this one made states, with a margin
            per_state = max(_CHUNK_MARGIN * (int(bounds[-1]) - written) / max(part.keys.shape[0], 1), 0.5)
            chunk = max(1, int(room / (per_state * 8 * entry * memory_model.ENTRIES_PER_STATE)))
            written = int(bounds[-1])
    tallies[3] = int(bool(tallies[3]))
    return np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64), tallies


def _merge_runs(paths, starts, ends, limbs, salt, threads, room):
    """Merge every partition across the runs, writing the next table to
    ``keys.next`` / ``counts.next`` in partition order; returns its rows
    and 1 if a count carried out of the top limb (0 if none).
    Partitions go in batches of at most a share of ``room`` of rows a
    thread, ``threads`` batches at once."""
    entry = 1 + limbs
    total = int(ends[-1, -1]) if ends.size else 0
    run_keys = mapped(paths["runs.keys"], (total,))
    run_counts = mapped(paths["runs.counts"], (total, limbs))
    rows = (ends - starts).sum(axis=0)  # each partition's rows in all runs: at least its states
    batch_rows = max(int(memory_model.MERGE_SHARE * room / (threads * 8 * entry)), int(rows.max(initial=1)))
    batches = _batches(rows, batch_rows)

    def merge(batch):
        first, end = batch
        table = partition_kernels.run_table(int(rows[first:end].max(initial=0)), entry)
        size = int(rows[first:end].sum())
        out_keys = np.empty(size, dtype=np.uint64)
        out_counts = np.empty((size, limbs), dtype=np.uint64)
        made, overflow = partition_kernels.merge_runs(
            run_keys, run_counts, starts, ends, first, end, table, salt, out_keys, out_counts
        )
        return out_keys[:made], out_counts[:made], overflow

    held = 0
    carried = 0
    with (
        open(paths["keys.next"], "wb") as key_file,
        open(paths["counts.next"], "wb") as count_file,
        ThreadPoolExecutor(threads) as pool,
    ):
        for wave in range(0, len(batches), threads):
            # a wave at a time, in order: at most ``threads`` batches held
            for out_keys, out_counts, overflow in pool.map(merge, batches[wave : wave + threads]):
                carried |= int(overflow)
                key_file.write(memoryview(out_keys))
                count_file.write(memoryview(out_counts))
                held += out_keys.shape[0]
    return held, carried


def _batches(rows, batch_rows):
    """Consecutive ranges of partitions of at most ``batch_rows`` rows (a
    partition alone may be more), covering every partition."""
    batches = []
    first = 0
    size = 0
    for part, count in enumerate(rows.tolist()):
        if part > first and size + count > batch_rows:
            batches.append((first, part))
            first, size = part, 0
        size += count
    batches.append((first, len(rows)))
    return batches
