"""The step kernel's state packing (knight/counting/dp/dp_kernels.py) against a
plain-Python packer: the kernel renumbers labels with word-wide bit
tricks, 16 slots to a word and a 17th apart, and the counts tests cannot
reach 17 slots (only 8 x 8 and larger boards have them)."""

import random

import numpy as np
import pytest

from knight.counting.dp import dp_kernels as fk


def _packed_by_hand(work, kept_slots, inserted, inserted_stays):
    """Base-11 key of the kept slots' values (then the inserted square's),
    labels renumbered 3, 4, ... in order of first appearance."""
    slots = list(kept_slots) + ([inserted] if inserted_stays else [])
    renumbered = {}
    key = 0
    for position, slot in enumerate(slots):
        value = int(work[slot])
        if value >= fk.FIRST_LABEL:
            value = renumbered.setdefault(value, fk.FIRST_LABEL + len(renumbered))
        key += value * fk.RADIX**position
    return key


def _random_frontier(chooser, size):
    """Slot values a step can leave before packing: bare, interior,
    terminal ends, and the two ends of each of a few paths under labels in
    any order (the fresh label among them)."""
    values = [chooser.choice((fk.BARE, fk.INTERIOR, fk.TERMINAL_END)) for _ in range(size)]
    free = list(range(size))
    chooser.shuffle(free)
    labels = chooser.sample([*range(fk.FIRST_LABEL, fk.RADIX), 15], k=min(8, size // 2))
    for label in labels[: chooser.randint(0, len(labels))]:
        # a path may have one end leaving (not kept) while the other stays
        for slot in (free.pop(), free.pop()):
            values[slot] = label
    return np.array(values + [0] * (fk.MAX_SLOTS + 1 - size), dtype=np.uint8)


@pytest.mark.parametrize("size", [1, 5, 13, 16, 17, 18])
def test_packing_equals_a_plain_packer(size):
    chooser = random.Random(size)
    for _ in range(2000):
        work = _random_frontier(chooser, size)
        inserted = size - 1
        inserted_stays = chooser.random() < 0.5
        room = fk.MAX_SLOTS - (1 if inserted_stays else 0)
        kept = sorted(chooser.sample(range(inserted), k=min(inserted, chooser.randint(0, room))))
        kept_slots = np.array(kept, dtype=np.intp)
        assert fk._pack(work, kept_slots, inserted, inserted_stays) == _packed_by_hand(
            work, kept_slots, inserted, inserted_stays
        )


def _random_state(chooser, old_size):
    """Old slot values as a step finds them (bare, interior, terminal ends,
    pairs of path ends under labels 3..10), the inserted square's bare."""
    values = [chooser.choice((fk.BARE, fk.INTERIOR, fk.TERMINAL_END)) for _ in range(old_size)]
    free = list(range(old_size))
    chooser.shuffle(free)
    for label in range(fk.FIRST_LABEL, fk.FIRST_LABEL + chooser.randint(0, min(8, old_size // 2))):
        for slot in (free.pop(), free.pop()):
            values[slot] = label
    return [*values, fk.BARE]


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
        narrow, cut = fk.word_layout(old_size, kept)
        assert narrow and list(cut) == sorted(leaving, reverse=True)
        slots = np.array(values + [0] * (fk.MAX_SLOTS + 1 - len(values)), dtype=np.uint8)
        word = np.uint64(sum(value << (4 * slot) for slot, value in enumerate(values)))
        shape = (old_size, first, second, stays, leaving, forced, inserted_forced, final, closed)
        by_bytes = fk.successor(slots, np.zeros_like(slots), old_size, first, second, kept, *shape[3:])
        by_word = fk.word_successor(word, old_size, first, second, cut, *shape[3:])
        assert by_word[0] == by_bytes[0]
        if by_bytes[0] == fk._ALIVE:
            assert by_word[1] == by_bytes[1]


def test_wide_or_unordered_steps_take_the_byte_path():
    assert fk.word_layout(16, np.arange(16, dtype=np.intp))[0]
    assert not fk.word_layout(17, np.arange(16, dtype=np.intp))[0]
    assert not fk.word_layout(5, np.array([0, 2, 1], dtype=np.intp))[0]
    narrow, cut = fk.word_layout(15, np.array([1, 2, 4], dtype=np.intp))
    assert narrow and list(cut) == [14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 3, 0]


@pytest.mark.parametrize("old_size", [1, 7, 15])
def test_state_word_decodes_as_state_pattern(old_size):
    chooser = random.Random(old_size)
    for _ in range(500):
        values = _random_state(chooser, old_size)[:old_size]
        key = np.uint64(sum(value * fk.RADIX**slot for slot, value in enumerate(values)))
        forced = chooser.choice([-1, *range(old_size)])
        slots = np.zeros(fk.MAX_SLOTS + 1, dtype=np.uint8)
        code = fk.pattern_code(key, slots, old_size, forced)
        before = np.zeros(code // 64 + 2, dtype=np.uint64)
        before[code // 64] = np.uint64(chooser.getrandbits(64) | (1 << (code % 64) if chooser.random() < 0.8 else 0))
        rank = np.zeros(before.shape[0] + 1, dtype=np.int64)
        rank[code // 64] = chooser.randint(0, 1000)  # the patterns in the words before
        pattern, word = fk.state_word(key, old_size, forced, rank, before)
        assert pattern == fk.state_pattern(key, slots, old_size, forced, rank, before)
        assert word == sum(value << (4 * slot) for slot, value in enumerate(values))
