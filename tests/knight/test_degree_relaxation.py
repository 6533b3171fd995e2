"""The degree relaxation (knight/counting/dp/degree_relaxation.py): it may only drop
states that lead to no tour, and it should drop most of them."""

import numpy as np
import pytest

from knight.counting.dp.model import degree_relaxation
from knight.counting.dp.model.cell_order import schedule
from knight.counting.dp.runs.run_loop import count_hamiltonian


def _every_pattern(plan, closed, forced=None, threads=1):
    """Bitmaps with every pattern set: the DP without the relaxation."""
    tour_ends = 0 if closed else 2
    steps = len(plan.order)
    sizes = [len(plan.frontiers[step]) if step < steps - 1 else 0 for step in range(steps)]
    return [np.full_like(degree_relaxation.empty_bits(size, tour_ends), np.uint64(2**64 - 1)) for size in sizes]


@pytest.mark.parametrize(
    ("rows", "cols", "closed", "forced"),
    [
        (5, 5, False, None),
        (5, 5, False, 0),
        (5, 5, False, 7),
        (4, 6, True, None),
        (3, 8, False, 1),
        (5, 6, False, None),
    ],
)
def test_dropping_dead_patterns_changes_no_count(monkeypatch, rows, cols, closed, forced):
    plan = schedule(rows, cols)
    pruned, pruned_work = count_hamiltonian(plan, closed, forced)
    monkeypatch.setattr(degree_relaxation, "live_patterns", _every_pattern)
    full, full_work = count_hamiltonian(plan, closed, forced)
    assert pruned == full
    assert all(kept <= held for kept, held in zip(pruned_work.held, full_work.held, strict=True))


def test_most_dead_states_are_dropped(monkeypatch):
    # measured: on 5x6 only 4-5% of the unpruned peak table leads to a tour
    plan = schedule(5, 6)
    _, pruned = count_hamiltonian(plan, False)
    monkeypatch.setattr(degree_relaxation, "live_patterns", _every_pattern)
    _, full = count_hamiltonian(plan, False)
    assert max(pruned.held) * 5 < max(full.held)


def test_a_board_no_degrees_can_fit_has_no_live_pattern():
    # the centre of 3x3 has no neighbour: no square can be given its degree
    live = degree_relaxation.live_patterns(schedule(3, 3), closed=False)
    assert not any(bits.any() for bits in live)
    # on 4x4 the degrees fit (cycles allowed) though no tour exists: the
    # relaxation keeps patterns the exact DP then finds dead
    assert degree_relaxation.live_patterns(schedule(4, 4), closed=False)[0].any()
    assert count_hamiltonian(schedule(4, 4), False)[0] == 0


def test_pattern_codes_fit_their_domain():
    assert degree_relaxation.domain_size(15, 2) == 3**15 * 3
    assert degree_relaxation.empty_bits(15, 2).shape[0] * 64 >= 3**15 * 3


@pytest.mark.parametrize("kept_bytes", [0, 64 << 20])
def test_bitmaps_kept_or_not_give_the_same_bitmaps_and_count(monkeypatch, kept_bytes):
    """A board's bitmaps within ``_KEPT_BYTES`` are kept for its next run
    (a new list each time: the run empties its entries), past it made
    again: the same bitmaps and the same count either way."""
    monkeypatch.setattr(degree_relaxation, "_kept", {})
    monkeypatch.setattr(degree_relaxation, "_KEPT_BYTES", kept_bytes)
    plan = schedule(4, 5)
    made = degree_relaxation._computed(plan, False, None, 1)
    first = degree_relaxation.live_patterns(plan, False)
    assert bool(degree_relaxation._kept) == (kept_bytes > 0)
    assert count_hamiltonian(plan, False)[0] == count_hamiltonian(plan, False)[0] > 0
    again = degree_relaxation.live_patterns(plan, False)
    assert again is not first and all(a is not None for a in again)
    for bits in (first, again):
        assert all(np.array_equal(a, b) for a, b in zip(bits, made, strict=True))
