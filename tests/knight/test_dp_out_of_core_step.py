"""The frontier DP out of core (knight.counting.dp.steps.out_of_core_step): after every
step the same table as the hash step's, as a multiset of (key, count),
whatever the chunks, its input dense or packed; the same counts through
the engine under a memory budget that sends every step to disk; carries
between chunks caught; the run files gone after each step (each group's
as soon as it is merged) and the spill folder after the run."""

import dataclasses
import functools
import itertools
import os
import pathlib
import shutil

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knight.counting.dp import engine
from knight.counting.dp.model import cell_order
from knight.counting.dp.planning import memory_model
from knight.counting.dp.planning.policy import StepPolicy
from knight.counting.dp.runs import run_loop
from knight.counting.dp.steps import out_of_core_step, partition_kernels, partitioned_step, step_arrays, step_choice
from knight.counting.dp.steps.step_arrays import StepArrays
from knight.counting.dp.tables import packed_table, table_format
from knight.runtime import machine
from tests.conftest import dp_steps


def _entries(keys, counts):
    """The table as a multiset of (key, count limbs), with no key twice."""
    keys, counts = packed_table.dense(keys, counts)
    entries = sorted(zip(keys.tolist(), map(tuple, counts.tolist()), strict=True))
    assert len({key for key, _ in entries}) == len(entries)
    return entries


@pytest.mark.parametrize("room", [1, 2_000, 50_000, 10**9])
@pytest.mark.parametrize(
    ("rows", "cols", "closed", "forced"),
    [(4, 5, False, None), (5, 5, False, 6), (3, 8, True, None), (5, 6, True, None)],
)
def test_out_of_core_tables_equal_the_hash_tables(tmp_path, rows, cols, closed, forced, room):
    """Chunks of one state (room 1), of a few, of tens, and the whole step
    in one: every step's table and tallies are the hash step's, and the
    step leaves only the next table in the folder; a packed input (the
    table of the step before, packed) gives the same, its files removed."""
    before = None
    for arguments, made in dp_steps(rows, cols, closed, forced):
        expected = max(made[0].shape[0], 1)
        spilled = out_of_core_step.step_out_of_core(arguments, expected, 2, room, str(tmp_path))
        assert _entries(spilled[0], spilled[1]) == _entries(made[0], made[1])
        assert spilled[2:] == tuple(int(value) for value in made[2:])
        if before is not None:
            packed = arguments.with_table(before, before)
            again = out_of_core_step.step_out_of_core(packed, expected, 1, room, str(tmp_path))
            assert _entries(again[0], again[1]) == _entries(made[0], made[1]) and again[2:] == spilled[2:]
            again[0].remove()
        assert sorted(tmp_path.iterdir()) == sorted(map(pathlib.Path, spilled[0].files))
        before = spilled[0]


# every step, however small, out of core in chunks of a few states (with a
# budget of one byte)
ALL_OUT_OF_CORE = StepPolicy(partitioned_states=0, min_room=4_000, memory=1)


@pytest.mark.parametrize(
    ("rows", "cols", "closed", "forced"),
    [(5, 6, False, None), (6, 6, True, None), (5, 5, False, 0), (3, 40, False, None)],
)
def test_a_run_out_of_core_counts_as_one_in_memory(monkeypatch, tmp_path, spill_folders, rows, cols, closed, forced):
    """Under a budget of one byte every step runs out of core: the same
    count and states after every step as in memory. 3 x 40's counts pass
    2^64, so some carry only when two chunks' counts are added."""
    plan = cell_order.schedule(rows, cols)
    in_memory, memory_work = run_loop.count_hamiltonian(plan, closed, forced)
    made = spill_folders
    on_disk, disk_work = run_loop.count_hamiltonian(plan, closed, forced, policy=ALL_OUT_OF_CORE)
    assert on_disk == in_memory and disk_work.held == memory_work.held
    assert disk_work.emitted >= memory_work.emitted  # chunks merge less before the runs
    assert len(made) == 1 and list(tmp_path.iterdir()) == []


def test_a_carry_between_chunks_widens_the_counts(tmp_path):
    """Two chunks whose counts for one successor fit one limb each but not
    their sum: the merge of the runs reports the carry, as the step in
    memory does, so that the driver runs the step again wider."""
    arguments = next(dp_steps(3, 4, False, None))[0]
    keys = np.zeros(2, dtype=np.uint64)  # the same state twice: two chunks of one state
    counts = np.full((2, 1), 1 << 63, dtype=np.uint64)
    spilled = out_of_core_step.step_out_of_core(arguments.with_table(keys, counts), 2, 1, 1, str(tmp_path))
    assert spilled[5] == 1 and spilled[0].shape == (0,)
    wide = np.zeros((2, 2), dtype=np.uint64)
    wide[:, 0] = 1 << 63
    spilled = out_of_core_step.step_out_of_core(arguments.with_table(keys, wide), 2, 1, 1, str(tmp_path))
    counts = packed_table.dense(spilled[0], spilled[1])[1]
    assert spilled[5] == 0 and (counts[:, 1] == 1).all() and (counts[:, 0] == 0).all()


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 20_000), st.integers(0, 10**9), st.integers(1, 4), st.integers(1, 2), st.integers(1, 2**34))
def test_the_groups_of_the_runs_cover_every_partition_in_order(parts, expected, limbs, threads, room):
    """The runs' groups: consecutive, every partition once, at most
    ``MAX_GROUPS``; less room, never fewer groups."""
    bounds = out_of_core_step._group_bounds(parts, expected, limbs, threads, room)
    assert bounds[0] == 0 and bounds[-1] == parts and (np.diff(bounds) > 0).all()
    assert len(bounds) - 1 <= out_of_core_step.MAX_GROUPS
    assert len(out_of_core_step._group_bounds(parts, expected, limbs, threads, room // 2)) >= len(bounds)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 4096), max_size=4), st.lists(st.integers(1, 600), max_size=4))
def test_buffers_are_carved_from_the_held_arrays_or_all_new(needs, held_words):
    """The packing and merge buffers: one a need, as large, never two on
    one array; all carved from the arrays held (the largest to the
    largest need) where they can give every one, else all new, the held
    arrays let go (new ones beside them would pass the room)."""
    arrays = StepArrays()
    held = [arrays.empty(f"held-{index}", words) for index, words in enumerate(held_words)]
    buffers = out_of_core_step._buffers(needs, arrays)
    assert [buffer.nbytes for buffer in buffers] == needs and all(buffer.dtype == np.uint8 for buffer in buffers)
    under = [
        next((i for i, array in enumerate(held) if np.may_share_memory(buffer, array)), None) for buffer in buffers
    ]
    room = sorted((8 * words for words in held_words), reverse=True)
    fits = len(room) >= len(needs) and all(r >= n for r, n in zip(room, sorted(needs, reverse=True), strict=False))
    if fits:
        carved = [index for index, buffer in zip(under, buffers, strict=True) if buffer.nbytes]
        assert None not in carved and len(set(carved)) == len(carved)
        assert arrays.room(None) == sum(room)
    else:
        assert set(under) <= {None} and arrays.room(None) == 0


@pytest.mark.parametrize("packed", [False, True])
def test_a_step_s_chunks_write_over_the_arrays_of_the_chunks_before(tmp_path, monkeypatch, packed):
    """The chunks' decoded input, buffers, tables and table are made new
    once a step (twice where a chunk outgrows the headroom), not once a
    chunk: each new array's pages are zeroed by the kernel at first touch."""
    made_new, chunks = [], []
    mapped, tables = step_arrays._mapped, partitioned_step.partition_tables

    def counted_mapped(words):
        made_new.append(words)
        return mapped(words)

    def counted_tables(*arguments, **keywords):
        chunks.append(keywords["arrays"])
        return tables(*arguments, **keywords)

    monkeypatch.setattr(step_arrays, "_mapped", counted_mapped)
    monkeypatch.setattr(partitioned_step, "partition_tables", counted_tables)
    arguments, made = list(dp_steps(5, 6, False, None))[20]
    if packed:
        monkeypatch.setattr(packed_table, "BLOCK_ROWS", 64)  # blocks the size of the chunks
        table = packed_table.pack(arguments.keys, arguments.counts, str(tmp_path))
        arguments = arguments.with_table(table, table)
    spilled = out_of_core_step.step_out_of_core(arguments, 200_000, 1, 100_000, str(tmp_path))
    assert _entries(spilled[0], spilled[1]) == _entries(made[0], made[1])
    assert len(chunks) >= 6 and len({id(arrays) for arrays in chunks}) == 1
    # a slot and one thread's tables (and the decoded input), each made new at most twice
    assert len(made_new) <= 2 * (2 + packed)


@functools.cache
def _peak_steps_6x6():
    """6 x 6 open's steps about its peak (300,000 states; made 0.9 to 1.6
    states a state read), ``(arguments, states made)`` each."""
    return [(arguments, made[0].shape[0]) for arguments, made in list(dp_steps(6, 6, False, None))[23:30]]


class _HeldBytes(StepArrays):
    """A ``StepArrays`` that tells the bytes it holds touched."""

    def held(self):
        return sum(self._touched.values())


@settings(max_examples=12, deadline=None)
@given(step=st.integers(0, 6), guess=st.sampled_from([1 / 8, 1 / 4, 1 / 2, 1, 2, 4, 8]))
def test_a_step_out_of_core_stays_in_its_room_whatever_the_guess(tmp_path_factory, step, guess):
    """However far the step's guess of its states is from what it makes,
    its chunks' arrays stay within the share of the room they are planned
    for, none made larger than
    the room, their tables regrown only in the trial chunk: a thread's tables regrown are held beside the
    old ones, so a chunk that makes far more states than its tables were
    sized for passes its room (with trial chunks of half a chunk at the
    step's own ratio, 8 x 8 open passed its budget at its two steps of
    most transitions a state read)."""
    arguments, made = _peak_steps_6x6()[step]
    room = 2_000_000
    peaks, chunk, arrays = [], [-1], []
    real_reduce, real_tables = partition_kernels.reduce_partitions, partitioned_step.partition_tables

    def reduce(*call):
        tables, bits, overflow = real_reduce(*call)
        regrown = bits != call[7]  # the tables' capacity bits it was given
        # a regrown table is held beside the one it replaced until the step holds it
        peaks.append((chunk[0], regrown, arrays[0].held() + (tables.nbytes if regrown else 0)))
        return tables, bits, overflow

    def tables(*call, **keywords):
        chunk[0] += 1
        return real_tables(*call, **keywords)

    def held_bytes(**keywords):
        arrays.append(_HeldBytes(**keywords))
        return arrays[-1]

    mapped, real_mapped = [], step_arrays._mapped

    def recorded_mapped(words):
        mapped.append(8 * words)
        return real_mapped(words)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(step_arrays, "_mapped", recorded_mapped)
        patch.setattr(partition_kernels, "reduce_partitions", reduce)
        patch.setattr(partitioned_step, "partition_tables", tables)
        patch.setattr(out_of_core_step, "StepArrays", held_bytes)
        folder = str(tmp_path_factory.mktemp("runs"))
        spilled = out_of_core_step.step_out_of_core(arguments, max(int(made * guess), 1), 2, room, folder)
    assert spilled[0].shape[0] == made
    spilled[0].remove()
    assert chunk[0] >= 4
    assert max(held for _, _, held in peaks) <= out_of_core_step.PLAN_SHARE * room
    assert not [index for index, regrown, _ in peaks if regrown and index > 0]
    # no array is made past the room, touched or not: the kernel refuses
    # a mapping past the machine's memory
    assert max(mapped) <= room


def test_each_groups_runs_go_as_soon_as_it_is_merged(tmp_path, monkeypatch):
    """The step streams: when a group's file of the next table is written,
    the runs of the groups merged before it are gone, so that the runs and
    the next table are never both whole on disk."""
    monkeypatch.setattr(out_of_core_step, "_group_bounds", lambda parts, *_: np.arange(parts + 1, dtype=np.int64))
    seen = []
    real = packed_table.Writer.add

    def add(writer, *arguments):
        seen.append(sorted(path.name for path in tmp_path.iterdir() if path.name.startswith("runs-")))
        return real(writer, *arguments)

    monkeypatch.setattr(packed_table.Writer, "add", add)
    arguments, made = list(dp_steps(5, 6, False, None))[20]
    spilled = out_of_core_step.step_out_of_core(arguments, 200_000, 1, 5_000, str(tmp_path))
    assert _entries(spilled[0], spilled[1]) == _entries(made[0], made[1])
    assert len(seen) > 2 and all(len(a) > len(b) for a, b in itertools.pairwise(seen))
    assert not [path for path in tmp_path.iterdir() if path.name.startswith("runs-")]


def test_the_budget_sets_the_room(monkeypatch):
    """A step gets what is left of the budget, never more than its share
    of what is available, nor less than the policy's least room."""
    monkeypatch.setattr(machine, "available_memory", lambda: 2**30)
    monkeypatch.setattr(machine, "anonymous_memory", lambda: 2**28)
    room = memory_model.step_room
    assert room(StepPolicy()) == memory_model.FREE_SHARE * 2**30
    assert room(StepPolicy(memory=2**29)) == 2**28
    assert room(StepPolicy(memory=2**40)) == memory_model.FREE_SHARE * 2**30
    assert room(StepPolicy(memory=2**27)) == StepPolicy().min_room


def test_a_table_written_to_disk_is_packed(tmp_path):
    keys = np.arange(5, dtype=np.uint64)[::-1].copy()
    counts = np.arange(10, dtype=np.uint64).reshape(5, 2)
    assert not table_format.is_mapped(keys)
    on_disk = table_format.to_disk(keys, counts, str(tmp_path))
    assert all(table_format.is_mapped(array) for array in on_disk)
    assert _entries(*on_disk) == _entries(keys, counts)


def test_the_memory_is_judged_by_a_high_guess(monkeypatch):
    """Whether a step runs out of core is judged by the larger of the last
    step's ratio and that of the step a column before, with a margin:
    never below the table's own guess, and above it where the column
    before grew more."""
    seen = []
    real = step_choice.run_step

    def recorded(arguments, expected, spill, policy, room, high=None, arrays=None):
        seen.append((expected, high))
        return real(arguments, expected, spill, policy, room, high, arrays)

    monkeypatch.setattr(step_choice, "run_step", recorded)
    run_loop.count_hamiltonian(cell_order.schedule(5, 6), False)
    assert all(high >= expected for expected, high in seen)
    assert any(high > run_loop.HIGH_MARGIN * expected + 1 for expected, high in seen)


def _short_of_disk(monkeypatch):
    """The spill filesystem full, as the step sees it: it merges its runs
    early after every chunk that grew them enough; returns the runs' bytes
    after each early merge."""
    monkeypatch.setattr(out_of_core_step.shutil, "disk_usage", lambda path: shutil_usage(0))
    sizes = []
    real = out_of_core_step._Runs.compact

    def compact(runs, *arguments):
        carried = real(runs, *arguments)
        sizes.append(sum(runs.sizes))
        return carried

    monkeypatch.setattr(out_of_core_step._Runs, "compact", compact)
    return sizes


def shutil_usage(free):
    return shutil._ntuple_diskusage(10**12, 10**12 - free, free)


@pytest.mark.parametrize(("rows", "cols", "closed", "forced"), [(4, 5, False, None), (5, 6, True, None)])
def test_runs_merged_early_on_a_short_disk_give_the_same_tables(tmp_path, monkeypatch, rows, cols, closed, forced):
    """Where the disk runs short the runs are merged early, each group's
    pieces into one: every step's table and tallies are still the hash
    step's, a state is then in the runs once, and the merge happened."""
    sizes = _short_of_disk(monkeypatch)
    for arguments, made in dp_steps(rows, cols, closed, forced):
        expected = max(made[0].shape[0], 1)
        spilled = out_of_core_step.step_out_of_core(arguments, expected, 2, 2_000, str(tmp_path))
        assert _entries(spilled[0], spilled[1]) == _entries(made[0], made[1])
        assert spilled[2:] == tuple(int(value) for value in made[2:])
        assert sorted(tmp_path.iterdir()) == sorted(map(pathlib.Path, spilled[0].files))
        spilled[0].remove()
    assert len(sizes) > 5


def test_a_carry_found_by_an_early_merge_widens_the_counts(tmp_path, monkeypatch):
    """Two chunks' counts that pass one limb only when added, added by an
    early merge of the runs: the step reports the carry, as the final merge
    does, and gives the sum at two limbs."""
    sizes = _short_of_disk(monkeypatch)
    arguments = next(dp_steps(3, 4, False, None))[0]
    keys = np.zeros(3, dtype=np.uint64)  # the same state thrice: three chunks of one state
    counts = np.full((3, 1), 1 << 62, dtype=np.uint64)
    counts[2] = 1 << 63
    spilled = out_of_core_step.step_out_of_core(arguments.with_table(keys, counts), 2, 1, 1, str(tmp_path))
    assert spilled[5] == 1 and spilled[0].shape == (0,) and len(sizes) == 2  # the second merge carried
    wide = np.zeros((3, 2), dtype=np.uint64)
    wide[:, 0] = counts[:, 0]
    spilled = out_of_core_step.step_out_of_core(arguments.with_table(keys, wide), 2, 1, 1, str(tmp_path))
    counts = packed_table.dense(spilled[0], spilled[1])[1]
    assert spilled[5] == 0 and (counts[:, 1] == 1).all() and (counts[:, 0] == 0).all()


def test_a_disk_budget_merges_the_runs_early_and_counts_the_same(monkeypatch, spill_folders):
    """--disk bounds a step's input and runs, not only the refusal before
    the run: under a budget smaller than any step's runs, every step whose
    runs grew merges them early, with the free space ample, and the count
    is the one in memory."""
    # small partitions: a packed table's blocks (one a partition) are
    # small, so that a step takes many chunks (each a block at least)
    monkeypatch.setattr(memory_model, "PARTITION_TABLE_BYTES", 4096)
    compacted = []
    real = out_of_core_step._Runs.compact
    monkeypatch.setattr(out_of_core_step._Runs, "compact", lambda runs, *a: compacted.append(1) or real(runs, *a))
    plan = cell_order.schedule(4, 6)
    in_memory, _ = run_loop.count_hamiltonian(plan, False)
    ample, _ = run_loop.count_hamiltonian(plan, False, policy=ALL_OUT_OF_CORE)
    assert ample == in_memory and not compacted  # no budget: the free space decides
    budgeted, _ = run_loop.count_hamiltonian(plan, False, policy=dataclasses.replace(ALL_OUT_OF_CORE, disk=1))
    assert budgeted == in_memory and len(compacted) > 5


class _FakeRuns:
    def __init__(self, folder, sizes):
        self.paths, self.sizes = [os.path.join(folder, "runs-0")], sizes


@given(
    sizes=st.lists(st.integers(0, 10**6), min_size=1, max_size=5),
    written=st.integers(0, 10**6),
    input_bytes=st.integers(0, 10**7),
    disk=st.one_of(st.none(), st.integers(0, 2 * 10**7)),
)
@settings(max_examples=100, deadline=None)
def test_the_disk_is_short_past_the_budget_or_the_free_space(tmp_path_factory, sizes, written, input_bytes, disk):
    folder = str(tmp_path_factory.getbasetemp())
    runs, threads = _FakeRuns(folder, sizes), 2
    coming = out_of_core_step.SHORT_CHUNKS * written + sum(sorted(sizes)[-threads:])
    free = shutil.disk_usage(folder).free
    over_budget = disk is not None and input_bytes + sum(sizes) + coming > disk
    assert out_of_core_step._disk_short(runs, written, threads, disk, input_bytes) == (over_budget or free < coming)


@pytest.mark.parametrize("count", ["count_total", "count_tours"])
def test_the_disk_budget_reaches_every_step(monkeypatch, count):
    """``disk=`` (``--disk``) goes from the public counts to each step."""
    import knight

    options = {"method": "dp"} if count == "count_tours" else {}

    def counted(**budget):
        answer = getattr(knight, count)(5, 5, **options, **budget)
        return answer.tours if count == "count_total" else answer.tours.tolist()

    expected = counted()
    seen = set()
    real = step_choice.run_step

    def recorded(arguments, expected, spill, policy, room, *rest):
        seen.add(policy.disk)
        return real(arguments, expected, spill, policy, room, *rest)

    monkeypatch.setattr(step_choice, "run_step", recorded)
    monkeypatch.setattr(engine, "compile_kernels", lambda: None)  # its warm-up runs have no budget
    assert counted(disk=10**9) == expected and seen == {10**9}


def test_a_packed_input_decoded_whole_counts_in_the_room(tmp_path):
    """A step in memory decodes a packed input whole: where its tables fit
    the room but not with the dense input, the step runs out of core."""
    arguments, made = max(dp_steps(5, 6, False, None), key=lambda step: step[0].keys.shape[0])
    states, high = arguments.keys.shape[0], max(made[0].shape[0], 1)
    tables, dense = memory_model.step_bytes(high, 1), memory_model.dense_bytes(states, 1)
    policy = StepPolicy(partitioned_states=0)
    for room, chosen in [(tables + dense, step_choice.PARTITIONED), (tables + dense // 2, step_choice.OUT_OF_CORE)]:
        folder = str(tmp_path / chosen)
        os.mkdir(folder)
        packed = packed_table.pack(arguments.keys, arguments.counts, folder)
        spill = functools.partial(str, folder)
        stepped, engine_name = step_choice.run_step(arguments.with_table(packed, packed), high, spill, policy, room)
        assert engine_name == chosen and _entries(stepped[0], stepped[1]) == _entries(made[0], made[1])
