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
