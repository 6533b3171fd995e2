"""The step kernel's state packing (knight/counting/dp/states.py) against a
plain-Python packer: the kernel renumbers labels with word-wide bit
tricks, 16 slots to a word and a 17th apart, and the counts tests cannot
reach 17 slots (only 8 x 8 and larger boards have them)."""

import random

import numpy as np
import pytest

from knight.counting.dp.model import cell_order, states
from knight.counting.dp.model.cell_order import WITHIN_COLUMN
from knight.counting.dp.runs import run_loop
from knight.counting.dp.steps.step_arguments import NO_MIRROR
from tests.conftest import dp_steps


def _packed_by_hand(work, kept_slots, inserted, inserted_stays):
    """Base-11 key of the kept slots' values (then the inserted square's),
    labels renumbered 3, 4, ... in order of first appearance."""
    slots = list(kept_slots) + ([inserted] if inserted_stays else [])
    renumbered = {}
    key = 0
    for position, slot in enumerate(slots):
        value = int(work[slot])
        if value >= states.FIRST_LABEL:
            value = renumbered.setdefault(value, states.FIRST_LABEL + len(renumbered))
        key += value * states.RADIX**position
    return key


def _random_frontier(chooser, size):
    """Slot values a step can leave before packing: bare, interior,
    terminal ends, and the two ends of each of a few paths under labels in
    any order (the fresh label among them)."""
    values = [chooser.choice((states.BARE, states.INTERIOR, states.TERMINAL_END)) for _ in range(size)]
    free = list(range(size))
    chooser.shuffle(free)
    labels = chooser.sample([*range(states.FIRST_LABEL, states.RADIX), 15], k=min(8, size // 2))
    for label in labels[: chooser.randint(0, len(labels))]:
        # a path may have one end leaving (not kept) while the other stays
        for slot in (free.pop(), free.pop()):
            values[slot] = label
    return np.array(values + [0] * (states.MAX_SLOTS + 1 - size), dtype=np.uint8)


@pytest.mark.parametrize("size", [1, 5, 13, 16, 17, 18])
def test_packing_equals_a_plain_packer(size):
    chooser = random.Random(size)
    for _ in range(2000):
        work = _random_frontier(chooser, size)
        inserted = size - 1
        inserted_stays = chooser.random() < 0.5
        room = states.MAX_SLOTS - (1 if inserted_stays else 0)
        kept = sorted(chooser.sample(range(inserted), k=min(inserted, chooser.randint(0, room))))
        kept_slots = np.array(kept, dtype=np.intp)
        assert states._pack(work, kept_slots, inserted, inserted_stays) == _packed_by_hand(
            work, kept_slots, inserted, inserted_stays
        )


def _random_state(chooser, old_size):
    """Old slot values as a step finds them (bare, interior, terminal ends,
    pairs of path ends under labels 3..10), the inserted square's bare."""
    values = [chooser.choice((states.BARE, states.INTERIOR, states.TERMINAL_END)) for _ in range(old_size)]
    free = list(range(old_size))
    chooser.shuffle(free)
    for label in range(states.FIRST_LABEL, states.FIRST_LABEL + chooser.randint(0, min(8, old_size // 2))):
        for slot in (free.pop(), free.pop()):
            values[slot] = label
    return [*values, states.BARE]


def _random_option(chooser, old_size):
    """One step's shape and one option of it: edges to up to two old slots,
    some old slots leaving (the rest kept, in order), the flags."""
    first, second = sorted(chooser.sample(range(old_size), k=2)) if old_size >= 2 else (0, 0)
    edges = chooser.choice([(-1, -1), (first, -1), (second, -1), (first, second)] if old_size >= 2 else [(-1, -1)])
    leaving = sorted(chooser.sample(range(old_size), k=chooser.randint(0, min(3, old_size))))
    kept = [slot for slot in range(old_size) if slot not in leaving]
    forced = chooser.choice([-1, -1, *range(old_size)]) if old_size else -1
    return (
        *edges,
        np.array(kept, dtype=np.intp),
        chooser.random() < 0.7,
        np.array(leaving, dtype=np.intp),
        forced,
        chooser.random() < 0.1,
        chooser.random() < 0.2,
        chooser.random() < 0.5,
    )


@pytest.mark.parametrize("old_size", [0, 1, 2, 5, 9, 13, 15, 16])
def test_the_word_path_makes_the_byte_paths_successors(old_size):
    """``word_successor`` on a word against ``successor`` on bytes: the
    same outcome and, when alive, the same key, on every kind of option;
    16 old slots are 17 with the inserted square, the widest the word path
    takes (short side 8's), and get more draws."""
    chooser = random.Random(old_size)
    for _ in range(20000 if old_size == 16 else 3000):
        values = _random_state(chooser, old_size)
        first, second, kept, stays, leaving, forced, inserted_forced, final, closed = _random_option(chooser, old_size)
        narrow, layout = states.word_layout(old_size, kept, leaving)
        assert narrow and _nibbles(*layout[:2]) == sorted(leaving, reverse=True)
        assert _nibbles(*layout[2:]) == list(leaving)
        slots = np.array(values + [0] * (states.MAX_SLOTS + 1 - len(values)), dtype=np.uint8)
        word = np.uint64(sum(value << (4 * slot) for slot, value in enumerate(values)))
        shape = (old_size, first, second, stays, leaving, forced, inserted_forced, final, closed)
        by_bytes = states.successor(slots, np.zeros_like(slots), old_size, first, second, kept, *shape[3:])
        by_word = states.word_successor(word, old_size, first, second, layout, stays, *shape[5:], NO_MIRROR)
        assert by_word[0] == by_bytes[0]
        if by_bytes[0] == states._ALIVE:
            assert by_word[1] == by_bytes[1]


def _nibbles(packed, count):
    """The ``count`` numbers held in the nibbles of ``packed``, lowest first."""
    return [int(packed) >> (4 * index) & 15 for index in range(count)]


def test_wide_or_unordered_steps_take_the_byte_path():
    none = np.zeros(0, dtype=np.intp)
    assert states.word_layout(16, np.arange(16, dtype=np.intp), none)[0]
    assert not states.word_layout(17, np.arange(16, dtype=np.intp), none)[0]
    assert not states.word_layout(5, np.array([0, 2, 1], dtype=np.intp), none)[0]
    narrow, layout = states.word_layout(15, np.array([1, 2, 4], dtype=np.intp), np.array([0, 3], dtype=np.intp))
    assert narrow and _nibbles(*layout[:2]) == [14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 3, 0]
    assert _nibbles(*layout[2:]) == [0, 3]


@pytest.mark.parametrize("old_size", [1, 7, 15])
def test_state_word_decodes_as_state_pattern(old_size):
    chooser = random.Random(old_size)
    for _ in range(500):
        values = _random_state(chooser, old_size)[:old_size]
        key = np.uint64(sum(value * states.RADIX**slot for slot, value in enumerate(values)))
        forced = chooser.choice([-1, *range(old_size)])
        slots = np.zeros(states.MAX_SLOTS + 1, dtype=np.uint8)
        code = states.pattern_code(key, slots, old_size, forced)
        before = np.zeros(code // 64 + 2, dtype=np.uint64)
        before[code // 64] = np.uint64(chooser.getrandbits(64) | (1 << (code % 64) if chooser.random() < 0.8 else 0))
        rank = np.zeros(before.shape[0] + 1, dtype=np.int64)
        rank[code // 64] = chooser.randint(0, 1000)  # the patterns in the words before
        pattern, word = states.state_word(key, old_size, forced, rank, before)
        assert pattern == states.state_pattern(key, slots, old_size, forced, rank, before)
        assert word == sum(value << (4 * slot) for slot, value in enumerate(values))


def _across_eight(rows, within):
    """The squares of ``rows`` x 8 swept row by row, across its long side,
    in the order ``within`` inside a row: a small board whose frontier
    reaches short side 8's (16 old slots in ``cell_order``'s order for 8,
    17 in top to bottom), so that its steps are 8 x 8's in width."""
    return [row * 8 + col for row in range(rows) for col in within]


@pytest.mark.parametrize(
    ("rows", "closed", "forced"),
    [
        # closed 17-slot steps are counted whole to OEIS's figure below
        # (test_whole_counts_with_17_slot_steps); this one case is a minute
        pytest.param(5, True, None, marks=pytest.mark.slow),
        # the same steps as the forced case below, with more states a step
        pytest.param(4, False, None, marks=pytest.mark.slow),
        (4, False, 9),
        (3, False, None),
    ],
)
def test_17_slot_steps_of_real_tables_take_the_word_path_to_the_byte_paths_successors(rows, closed, forced):
    """States a run holds before a step of 16 old slots (17 with the
    inserted square: 8 x 8's large steps), each option their pattern lists:
    the word path's outcome and key are the byte path's."""
    order = _across_eight(rows, WITHIN_COLUMN[8])
    steps_seen = 0
    for arguments, _ in dp_steps(rows, 8, closed, forced, order):
        keys, _, old_size, kept, leaving, stays, forced_slot, inserted_forced, final, closed_, options = arguments[:11]
        if old_size != states._WORD_NIBBLES:
            continue
        rank, before, _patterns, starts, firsts, seconds, _codes, _dropped = options
        narrow, layout = states.word_layout(old_size, kept, leaving)
        assert narrow
        steps_seen += 1
        slots = np.zeros(states.MAX_SLOTS + 1, dtype=np.uint8)
        work = np.zeros_like(slots)
        # about 1,000 states a step, spread over the table: each is a few
        # kernel calls from Python (the random draws above cover the rest);
        # the two paths' own entry points, the ones the tests above call, so
        # that no other signature is compiled for this test alone
        for state in range(0, keys.shape[0], max(1, keys.shape[0] // 1000)):
            pattern, word = states.state_word(keys[state], old_size, forced_slot, rank, before)
            word = np.uint64(word)  # a kernel's uint64 comes back to Python as an int
            assert pattern == states.state_pattern(keys[state], slots, old_size, forced_slot, rank, before)
            for option in range(starts[pattern], starts[pattern + 1]):
                first, second = np.intp(firsts[option]), np.intp(seconds[option])
                flags = (forced_slot, inserted_forced, final, closed_)
                by_word = states.word_successor(word, old_size, first, second, layout, stays, *flags, NO_MIRROR)
                by_bytes = states.successor(slots, work, old_size, first, second, kept, stays, leaving, *flags)
                assert by_word[0] == by_bytes[0]
                if by_bytes[0] == states._ALIVE:
                    assert by_word[1] == by_bytes[1]
    assert steps_seen >= 1


@pytest.mark.parametrize("within", ["tuned", "top to bottom"])
def test_whole_counts_with_17_slot_steps(within):
    """5 x 8 closed swept across its long side: with steps of 17 slots on
    the word path (and of 18 on the byte path, top to bottom) it counts
    what the default order counts, 44,202 closed tours (OEIS A175855)."""
    cells = WITHIN_COLUMN[8] if within == "tuned" else range(8)
    plan = cell_order.schedule(5, 8, _across_eight(5, cells))
    assert states._WORD_NIBBLES in plan.old_sizes
    assert (states._WORD_NIBBLES + 1 in plan.old_sizes) == (within != "tuned")
    assert run_loop.count_hamiltonian(plan, True)[0] == 44_202
    assert run_loop.count_hamiltonian(cell_order.schedule(5, 8), True)[0] == 44_202


@pytest.mark.slow
@pytest.mark.parametrize("within", ["tuned", "top to bottom"])
def test_open_counts_with_17_slot_steps(within):
    """4 x 8 open swept across its side of 8, tour ends and all: 17-slot
    steps on the word path (and 18-slot ones on the byte path, top to
    bottom) count what the default order counts."""
    cells = WITHIN_COLUMN[8] if within == "tuned" else range(8)
    plan = cell_order.schedule(4, 8, _across_eight(4, cells))
    assert states._WORD_NIBBLES in plan.old_sizes
    counted = run_loop.count_hamiltonian(plan, False)[0]
    assert counted == run_loop.count_hamiltonian(cell_order.schedule(4, 8), False)[0]
    assert counted > 0
