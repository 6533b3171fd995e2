"""This module takes one step of the frontier DP with sequential tables (``partition_kernels``).

Threads read the input in order, and each appends successors to its own
partition buffers. The buffers are then reduced partition by partition, with
the partitions split between threads. The step goes chunk after chunk until
the input is done. Threads never share a buffer or a table, so nothing is
locked."""

from typing import NamedTuple

import numpy as np

from knight.counting.dp.model.degree_relaxation import MOST_OPTIONS
from knight.counting.dp.planning import memory_model
from knight.counting.dp.runs import worker_threads
from knight.counting.dp.steps import partition_kernels
from knight.counting.dp.steps.step_arrays import StepArrays
from knight.counting.dp.steps.step_made import StepMade, from_limbs
from knight.counting.dp.tables import table_kernels

MAX_PARTS = 1 << 14


class ReducedTables(NamedTuple):
    """What ``partition_tables`` reduced: each thread's partition tables.

    ``tables[t]`` holds partitions ``groups[t]`` .. ``groups[t + 1]`` - 1,
    ``2**bits[t]`` entries of ``entry`` words each, and ``held[p]`` is the
    number of states in partition ``p``; ``tallies`` is ``[found,
    emitted, dead, overflow]``. The tables lie in ``arrays``, and
    ``slot`` names the slot whose emit buffers are done with, which
    ``dense`` writes the table over.
    """

    tables: list
    bits: list
    groups: list
    held: np.ndarray
    tallies: list
    entry: int
    arrays: StepArrays
    slot: str

    def dense(self):
        """Return the ``PartitionTables``: every partition's states, in
        partition order, copied densely over the slot."""
        if self.tallies[3]:
            empty = np.zeros((0, self.entry), dtype=np.uint64)
            return PartitionTables(empty[:, 0], empty[:, 1:], self.held[:0], self.tallies)
        total = int(self.held.sum())
        table = self.arrays.empty(self.slot, total * self.entry)
        self.arrays.trim(self.slot, total * self.entry)
        out_keys = table[:total]
        out_counts = table[total:].reshape(total, self.entry - 1)
        groups = self.groups
        offsets = np.cumsum([0] + [int(self.held[groups[g] : groups[g + 1]].sum()) for g in range(len(self.tables))])

        def compact(group):
            return partition_kernels.compact_partitions(
                self.tables[group], self.bits[group], self.entry, out_keys, out_counts, offsets[group]
            )

        worker_threads.map_all(compact, range(len(self.tables)), threads=len(self.tables))
        return PartitionTables(out_keys, out_counts, self.held, self.tallies)


class PartitionTables(NamedTuple):
    """What ``partition_tables`` made: the next table in partition order.

    ``held[p]`` is the number of states of partition ``p`` in it, and
    ``tallies`` is ``[found, emitted, dead, overflow]``.
    """

    keys: np.ndarray
    counts: np.ndarray
    held: np.ndarray
    tallies: list

    def made(self):
        """Return the step's ``StepMade``: the table and its tallies, without ``held``."""
        return StepMade(self.keys, self.counts, *self.tallies)


_MIN_REGION = 4 * MOST_OPTIONS
_MIN_CAPACITY_BITS = 4
# how far a step's tables may be raised past what its expected states ask,
# in doublings, where the tables held have the pages (``_table_bits``)
_MOST_RAISED_BITS = 2


def partition_count(expected, entry):
    """Partitions whose tables, two entries a state expected (a load of
    3/8..3/4, 1/2 on average), take about memory_model.PARTITION_TABLE_BYTES each."""
    parts = -(-2 * expected * 8 * entry // memory_model.PARTITION_TABLE_BYTES)
    return int(min(max(parts, 1), MAX_PARTS))


def _region(expected, entry, parts, threads, room):
    """Return the entries per partition per thread of one chunk's buffers.

    The buffers take at most ``BUFFER_SHARE`` of ``room``, the step's bytes of memory.
    """
    budget = memory_model.BUFFER_SHARE * room / (8 * entry)
    chunk = min(memory_model.CHUNK_SHARE * expected, budget)
    return int(max(_MIN_REGION, chunk // (threads * parts) + 1))


def step_partitioned(arguments, expected, threads, parts=None, region=None, arrays=None, high=None, room=None):
    """One step (``StepArguments``) on
    ``threads`` threads with ``parts`` partitions (default: from
    ``expected``, the states it should make) of ``region`` entries a
    thread. Returns a ``StepMade``, as ``hash_step.step_in_parts`` does.
    ``arrays``: the run's ``StepArrays``, which its buffers, tables and
    next table are taken from (None: new ones); ``high``: a high guess of
    the states it makes, which its tables are sized for as far as the
    tables held have the pages."""
    return partition_tables(arguments, expected, threads, parts, region, arrays, high, room).dense().made()


def _tables_name(group):
    """The name thread ``group``'s partition tables are held by in a ``StepArrays``."""
    return f"tables-{group}"


def _tables_words(groups, group, entry, bits):
    """The words of thread ``group``'s tables: one of ``2**bits`` entries
    for each of its partitions (``groups[group]`` .. ``groups[group + 1]`` - 1)."""
    return (groups[group + 1] - groups[group]) * entry << bits


def _table_bits(expected, high, groups, entry, arrays):
    """``(bits, high_bits)``: log2 of the entries of each partition's
    table, and of those ``high`` states would want (by at most
    ``_MOST_RAISED_BITS`` more). ``bits`` is enough for ``expected``
    states, raised toward ``high_bits`` while every thread's tables still
    fit the pages its tables held have touched.

    Why: a table that passes a load of 3/4 is regrown, into pages new to
    the process, which the kernel zeroes at first touch (slowly on this
    project's virtual machines). ``expected`` comes from the last step's
    ratio, and a column's steps rise and fall: on 7 x 7 open a step made
    4 times the states guessed after a step that halved them, and its
    tables were made anew and regrown twice, though the tables of the
    run's peak, held, had the pages. Raised, a table is only emptier."""
    parts = groups[-1]
    bits = table_kernels.capacity_bits(expected / parts, _MIN_CAPACITY_BITS)
    if high is None or arrays is None:
        return bits, bits
    high_bits = min(max(table_kernels.capacity_bits(high / parts, _MIN_CAPACITY_BITS), bits), bits + _MOST_RAISED_BITS)
    while bits < high_bits and all(
        8 * _tables_words(groups, g, entry, bits + 1) <= arrays.touched(_tables_name(g)) for g in range(len(groups) - 1)
    ):
        bits += 1
    return bits, high_bits


def partition_tables(arguments, expected, threads, parts=None, region=None, arrays=None, high=None, room=None):
    """``step_partitioned``'s step up to its reduced partition tables,
    returned as ``ReducedTables``: ``dense()`` copies them into the next
    table in partition order, and ``out_of_core_step`` packs them into its
    runs. The tables lie in ``arrays`` (a ``StepArrays``; None: one of the
    call's own), valid until the next step takes them; ``high``: as
    ``step_partitioned``'s."""
    keys, counts = arguments.keys, arguments.counts
    step_rest, salt = arguments.step_fields(), arguments.salt
    entry = 1 + counts.shape[1]
    parts = partition_count(expected, entry) if parts is None else parts
    threads = max(1, min(threads, parts))
    if region is None:
        room = memory_model.unbudgeted_room() if room is None else room
        region = _region(expected, entry, parts, threads, room)
    bounds = [keys.shape[0] * t // threads for t in range(threads + 1)]
    groups = [parts * g // threads for g in range(threads + 1)]
    cursors = bounds[:-1]
    bits, high_bits = _table_bits(expected, high, groups, entry, arrays)
    arrays = StepArrays() if arrays is None else arrays
    slot = arrays.free_slot(keys)
    buffers = arrays.empty(slot, threads * parts * region * entry).reshape(threads, -1)
    fills = np.zeros((threads, parts), dtype=np.int64)
    held = np.zeros(parts, dtype=np.int64)
    # left unset: the first chunk's reduce marks them empty. A table held
    # that has touched more than twice what this step asks goes first:
    # were the step to regrow it, it would hold the held and the regrown
    # at once. With a high guess, more than 4 times what it would ask: at
    # twice, 7 x 7 open let its peak's tables go at a step that halved
    # the states, and the next step, which doubled them, made them anew
    # (3.5 of its 6.5 GB of new tables)
    most = 2 if high is None else 4 << (high_bits - bits)
    tables = [arrays.empty(_tables_name(g), _tables_words(groups, g, entry, bits), most) for g in range(threads)]
    table_bits = [bits] * threads
    tallies = [0, 0, 0, 0]  # found, emitted, dead, overflow
    chunks = [0]

    def emit(thread):
        return partition_kernels.emit_successors(
            keys,
            counts,
            cursors[thread],
            bounds[thread + 1],
            *step_rest,
            salt,
            parts,
            region,
            buffers[thread],
            fills[thread],
        )

    def reduce(group):
        tables[group], table_bits[group], overflow = partition_kernels.reduce_partitions(
            buffers,
            fills,
            region,
            entry,
            groups[group],
            groups[group + 1],
            tables[group],
            table_bits[group],
            held,
            salt,
            chunks[0] == 0,
        )
        return overflow

    # one chunk at least, even of no states: the first marks the tables empty
    while chunks[0] == 0 or any(cursors[t] < bounds[t + 1] for t in range(threads)):
        fills[:] = 0
        for thread, emitted in enumerate(worker_threads.map_all(emit, range(threads), threads=threads)):
            if emitted.strays:
                raise AssertionError(f"{emitted.strays} dp states have a pattern the relaxation calls dead")
            cursors[thread] = emitted.next_state
            tallies[0] += from_limbs(emitted.completed)
            tallies[1] += int(emitted.emitted)
            tallies[2] += int(emitted.dead)
            tallies[3] |= int(emitted.overflow)
        for overflow in worker_threads.map_all(reduce, range(threads), threads=threads):
            tallies[3] |= int(overflow)
        chunks[0] += 1
        if tallies[3]:
            # a count wrapped: the driver widens the limbs and runs the step again
            break
    for group in range(threads):
        if table_bits[group] != bits:
            arrays.hold(_tables_name(group), tables[group])  # regrown: the next step's may be as large
    # the emit buffers are done with: the dense copy is made over them, so
    # that the step's peak holds the input, the tables and the output, not
    # the buffers too
    buffers = None
    return ReducedTables(tables, table_bits, groups, held, tallies, entry, arrays, slot)
