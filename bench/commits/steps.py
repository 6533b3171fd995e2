"""This module finds where a series of speed ratios along commits changed level.

The model, as in asv's step_detect.py: a series is piecewise constant plus
noise, and a step is where the constant changes. Unlike asv (an approximate
Potts solver over an information criterion that picks the penalty), the
series here are short (tens of commits), so the fit is exact: dynamic
programming over every segmentation, minimising

    sum over segments of  sum |y_i - median of the segment| / sigma
    + penalty(n) * (number of steps)

on log ratios, so that a step's size is relative (+30% reads the same on a
ratio of 0.5 as on 2). The L1 cost (medians, absolute deviations) keeps one
wild point, a round preempted by a neighbour, from becoming two steps.
``sigma`` is the series' noise: the larger of what the repeat spread of each
point says and what the scatter between neighbouring points says, so the
penalty grows with the measured noise.
"""

import math
import statistics
from dataclasses import dataclass

import numpy as np


def penalty(n):
    """In units of sigma, how much a step must lower the fit's absolute
    deviations. It grows with the length, as information criteria do: a
    longer series offers more places for noise to look like a step.
    Calibrated on synthetic Gaussian series, 1000 seeds each (percentages
    for 10 / 20 / 40 points): flat ones gave a step in 2.7 / 1.8 / 0.6% of
    seeds with sigma estimated from the series alone, 0 / 0.1 / 0.4% with
    the repeat noise given; a step of 6 sigma, three or more points from
    either end, was missed (not found within one point) in 0.5-1 / 0.1 / 0.1%,
    a step of 4 sigma in 13-15 / 4 / 2-3%."""
    return 2 + 1.5 * math.log(max(n, 2))


# noise below 0.2% is below what one run can resolve (timer, frequency steps)
NOISE_FLOOR = 0.002
# a median of k rounds scatters 1.25/sqrt(k) times as much as one round;
# a normal distribution's middle half is 1.349 sigma wide
_MEDIAN_EFFICIENCY = 1.2533
_IQR_PER_SIGMA = 1.349


@dataclass(frozen=True)
class Step:
    """A change of level at ``index`` (the first point of the new level),
    between segments of ``points_before`` and ``points_after`` points."""

    index: int
    before: float
    after: float
    points_before: int = 1
    points_after: int = 1

    @property
    def size(self):
        """Relative change: -0.3 is 30% lower after the step."""
        return self.after / self.before - 1


def point_noise(low, high, rounds):
    """Standard error, in log units, of a median of ``rounds`` rounds whose
    middle half ran from ``low`` to ``high``."""
    if rounds < 2 or low <= 0 or high <= 0:
        return 0.0
    return (math.log(high) - math.log(low)) / _IQR_PER_SIGMA * _MEDIAN_EFFICIENCY / math.sqrt(rounds)


def series_noise(logs):
    """Noise of a series from its successive differences (median absolute
    difference, scaled to a normal sigma): steps are few, so most differences
    are noise alone."""
    if len(logs) < 3:
        return 0.0
    differences = np.abs(np.diff(logs))
    return 1.4826 * float(np.median(differences)) / math.sqrt(2)


def noise(values, point_noises=()):
    """The sigma the penalty is measured in, in log units."""
    logs = np.log(np.asarray(values, dtype=float))
    repeat = statistics.median(point_noises) if len(point_noises) else 0.0
    return max(repeat, series_noise(logs), NOISE_FLOOR)


def segment_costs(logs):
    """``cost[i][j]``: sum of absolute deviations of ``logs[i:j + 1]`` from their median."""
    n = len(logs)
    cost = np.zeros((n, n))
    for i in range(n):
        for j in range(i, n):
            piece = logs[i : j + 1]
            cost[i, j] = np.abs(piece - np.median(piece)).sum()
    return cost


def segment(logs, sigma, cost_of_step=None):
    """Start indices of the segments of the best penalised fit (first is 0)."""
    n = len(logs)
    if n == 0:
        return []
    cost_of_step = penalty(n) if cost_of_step is None else cost_of_step
    cost = segment_costs(np.asarray(logs, dtype=float)) / sigma
    best = np.full(n + 1, np.inf)  # best[j]: the best fit of logs[:j]
    best[0] = -cost_of_step  # the first segment is not a step
    last_start = np.zeros(n + 1, dtype=int)
    for j in range(1, n + 1):
        for i in range(j):
            total = best[i] + cost_of_step + cost[i, j - 1]
            if total < best[j]:
                best[j], last_start[j] = total, i
    starts, j = [], n
    while j > 0:
        starts.append(int(last_start[j]))
        j = last_start[j]
    return starts[::-1]


def detect(values, point_noises=(), cost_of_step=None):
    """The steps of a series of positive values (ratios), oldest first."""
    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return []
    logs = np.log(values)
    starts = segment(logs, noise(values, point_noises), cost_of_step)
    ends = [*starts[1:], len(values)]
    levels = [float(np.exp(np.median(logs[a:b]))) for a, b in zip(starts, ends, strict=True)]
    lengths = [b - a for a, b in zip(starts, ends, strict=True)]
    return [Step(start, levels[k], levels[k + 1], lengths[k], lengths[k + 1]) for k, start in enumerate(starts[1:])]


def margin(step, sigma, confidence=3.0):
    """How large, in log units, a step must be to lie outside the noise: the
    standard error of the difference of its two levels, each a median of
    points of noise ``sigma``, times ``confidence``."""
    error = sigma * _MEDIAN_EFFICIENCY * math.sqrt(1 / step.points_before + 1 / step.points_after)
    return confidence * error
