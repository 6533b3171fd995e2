"""The partitioned step of the frontier DP (knight.counting.dp.steps.partitioned_step):
after every step the same table as the hash step's, as a multiset of (key,
count), whatever the partitions, threads and chunk size; the same counts
through the engine; carries caught."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knight.counting.dp.model import cell_order, degree_relaxation
from knight.counting.dp.model.degree_relaxation import MOST_OPTIONS
from knight.counting.dp.model.states import word_layout
from knight.counting.dp.planning import memory_model
from knight.counting.dp.planning.policy import TABLES, StepPolicy
from knight.counting.dp.runs import run_loop
from knight.counting.dp.steps import hash_step, partition_kernels, partitioned_step
from knight.counting.dp.steps.step_arguments import step_arguments
from knight.counting.dp.steps.step_arrays import StepArrays
from tests.conftest import dp_steps


def _entries(keys, counts):
    """The table as a multiset of (key, count limbs), with no key twice."""
    entries = sorted(zip(keys.tolist(), map(tuple, counts.tolist()), strict=True))
    assert len({key for key, _ in entries}) == len(entries)
    return entries


def _step_by_step(rows, cols, closed, forced, check, order=None):
    """Run the hash step over every step of the board (its squares in
    ``order``, default the DP's), calling ``check(arguments, made)`` with
    each step's arguments and its result."""
    for arguments, made in dp_steps(rows, cols, closed, forced, order):
        check(arguments, made)


@pytest.mark.parametrize(
    ("parts", "threads", "region"),
    [(1, 1, None), (7, 2, None), (64, 2, MOST_OPTIONS), (3, 1, MOST_OPTIONS + 1), (5, 3, 2 * MOST_OPTIONS)],
)
@pytest.mark.parametrize(
    ("rows", "cols", "closed", "forced"),
    [(4, 5, False, None), (5, 5, False, 6), (3, 8, True, None), (5, 6, True, None)],
)
def test_partitioned_tables_equal_the_hash_tables(rows, cols, closed, forced, parts, threads, region):
    """One partition, an odd number, many; one thread or several; chunks
    of a state or two (region MOST_OPTIONS), with tables that start at
    16 entries and grow: every step's table and tallies are the hash
    step's."""

    def check(arguments, made):
        # expected 1: the smallest tables, grown as they fill
        split = partitioned_step.step_partitioned(arguments, 1, threads, parts=parts, region=region)
        assert _entries(split[0], split[1]) == _entries(made[0], made[1])
        assert split[2:] == made[2:]

    _step_by_step(rows, cols, closed, forced, check)


class _Touched:
    """A ``StepArrays`` stand-in whose thread ``g``'s tables have touched
    ``touched[g]`` bytes."""

    def __init__(self, touched):
        self._touched = {partitioned_step._tables_name(g): held for g, held in enumerate(touched)}

    def touched(self, name):
        return self._touched[name]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 10**8),
    st.floats(0.1, 100),
    st.integers(1, 2000),
    st.integers(1, 4),
    st.integers(2, 5),
    st.data(),
)
def test_tables_are_raised_toward_the_high_guess_only_into_pages_held(expected, times, parts, threads, entry, data):
    high = expected * times
    groups = [parts * g // threads for g in range(threads + 1)]
    touched = data.draw(st.lists(st.integers(0, 1 << 34), min_size=threads, max_size=threads))
    bits, high_bits = partitioned_step._table_bits(expected, high, groups, entry, _Touched(touched))
    least = partitioned_step.table_kernels.capacity_bits(expected / parts, partitioned_step._MIN_CAPACITY_BITS)
    wanted = partitioned_step.table_kernels.capacity_bits(high / parts, partitioned_step._MIN_CAPACITY_BITS)
    assert least <= bits <= high_bits == min(max(wanted, least), least + partitioned_step._MOST_RAISED_BITS)

    def fit(b):
        return all(8 * ((groups[g + 1] - groups[g]) * entry << b) <= touched[g] for g in range(threads))

    # raised only into pages held, and as far as they go
    assert bits == least or fit(bits)
    assert bits == high_bits or not fit(bits + 1)
    assert partitioned_step._table_bits(expected, None, groups, entry, _Touched(touched)) == (least, least)


def test_a_step_guessed_low_writes_in_the_tables_held_and_counts_the_same():
    """Tables held from a larger step, and a high guess that they hold:
    the step's tables are raised into them, none regrown or made anew,
    and its table is the one the step guessed right makes."""
    steps = list(dp_steps(5, 6, False, None))
    arguments, made = max(steps, key=lambda step: step[1][0].shape[0])
    states = made[0].shape[0]
    arrays = StepArrays()
    partitioned_step.step_partitioned(arguments, states, 2, arrays=arrays)  # holds tables for ``states``
    names = [partitioned_step._tables_name(g) for g in range(2)]
    held = [arrays.empty(name, 1) for name in names]
    bits = []
    reduce = partition_kernels.reduce_partitions

    def reduced(*args):
        made = reduce(*args)
        bits.append((args[7], made[1]))  # the tables' bits before and after
        return made

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(partition_kernels, "reduce_partitions", reduced)
        low = partitioned_step.step_partitioned(arguments, states // 3, 2, arrays=arrays, high=states)
    assert bits and all(before == after for before, after in bits), "a table was regrown"
    for name, tables in zip(names, held, strict=True):
        assert np.may_share_memory(arrays.empty(name, 1), tables)
    assert _entries(low[0], low[1]) == _entries(made[0], made[1]) and low[2:] == made[2:]


@pytest.mark.parametrize(("rows", "cols", "closed"), [(5, 5, False), (4, 8, False), (5, 6, True), (6, 5, False)])
def test_the_engine_counts_the_same_with_either_table(monkeypatch, rows, cols, closed):
    plan = cell_order.schedule(rows, cols)
    monkeypatch.setattr(hash_step, "PARALLEL_STATES", 0)
    found = {}
    for table in TABLES:
        count, work = run_loop.count_hamiltonian(plan, closed, policy=StepPolicy(table=table))
        found[table] = (count, work.held, work.emitted, work.dead)
    assert found["partitioned"] == found["hash"] == found["auto"]


def test_partitioned_carries_are_caught():
    plan = cell_order.schedule(3, 4)
    arguments = step_arguments(
        plan,
        0,
        np.zeros(2, dtype=np.uint64),
        np.array([[1 << 63, 0], [1 << 63, 0]], dtype=np.uint64),
        False,
        None,
        degree_relaxation.start_bits(2),
        degree_relaxation.live_patterns(plan, False)[0],
    )
    made = partitioned_step.step_partitioned(arguments, 1, 1)
    assert made[1].tolist() == [[0, 1]] and made[-1] == 0
    top = (1 << 64) - 1
    # two copies of the empty state whose counts add up to exactly 2^128
    wide = (np.zeros(2, dtype=np.uint64), np.array([[top, top >> 1], [1, 1 << 63]], dtype=np.uint64))
    assert partitioned_step.step_partitioned(arguments.with_table(*wide), 1, 1)[-1] == 1


@settings(deadline=None)  # the first example compiles partition_of: a second on a loaded machine
@given(st.integers(0, 2**64 - 1), st.integers(1, partitioned_step.MAX_PARTS))
def test_every_hash_has_a_partition(mixed, parts):
    assert 0 <= partition_kernels.partition_of(np.uint64(mixed), parts) < parts


@given(st.integers(1, 10**10), st.integers(2, 17))
def test_partitions_are_sized_to_the_cache(expected, entry):
    parts = partitioned_step.partition_count(expected, entry)
    assert 1 <= parts <= partitioned_step.MAX_PARTS
    if parts < partitioned_step.MAX_PARTS:
        # each partition's share of the states, at a load of about 1/2
        assert 2 * 8 * entry * expected / parts <= memory_model.PARTITION_TABLE_BYTES


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rows", "cols", "closed", "published"),
    [
        (6, 6, False, 6_637_920),  # A165134(6), directed open tours
        (6, 6, True, 2 * 9_862 * 36),  # A001230: 9,862 undirected closed tours
        (5, 9, False, 2 * 264_895_640),  # A083386
        (5, 10, True, 2 * 13_311_268 * 50),  # A383661
        (4, 24, False, 2 * 12_270_473_056_485_396),  # A079137
        # the hash step's count (docs/counting-dp.md), past 2^64: two limbs
        (3, 40, False, 177_462_256_507_412_885_856),
    ],
)
def test_partitioned_totals_equal_the_published(monkeypatch, rows, cols, closed, published):
    from knight.counting import driver
    from knight.counting.dp import engine

    monkeypatch.setattr(hash_step, "PARALLEL_STATES", 1_000)
    job = driver.prepare(rows, cols, None, closed, method="dp", total=True)
    assert engine.total(job, policy=StepPolicy(table="partitioned")).tours == published


@pytest.mark.parametrize(("rows", "cols", "seed"), [(5, 5, 10), (4, 6, 24)])
def test_the_byte_path_matches_the_hash_step(rows, cols, seed):
    """Squares in a shuffled order (the seed's: a frontier of 17 old slots
    on one step or two, past the word path's 16): the emit kernel decodes a
    byte-path state's slots at its turn, apart from the codes it reads
    ahead. Tables equal the hash step's, chunk after chunk of a state or
    two."""
    order = list(np.random.default_rng(seed).permutation(rows * cols))
    byte_steps = 0

    def check(arguments, made):
        nonlocal byte_steps
        old_size, kept_slots, leaving_slots = arguments.step_fields()[:3]
        byte_steps += not word_layout(old_size, kept_slots, leaving_slots)[0]
        split = partitioned_step.step_partitioned(arguments, 1, 2, parts=3, region=MOST_OPTIONS)
        assert _entries(split[0], split[1]) == _entries(made[0], made[1])
        assert split[2:] == made[2:]

    _step_by_step(rows, cols, False, None, check, order)
    assert byte_steps > 0
