"""This module takes one step of the frontier DP out of core, for a step whose tables do not fit in memory.

The partitioned step (``partitioned_step``) runs on the input a chunk at a
time, each chunk planned to fill its tables in the step's room
(``chunk_plan``). Each chunk's reduced partitions are packed straight from
its tables (``packed_kernels``: sorted keys as gaps, counts in the bytes
they need) and appended to *runs* on disk, one file for each group of
consecutive partitions. Then each group is merged
across the runs (``packed_kernels.merge_pieces``) into one packed file of
the next table (``packed_table``). A group's run file is removed as soon as
it is merged, so that the runs give their disk to the next table as it
grows. Where the disk runs short while the runs are written, they are merged
early (``_Runs.compact``). Each group's pieces then become one, so that the
runs hold each state made so far once, not once for each chunk that made it.

Why this shape (Yang and Du's disk buckets, the sort-and-reduce variants
of Knuth's DYNAHAM): every byte goes to disk and back once, in long
sequential writes and reads, and what the step holds in anonymous memory
is one chunk's arrays, which its packing and the merge's groups are
written over, set by the room it is given, not by the step's size. The
files are page cache, which the kernel reclaims under pressure. Equal keys have equal partitions (the
key's hash, with the step's salt, as in memory), so a partition merged
across the runs holds each of its states once, with every count added
(carry-checked). The input stays until the step has its next table:
a step whose counts carry out of their limbs runs again, wider, from it
(and a checkpoint's links hold it anyway).
"""

import contextlib
import os
import shutil
import threading

import numpy as np

from knight.counting.dp.planning import memory_model
from knight.counting.dp.runs import worker_threads
from knight.counting.dp.steps import partitioned_step
from knight.counting.dp.steps.step_arrays import StepArrays
from knight.counting.dp.steps.step_made import StepMade
from knight.counting.dp.tables import packed_kernels, packed_table
from knight.exit_status import naming

# a chunk's states made a state read vary from chunk to chunk (the input
# is in hash order, so less than from step to step): the next chunk is
# sized for this much more than the last made
_CHUNK_MARGIN = 1.25
# a chunk after the trial reads as many states as fill its tables to this
# load at the rate the chunk before made (``chunk_plan``). A table is
# regrown past LOAD_LIMIT, the partitioned step's limit, so a chunk may
# make LOAD_LIMIT / TARGET_LOAD = _CHUNK_MARGIN times the states its rate
# gives before any table regrows
LOAD_LIMIT = 0.75
TARGET_LOAD = LOAD_LIMIT / _CHUNK_MARGIN
# the share of its room that a chunk's arrays are planned to take: the
# rest is for what the step holds beside them (the runs' bookkeeping,
# a merge's scratch, the interpreter's own)
PLAN_SHARE = 0.9
# the first chunk (a trial) reads this share of what the step's guess
# would have a chunk read. The guess is the states the whole step makes a
# state read, and a chunk, which merges only its own successors, makes
# more, several times more on a step of many transitions a state read.
# Such a trial's tables regrow, all of a thread's at once, the old held
# beside the new: at half a chunk, past the budget (journal: "A chunk's
# tables regrown past the budget"). An eighth stays well inside
_TRIAL_SHARE = 1 / 8
# the arrays a step's chunks hold are made this much larger than the
# trial asks: the chunks after it then fit them at the same rate of
# states made, and the pages left untouched take no memory
_TRIAL_HEADROOM = _CHUNK_MARGIN / _TRIAL_SHARE
# a thread that packs a chunk's tables and finds no array held to pack
# into makes a buffer of at most this many bytes (or its largest
# partition's), and packs its partitions in turns
_NEW_PACK_BYTES = 64 << 20
# the runs' files: at most this many (a group of partitions each), fewer
# where a group's merge buffers would pass a share of the room
MAX_GROUPS = 1024
# the runs are merged early when the spill filesystem's free space falls
# below this many chunks' runs and the final merge's first wave, and only
# once they have grown by ``memory_model.EARLY_RUN_ENTRIES`` since the last
# early merge (so that a merge gains: a state made by several chunks is in
# each one's run)
SHORT_CHUNKS = 3


def step_out_of_core(arguments, expected, threads, room, folder, disk=None):
    """One step (``StepArguments``, its table dense or a ``PackedTable``)
    that makes about ``expected`` states, in chunks whose tables fit in
    ``room`` bytes, through run files in ``folder`` (the run's spill
    folder), its input and runs within ``disk`` bytes (None: the free
    space alone bounds them; past either, the runs are merged early).
    Returns ``(table, table, found, emitted, dead, overflow)`` as
    ``partitioned_step.step_partitioned`` does its arrays: the next
    table, packed in ``folder`` (a ``PackedTable`` stands for both), the
    input's files removed if they were the run's."""
    limbs = arguments.counts.shape[1]
    parts = partitioned_step.partition_count(expected, 1 + limbs)
    runs = _Runs(folder, _group_bounds(parts, expected, limbs, threads, room), parts)
    per_state = max(expected / max(arguments.keys.shape[0], 1), 0.5)
    # the chunks' decoded input, emit buffers, tables and table, held from
    # chunk to chunk and, as the merge's buffers, through the merge (their
    # pages zeroed once a step, not once a chunk and a group: at 8 x 8
    # open's GiBs a quarter of the CPU went to it), with the headroom that
    # the chunks after the trial chunk need
    arrays = StepArrays(headroom=_TRIAL_HEADROOM, most_bytes=room)
    # a full disk names the spill folder (exit status 74); the run's finally removes it
    with naming(folder):
        try:
            tallies = _write_runs(arguments, runs, parts, room, per_state, threads, disk, arrays)
            if tallies[3]:
                # a count wrapped: the driver widens the limbs and runs the step again
                return StepMade(*_empty(limbs), *tallies)
            table, tallies[3] = _merge_runs(runs, limbs, threads, packed_table.next_prefix(folder), arrays)
            if tallies[3]:
                # counts of two chunks added past the limbs: the same
                table.remove()
                return StepMade(*_empty(limbs), *tallies)
        finally:
            runs.remove()
    if isinstance(arguments.keys, packed_table.PackedTable):
        arguments.keys.remove()
    return StepMade(table, table, *tallies)


def _empty(limbs):
    return np.zeros(0, dtype=np.uint64), np.zeros((0, limbs), dtype=np.uint64)


def _group_bounds(parts, expected, limbs, threads, room):
    """The first partition of each group of the runs, and ``parts``: as
    many groups as keep a group's merge (about two run entries and a
    packed copy a state) within ``MERGE_SHARE`` of ``room`` a thread."""
    merge_bytes = 2 * expected * (8 * (1 + limbs) + packed_kernels.most_bytes(1, limbs))
    groups = -(-merge_bytes * threads // max(int(memory_model.MERGE_SHARE * room), 1))
    groups = int(min(max(groups, 1), parts, MAX_GROUPS))
    return np.array([parts * g // groups for g in range(groups + 1)], dtype=np.int64)


class _Runs:
    """The runs of one step: group ``g`` (partitions ``bounds[g]`` ..
    ``bounds[g + 1]`` - 1) in one file, each chunk's pieces appended; where
    each piece starts in its file and its states, a row a chunk."""

    def __init__(self, folder, bounds, parts):
        self.bounds = bounds
        self.paths = [os.path.join(folder, f"runs-{g}") for g in range(bounds.shape[0] - 1)]
        self.sizes = [0] * len(self.paths)
        self.starts, self.states = [], []
        self.parts = parts

    def append(self, reduced, arrays):
        """One chunk's reduced tables (``partitioned_step.ReducedTables``)
        packed into their pieces, each thread packing its own tables'
        partitions into a buffer of its own (``_pack_buffers``: over the
        arrays ``arrays`` holds but the tables) and appending them to the
        runs each time the buffer fills; returns the bytes written."""
        starts = np.empty(self.parts, dtype=np.int64)
        lock = threading.Lock()
        limbs = reduced.entry - 1
        spans = [(reduced.groups[t], reduced.groups[t + 1]) for t in range(len(reduced.tables))]
        wanted = [packed_kernels.most_bytes(int(reduced.held[first:end].sum()), limbs) for first, end in spans]
        least = [packed_kernels.most_bytes(int(reduced.held[first:end].max(initial=0)), limbs) for first, end in spans]
        buffers = _pack_buffers(arrays.spare(*reduced.tables), wanted, least)

        def pack(thread):
            (first, end), out, written = spans[thread], buffers[thread], 0
            done = 0
            while done < end - first:
                packed, ends = packed_kernels.encode_tables(
                    reduced.tables[thread], reduced.bits[thread], reduced.entry, done, end - first, out
                )
                written += self._write(out, ends, first + done, starts, lock)
                done = packed
            return written

        written = sum(worker_threads.map_all(pack, range(len(spans)), threads=len(spans)))
        self.starts.append(starts)
        self.states.append(np.asarray(reduced.held, dtype=np.int64))
        return written

    def _write(self, data, ends, first, starts, lock):
        """Partitions ``first`` .. ``first + len(ends)`` - 1, packed in
        ``data`` up to ``ends``, appended to their groups' files, and each
        piece's start in its file set in ``starts``; returns the bytes."""
        begins = np.concatenate(([0], ends[:-1]))
        part, end, written = first, first + len(ends), 0
        while part < end:
            group = int(np.searchsorted(self.bounds, part, side="right")) - 1
            stop = min(end, int(self.bounds[group + 1]))
            low, high = int(begins[part - first]), int(ends[stop - 1 - first])
            # threads share a group's file where their partitions meet in it
            with lock:
                with open(self.paths[group], "ab") as handle:
                    handle.write(memoryview(data[low:high]))
                starts[part:stop] = begins[part - first : stop - first] - low + self.sizes[group]
                self.sizes[group] += high - low
            written += high - low
            part = stop
        return written

    def compact(self, limbs, threads, arrays):
        """Merge each group's pieces into one piece a partition, its file
        rewritten in turn (``threads`` groups at once, as ``_merge_runs``
        merges them, over ``arrays``): the runs then hold each state made
        so far once, its counts added. Returns 1 if a count carried out of
        the top limb."""
        starts = np.zeros(self.parts, dtype=np.int64)
        states = np.zeros(self.parts, dtype=np.int64)

        def rewrite(group, out, ends, held):
            first, end = int(self.bounds[group]), int(self.bounds[group + 1])
            size = int(ends[-1]) if len(ends) else 0
            merged = self.paths[group] + ".merged"
            with open(merged, "wb") as handle:
                handle.write(memoryview(out[:size]))
            os.replace(merged, self.paths[group])
            starts[first:end] = np.concatenate(([0], ends[:-1]))
            states[first:end] = held
            self.sizes[group] = size

        carried = _merge_groups(self, limbs, threads, rewrite, arrays)
        self.starts, self.states = [starts], [states]
        return carried

    def group(self, group):
        """Group ``group``'s runs: its file's bytes and its pieces' starts and
        states (runs x partitions)."""
        first, end = int(self.bounds[group]), int(self.bounds[group + 1])
        starts = np.array([row[first:end] for row in self.starts], dtype=np.int64).reshape(-1, end - first)
        states = np.array([row[first:end] for row in self.states], dtype=np.int64).reshape(-1, end - first)
        if not self.sizes[group]:
            # read-only as a map is: one signature of the merge kernel, not two
            nothing = np.zeros(1, dtype=np.uint8)
            nothing.setflags(write=False)
            return nothing, starts, states
        return np.memmap(self.paths[group], dtype=np.uint8, mode="r"), starts, states

    def remove(self, group=None):
        for path in self.paths if group is None else self.paths[group : group + 1]:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)


def _carved(spare, needs, least):
    """Carve a byte buffer of ``needs[i]`` bytes for each need from the
    arrays ``spare``, the largest array to the largest need.

    The arrays' pages are already the process's, so the kernel has nothing
    to zero. A need gets None where its array holds fewer than
    ``least[i]`` bytes, or where no array is left for it."""
    spare = sorted(spare, key=lambda array: array.nbytes, reverse=True)
    order = sorted(range(len(needs)), key=lambda index: -needs[index])
    buffers = [None] * len(needs)
    for rank, index in enumerate(order):
        if rank < len(spare) and spare[rank].nbytes >= least[index]:
            buffers[index] = spare[rank].view(np.uint8)[: needs[index]]
    return buffers


def _pack_buffers(spare, wanted, least):
    """Give each thread that packs a chunk's tables a byte buffer.

    The buffer is carved from the arrays ``spare`` (``_carved``): it holds
    ``wanted`` bytes where its array holds that many, and what the array
    holds otherwise. A thread whose array holds less than ``least`` (its
    largest partition, packed) gets a new buffer. A thread whose buffer
    holds less than ``wanted`` packs its partitions in turns, and it
    writes each turn out before the next."""
    buffers = _carved(spare, wanted, least)
    return [
        np.empty(max(low, min(want, _NEW_PACK_BYTES)), dtype=np.uint8) if buffer is None else buffer
        for buffer, want, low in zip(buffers, wanted, least, strict=True)
    ]


def _buffers(needs, arrays):
    """A byte buffer for each of ``needs`` bytes, carved from the arrays
    ``arrays`` (a ``StepArrays``) holds (``_carved``). Where they cannot
    give every buffer, ``arrays`` lets them go and the buffers are new:
    new buffers beside the held arrays would pass the room the chunks
    were sized for."""
    buffers = _carved(arrays.spare(), needs, needs)
    if any(buffer is None for buffer in buffers):
        del buffers
        arrays.release()
        return [np.empty(need, dtype=np.uint8) for need in needs]
    return buffers


def _write_runs(arguments, runs, parts, room, per_state, threads, disk, arrays):
    """Step the input a chunk at a time, appending each chunk's partitions
    to the runs. The first chunk is a trial (``_TRIAL_SHARE`` of what
    ``_chunk_states`` gives at the step's guess, ``per_state`` states made
    a state read). Each chunk after it reads what fills its tables to
    ``TARGET_LOAD`` at the rate the chunk before made (``chunk_plan``); the runs
    merged early where the disk runs short (``_disk_short``, ``disk``
    its budget); each chunk written over the arrays of the one before
    (``arrays``, a ``StepArrays``). Returns the tallies ``[found,
    emitted, dead, overflow]``."""
    source = arguments.keys
    input_bytes = source.disk_bytes() if isinstance(source, packed_table.PackedTable) else 0
    entry = 1 + arguments.counts.shape[1]
    tallies = [0, 0, 0, 0]  # found, emitted, dead, overflow
    compacted = 0  # the runs' bytes after the last early merge
    reader = packed_table.Reader(arguments.keys, arguments.counts)
    chunk = max(1, int(_chunk_states(room, per_state, entry) * _TRIAL_SHARE))
    # one chunk at least, even of no states
    while not reader.done() or not runs.starts:
        part = arguments.with_table(*reader.take(chunk, arrays, threads))
        read = part.keys.shape[0]
        reduced = partitioned_step.partition_tables(
            part, int(read * per_state) + 1, threads, parts, arrays=arrays, room=room
        )
        # the chunk's input is done with: the packing writes over it
        del part
        for index in range(4):
            tallies[index] += reduced.tallies[index]
        if tallies[3]:
            break
        written = runs.append(reduced, arrays)
        held = reduced.held
        del reduced  # the tables, which the next chunk writes over
        if (
            len(runs.starts) > 1
            and sum(runs.sizes) > memory_model.EARLY_RUN_ENTRIES * compacted
            and _disk_short(runs, written, threads, disk, input_bytes)
        ):
            if runs.compact(arguments.counts.shape[1], threads, arrays):
                tallies[3] = 1  # counts of two chunks added past the limbs: the step runs again, wider
                break
            compacted = sum(runs.sizes)
        # the next chunk at the rate this one made states, with a margin
        per_state = max(_CHUNK_MARGIN * int(held.sum()) / max(read, 1), 0.5)
        chunk = chunk_plan(room, per_state, entry, parts)
    tallies[3] = int(bool(tallies[3]))
    return tallies


def chunk_plan(room, per_state, entry, parts):
    """The states a chunk after the trial reads in ``room`` bytes, making
    ``per_state`` states a state read (with ``_CHUNK_MARGIN``), ``entry``
    words a state, into ``parts`` partitions.

    The chunk holds its partition tables (a power of two entries a
    partition), its decoded input and its emit buffers
    (``memory_model.BUFFER_SHARE`` of the room at most), within
    ``PLAN_SHARE`` of the room. For each size of the tables, the chunk
    reads what fills the rest of that share, or what fills the tables to
    ``TARGET_LOAD`` at the rate without the margin, whichever is less;
    the plan takes the size that reads the most. The tables are packed
    straight into the runs, over the input and the buffers
    (``_Runs.append``), so no dense copy of them takes room.

    Why: a chunk's run holds each state it made once, so the fewer the
    chunks, the fewer entries the runs hold and merge, and the smaller
    their keys' gaps. Tables sized from the states a chunk expects end at
    a load of 3/8 to 3/4 by the power of two; sized first and then
    filled, they end near ``TARGET_LOAD``, and a chunk reads more in the
    same room.
    """
    rate = per_state / _CHUNK_MARGIN
    word_bytes = 8 * entry
    share = PLAN_SHARE * room - memory_model.BUFFER_SHARE * room
    best, bits = 1, 0
    while word_bytes * (parts << bits) < share:
        capacity = parts << bits
        read = min((share - word_bytes * capacity) / word_bytes, TARGET_LOAD * capacity / rate)
        best = max(best, int(read))
        bits += 1
    return best


def _chunk_states(room, per_state, entry):
    """The states a chunk may read in ``room`` bytes, making ``per_state``
    states a state read, ``entry`` words a state: the step's arrays a state
    made (``memory_model.ENTRIES_PER_STATE``) and its decoded input, which
    outweighs them where a chunk makes fewer states than it reads."""
    return int(room / (8 * entry * (per_state * memory_model.ENTRIES_PER_STATE + 1)))


def _disk_short(runs, written, threads, disk=None, input_bytes=0):
    """Whether the disk is short of ``SHORT_CHUNKS`` more chunks of
    ``written`` bytes of runs and the final merge's first wave (its
    ``threads`` largest groups' files, which it writes out before it
    removes them): the spill filesystem's free space, or what is left of
    ``disk`` (a budget in bytes; None: none) after the step's input
    (``input_bytes``) and runs."""
    wave = sum(sorted(runs.sizes)[-threads:])
    coming = SHORT_CHUNKS * written + wave
    if disk is not None and input_bytes + sum(runs.sizes) + coming > disk:
        return True
    return shutil.disk_usage(os.path.dirname(runs.paths[0])).free < coming


def _merge_groups(runs, limbs, threads, take, arrays):
    """Merge each group across the runs, in order, ``threads`` groups at
    once, ``take(group, out, ends, held)`` given each merged group
    (its packed bytes, each partition's block end and states) in order;
    each wave's groups packed over the arrays ``arrays`` holds where they
    can hold all of them (``_buffers``). Returns 1 if a count carried out
    of the top limb (0 if none)."""

    def merge(pieces, out):
        data, starts, states = pieces
        return (out, *packed_kernels.merge_pieces(data, starts, states, limbs, out))

    carried = 0
    count = len(runs.paths)
    for wave in range(0, count, threads):
        # a wave at a time, in order: at most ``threads`` groups held
        groups = range(wave, min(wave + threads, count))
        pieces = [runs.group(group) for group in groups]
        outs = _buffers([packed_kernels.most_bytes(int(states.sum()), limbs) for _, _, states in pieces], arrays)
        merged = worker_threads.map_all(merge, pieces, outs, threads=threads)
        for group, (out, ends, held, overflow) in zip(groups, merged, strict=True):
            carried |= int(overflow)
            take(group, out, ends, held)
        del pieces, outs, merged
    return carried


def _merge_runs(runs, limbs, threads, prefix, arrays):
    """Merge every group across the runs into one file each of the next
    table (``prefix``), over ``arrays`` (``_merge_groups``), each group's
    runs removed once its file is written. Returns ``(table, overflow)``:
    overflow 1 if a count carried out of the top limb (0 if none)."""
    writer = packed_table.Writer(prefix, limbs)

    def write(group, out, ends, held):
        writer.add(out, ends, held)
        runs.remove(group)

    carried = _merge_groups(runs, limbs, threads, write, arrays)
    return writer.finish(), carried
