"""The arrays a run's partitioned steps hold from step to step
(knight.counting.dp.steps.step_arrays): views that never overlap another
name's, a step's table never written in the slot its input lies in, the
room counted, pages given back; and the counts of runs that hold them equal
those of runs that do not."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knight.counting.dp.model.cell_order import schedule
from knight.counting.dp.planning.policy import StepPolicy
from knight.counting.dp.runs import run_loop
from knight.counting.dp.steps import partitioned_step
from knight.counting.dp.steps.step_arrays import StepArrays

_NAMES = ("slot-a", "slot-b", "tables-0", "tables-1")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(_NAMES), st.integers(0, 1 << 18)), max_size=12),
    st.sampled_from([1.5, 2.5, 10.0]),
    st.one_of(st.none(), st.integers(1, 1 << 21)),
)
def test_an_array_is_made_with_headroom_but_never_past_the_bound(requests, headroom, most_bytes):
    """Every array made holds its ask, with headroom, but takes no more
    than ``most_bytes`` of address space unless the ask does (a mapping
    past the machine's memory is refused, touched or not)."""
    arrays = StepArrays(headroom=headroom, most_bytes=most_bytes)
    for name, words in requests:
        before = arrays._held.get(name)
        arrays.empty(name, words)
        made = arrays._held[name].shape[0]
        assert words <= made
        if arrays._held[name] is before:
            continue  # the one held, large enough
        assert made <= max(int(words * headroom), 1)
        if most_bytes is not None:
            assert 8 * made <= max(most_bytes, 8 * words, 8)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_NAMES), st.integers(0, 1 << 16), st.sampled_from([None, 2])), max_size=30))
def test_each_name_s_view_keeps_its_contents_until_its_next_request(requests):
    arrays = StepArrays()
    latest = {}
    for mark, (name, words, most) in enumerate(requests):
        view = arrays.empty(name, words, most=most)
        assert view.shape == (words,) and view.dtype == np.uint64
        view[:] = mark
        latest[name] = (view, mark)
        for other, (held, value) in latest.items():
            assert (held == value).all(), f"{other}'s view was written over by {name}'s"


def test_a_step_writes_in_the_slot_its_input_does_not_lie_in():
    arrays = StepArrays()
    assert arrays.free_slot(np.zeros(4, dtype=np.uint64)) == "slot-a"
    table = arrays.empty("slot-a", 100)
    assert arrays.free_slot(table[10:20]) == "slot-b"
    other = arrays.empty("slot-b", 100)
    assert arrays.free_slot(other[:5]) == "slot-a"


def test_room_is_the_touched_bytes_of_the_arrays_the_input_is_not_in():
    arrays = StepArrays()
    table = arrays.empty("slot-a", 1000)
    arrays.empty("slot-b", 300)
    arrays.empty("tables-0", 200)
    assert arrays.room(table[:10]) == 8 * (300 + 200)
    assert arrays.room(np.zeros(3, dtype=np.uint64)) == 8 * (1000 + 300 + 200)
    arrays.empty("slot-b", 100)  # a smaller request touches no fewer
    assert arrays.room(table) == 8 * (300 + 200)
    arrays.release()
    assert arrays.room(table) == 0
    assert (table == table).all()  # a view handed out outlives the release


def test_trim_gives_back_the_pages_past_a_table_and_keeps_the_table():
    arrays = StepArrays()
    words = 3 << 20  # 24 MiB: pages past the first 2 MiB boundary after 8 MiB
    view = arrays.empty("slot-a", words)
    view[:] = 7
    arrays.trim("slot-a", 1 << 20)
    assert (view[: 1 << 20] == 7).all()
    # given back: read again as the kernel's zero pages
    assert (view[2 << 20 :] == 0).all()
    assert arrays.room(np.zeros(1, dtype=np.uint64)) == 8 << 20


def test_spare_arrays_are_those_the_table_is_not_in_cut_to_their_touched_bytes():
    arrays = StepArrays()
    table = arrays.empty("slot-a", 1000)
    arrays.empty("tables-0", 300)
    arrays.empty("tables-1", 200)
    arrays.empty("tables-1", 50)  # a smaller request touches no fewer
    spare = arrays.spare(table[:10])
    assert sorted(array.shape[0] for array in spare) == [200, 300]
    assert not any(np.may_share_memory(array, table) for array in spare)
    assert len(arrays.spare(np.zeros(3, dtype=np.uint64))) == 3


def test_a_regrown_table_is_held_only_when_larger():
    arrays = StepArrays()
    arrays.empty("tables-0", 100)
    larger = np.ones(1000, dtype=np.uint64)
    arrays.hold("tables-0", larger)
    assert arrays.empty("tables-0", 1000).base is larger
    arrays.hold("tables-0", np.ones(10, dtype=np.uint64))
    assert np.may_share_memory(arrays.empty("tables-0", 1000), larger)


def test_touched_is_the_most_bytes_asked_of_a_name():
    arrays = StepArrays()
    assert arrays.touched("tables-0") == 0
    arrays.empty("tables-0", 300)
    arrays.empty("tables-0", 100)
    assert arrays.touched("tables-0") == 8 * 300


def test_a_table_held_far_past_the_request_is_let_go():
    arrays = StepArrays()
    big = arrays.empty("tables-0", 1000)
    assert np.may_share_memory(arrays.empty("tables-0", 400, most=3), big)
    assert not np.may_share_memory(arrays.empty("tables-0", 400, most=2), big)


class _Dense:
    """A step's reduced tables already copied densely: ``dense()`` gives the copy."""

    def __init__(self, made):
        self.made = made

    def dense(self):
        return self.made


@pytest.mark.parametrize(("rows", "cols", "closed"), [(5, 6, False), (6, 6, True), (4, 9, False)])
def test_runs_holding_their_arrays_count_as_runs_that_do_not(monkeypatch, rows, cols, closed):
    """Every step partitioned, each reading the table the last wrote in a
    held slot: the same tables' sizes and tours as the hash step's, and no
    step's table written where its input lies."""
    plan = schedule(rows, cols)
    hashed_tours, hashed = run_loop.count_hamiltonian(plan, closed, policy=StepPolicy(table="hash"))
    step = partitioned_step.partition_tables
    slots_used = set()

    def checked(arguments, expected, threads, parts=None, region=None, arrays=None, high=None, room=None):
        made = step(arguments, expected, threads, parts, region, arrays, high, room).dense()
        assert not np.may_share_memory(made.keys, arguments.keys)
        assert not np.may_share_memory(made.counts, arguments.counts)
        slots_used.add(arrays.free_slot(made.keys))  # the slot the next step takes
        return _Dense(made)

    monkeypatch.setattr(partitioned_step, "partition_tables", checked)
    tours, work = run_loop.count_hamiltonian(plan, closed, policy=StepPolicy(partitioned_states=0))
    assert (tours, work.held) == (hashed_tours, hashed.held)
    assert slots_used == {"slot-a", "slot-b"}


def test_small_arrays_are_numpy_s_and_trim_leaves_them():
    arrays = StepArrays()
    view = arrays.empty("slot-a", 100)
    view[:] = 3
    arrays.trim("slot-a", 0)
    assert (view == 3).all()
    assert arrays.room(np.zeros(1, dtype=np.uint64)) == 800
