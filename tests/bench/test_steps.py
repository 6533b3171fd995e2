"""Step detection on synthetic series: planted steps are found where they
were planted, noise alone gives none."""

import numpy as np
import pytest

from bench.commits import steps

SIGMA = 0.02  # 2% noise, about what a 5-round history point shows on 2 busy cores
KNOWN = [SIGMA] * 20  # the repeat noise, as bench.commits.history passes it


def noisy(levels, seed):
    """Log-normal noise of SIGMA around the given levels."""
    rng = np.random.default_rng(seed)
    return np.asarray(levels) * np.exp(rng.normal(0, SIGMA, len(levels)))


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("at", [3, 10, 17])
def test_a_planted_step_is_found_at_its_index(at, seed):
    series = noisy([1.0] * at + [1.5] * (20 - at), seed)
    largest = max(steps.detect(series, KNOWN), key=lambda step: abs(step.size))
    assert largest.index == at
    assert largest.size == pytest.approx(0.5, abs=0.05)


@pytest.mark.parametrize("seed", range(20))
def test_flat_noise_gives_no_step(seed):
    assert steps.detect(noisy([0.8] * 20, seed), KNOWN) == []


def test_without_repeat_noise_the_series_scatter_sets_the_penalty():
    assert steps.detect(noisy([0.8] * 20, seed=0)) == []
    assert [step.index for step in steps.detect(noisy([0.8] * 10 + [1.0] * 10, seed=0))] == [10]


def test_two_steps_a_speed_up_and_a_slowdown():
    series = noisy([1.0] * 6 + [2.0] * 8 + [1.4] * 6, seed=3)
    found = steps.detect(series, KNOWN)
    assert [step.index for step in found] == [6, 14]
    assert [round(step.size, 1) for step in found] == [1.0, -0.3]


def test_one_wild_point_is_not_a_step():
    series = noisy([1.0] * 20, seed=4)
    series[9] *= 1.3  # one point preempted by a noisy neighbour
    assert steps.detect(series, KNOWN) == []


def test_the_penalty_follows_the_measured_noise():
    # a 5% step is clear against 0.5% repeat noise and lost in 10%
    series = [1.0] * 10 + [1.05] * 10
    assert [step.index for step in steps.detect(series, point_noises=[0.005] * 20)] == [10]
    assert steps.detect(series, point_noises=[0.1] * 20) == []


def test_point_noise_from_the_middle_half_of_the_rounds():
    assert steps.point_noise(1.0, 1.0, 5) == 0
    wide, narrow = steps.point_noise(0.9, 1.1, 5), steps.point_noise(0.99, 1.01, 5)
    assert wide == pytest.approx(10 * narrow, rel=0.01)
    assert steps.point_noise(0.9, 1.1, 20) == pytest.approx(wide / 2)


def test_short_series():
    assert steps.detect([]) == [] and steps.detect([1.0]) == []
    assert [step.index for step in steps.detect([1.0, 3.0], point_noises=[0.01, 0.01])] == [1]


def test_the_margin_of_a_step_shrinks_with_the_points_behind_its_levels():
    short, long_ = steps.Step(1, 1.0, 1.2, 1, 1), steps.Step(10, 1.0, 1.2, 10, 10)
    assert steps.margin(long_, 0.02) == pytest.approx(steps.margin(short, 0.02) / 10**0.5)
    assert steps.margin(long_, 0.02) < 0.2 < steps.margin(short, 0.2)


def test_steps_know_the_lengths_of_the_levels_they_join():
    series = noisy([1.0] * 6 + [2.0] * 8 + [1.4] * 6, seed=3)
    assert [(s.points_before, s.points_after) for s in steps.detect(series, KNOWN)] == [(6, 8), (8, 6)]
