"""This module takes one step of the frontier DP in parts, with the successors split by pattern over threads.

The kernel releases the GIL. When the tables would not fit in memory at
once, the step goes shard by shard, and the table it makes is written to
disk and read back mapped."""

import contextlib
import os

import numpy as np

from knight.counting.dp.planning import memory_model
from knight.counting.dp.runs import worker_threads
from knight.counting.dp.steps import hash_kernels
from knight.counting.dp.steps.step_made import StepMade, from_limbs
from knight.counting.dp.tables import table_format, table_kernels
from knight.exit_status import naming
from knight.runtime import machine

# the hash step's least table: 1024 entries
MIN_CAPACITY_BITS = 10


# a table smaller than this is stepped on one thread: starting threads
# would cost more than they save
PARALLEL_STATES = 20_000


def step_threads():
    return max(1, min(machine.usable_cores(), 8))


_MAX_SHARDS = 1024


def _shards(expected, limbs, threads, room):
    """How many parts a step's successors are split into: one per thread,
    or more (a multiple) when their tables would not fit in memory at once.
    An entry is a key and its limbs; a table's load is 3/8..3/4, and its
    dense copy is made before the table is freed: about three entries a
    state at the peak. The tables may take ``HASH_TABLE_SHARE`` of ``room``,
    the step's bytes of memory."""
    per_state = 3 * 8 * (1 + limbs)
    budget = memory_model.HASH_TABLE_SHARE * room
    shards = threads
    while expected * per_state * threads / shards > budget and shards < _MAX_SHARDS:
        shards *= 2
    return shards


def step_in_parts(arguments, expected, spill, room=None):
    """One step, its successors split by pattern into parts (the kernel
    releases the GIL, so the threads run at once); the parts' tables are
    disjoint, so the next table is their concatenation. Parts that would
    not fit in memory together are made a thread-full at a time and
    appended to files in the folder ``spill()`` gives; the next step reads
    them back mapped (the page cache, not this process, holds them).
    ``room`` is the step's bytes of memory (``memory_model.step_room``;
    None: the share of what is available that a step takes with no budget)."""
    keys, counts = arguments.keys, arguments.counts
    threads = step_threads() if keys.shape[0] >= PARALLEL_STATES else 1
    room = memory_model.unbudgeted_room() if room is None else room
    shards = _shards(expected, counts.shape[1], threads, room)
    bits = table_kernels.capacity_bits(expected // shards + 1, MIN_CAPACITY_BITS)

    def part(index):
        made = hash_kernels.frontier_step(*arguments, bits, index, shards)
        if made.strays:
            raise AssertionError(f"{made.strays} dp states have a pattern the relaxation calls dead")
        return StepMade(
            made.keys, made.counts, from_limbs(made.completed), int(made.emitted), int(made.dead), int(made.overflow)
        )

    if shards == 1:
        return part(0)
    tallies = [0, 0, 0, 0]  # found, emitted, dead, overflow
    made_keys, made_counts = [], []
    on_disk = shards > threads
    if on_disk:
        folder = spill()
        key_path, count_path = os.path.join(folder, "keys.next"), os.path.join(folder, "counts.next")
    # a full disk names the spill folder (exit status 74); the run's finally removes it
    named = naming(folder) if on_disk else contextlib.nullcontext()
    with named, contextlib.ExitStack() as files:
        if on_disk:
            key_file, count_file = (files.enter_context(open(path, "wb")) for path in (key_path, count_path))
        for first in range(0, shards, threads):
            for made in worker_threads.map_all(part, range(first, first + threads), threads=threads):
                for index, tally in enumerate((made.found, made.emitted, made.dead, made.overflow)):
                    tallies[index] += tally
                if on_disk:
                    # written from the array's own buffer: no copy in memory
                    key_file.write(memoryview(made.keys))
                    count_file.write(memoryview(made.counts))
                    made_keys.append(made.keys.shape[0])
                else:
                    made_keys.append(made.keys)
                    made_counts.append(made.counts)
    if not on_disk:
        return StepMade(np.concatenate(made_keys), np.concatenate(made_counts), *tallies)
    held = sum(made_keys)
    # the files of the step before are still mapped by its arrays; renaming
    # over them unlinks the old data only once those arrays are gone
    os.replace(key_path, os.path.join(folder, "keys"))
    os.replace(count_path, os.path.join(folder, "counts"))
    return StepMade(
        table_format.mapped(os.path.join(folder, "keys"), (held,)),
        table_format.mapped(os.path.join(folder, "counts"), (held, counts.shape[1])),
        *tallies,
    )
