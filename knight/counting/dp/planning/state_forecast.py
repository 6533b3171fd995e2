"""This module projects the states the frontier DP will hold on a board, step by step.

The projection comes from the measured states of each step of earlier runs
(``step_curves.json``), which were made without the mirror quotient; the
same file holds what the quotient leaves of them (``quotient_shares``).

Why per step: a step multiplies the states held by a ratio that depends on
where its square lies in its column, so the ratios repeat with the column,
and open and closed runs of one board rise and fall at the same steps (8 x 8
open held 44x closed's states at step 24, 29x at step 33). The projection,
by what is known of the board (short side ``s``, long side ``L``):

* its curve measured whole: that curve;
* a measured prefix (a run stopped early): the prefix continued by the
  per-step ratios of the same board's other kind (open for closed, closed
  for open);
* a longer board than any measured of its short side: the longest
  measured one's peak times the growth the fit below gives from its length
  to the board's (none past twice the short side: 5 x 12 open held 8% more
  than 5 x 10);
* a short side past every measured one: a least-squares fit of the log of
  the peak on the short side and the long side (up to twice the short)
  over the measured boards of its kind. The least sure of the four: the
  growth a row brings is uneven (6 x 7 open over 5 x 7: 69x; 7 x 7 over
  6 x 7: 14x), and a fit over fewer boards moves it by a factor of a few.

Each answer says which it is (``Forecast.how``), for the projection line.
"""

import functools
import json
import math
from dataclasses import dataclass
from importlib import resources

import numpy as np


@dataclass(frozen=True)
class Forecast:
    """A board's projected DP run: ``peak``, the most states held after a
    step; ``state_steps``, the states held summed over every step (what the
    steps read, and so their work); ``how``, how it was projected;
    ``measured``, whether the board's whole curve was measured."""

    peak: float
    state_steps: float
    how: str
    measured: bool = False


def forecast(rows, cols, closed=False, curves=None):
    """The ``Forecast`` of one run with no forced end on ``rows`` x
    ``cols``; ``curves``: the measured curves to project from (default
    ``measured_curves()``; a test passes fewer, to hold a board out)."""
    short, long = sorted((rows, cols))
    return _Forecaster(measured_curves() if curves is None else curves).of(short, long, bool(closed))


@functools.cache
def measured_curves():
    """Return the measured per-step states, keyed by ``(short, long, closed)``.

    The data lives in the package file ``step_curves.json``, which says
    where each curve came from.

    Returns
    -------
    dict
        ``(short, long, closed)`` to a tuple of the states held after steps
        1, 2, ...; a tuple shorter than ``short * long`` is a run stopped early.
    """
    text = resources.files(__package__).joinpath("step_curves.json").read_text()
    return {(c["short"], c["long"], c["closed"]): tuple(c["held"]) for c in json.loads(text)["curves"]}


@functools.cache
def quotient_shares():
    """Return what the mirror quotient leaves of a run's states and work, for each short side measured.

    A run with no forced end keeps one state for each mirror pair, and the
    curves of ``step_curves.json`` were measured without that saving.

    Returns
    -------
    dict
        Short side to ``(peak, transitions)``: the peak states and the
        transitions of a run with the quotient, each over the same run's
        without it.

    Examples
    --------
    >>> peak, transitions = quotient_shares()[7]
    >>> 0 < peak < 1 and 0 < transitions < 1
    True
    """
    text = resources.files(__package__).joinpath("step_curves.json").read_text()
    return {share["short"]: (share["peak"], share["transitions"]) for share in json.loads(text)["quotient"]}


MEASURED = "its own measured run"


def _name(short, long, closed):
    return f"{short}x{long} {'closed' if closed else 'open'}"


def _ratios(curve):
    """Each step's states held over the step before's (the first step
    reads the one empty state); 0 once a curve reaches 0."""
    before = (1, *curve[:-1])
    return [after / prior if prior else 0.0 for prior, after in zip(before, curve, strict=True)]


def _continued(prefix, ratios):
    """``prefix`` continued by ``ratios`` from its next step on."""
    curve = list(prefix)
    for ratio in ratios[len(prefix) :]:
        curve.append((curve[-1] if curve else 1) * ratio)
    return curve


class _Forecaster:
    """Projections from one set of curves, each board's made once."""

    def __init__(self, curves):
        self.curves = curves
        self.made = {}
        self.fits = {}

    def of(self, short, long, closed):
        key = (short, long, closed)
        if key not in self.made:
            curve = self.curve(short, long, closed)
            if curve is not None:
                values, how = curve
                self.made[key] = Forecast(max(values), math.fsum(values), how, how == MEASURED)
            else:
                self.made[key] = self.lengthened(short, long, closed) or self.grown(short, long, closed)
        return self.made[key]

    def curve(self, short, long, closed):
        """``(held after each step, how)``: the board's measured curve, or
        its measured prefix continued by the other kind's ratios as far as
        that kind was measured; None where neither is."""
        steps = short * long
        held = self.curves.get((short, long, closed))
        if held is None:
            return None
        if len(held) >= steps:
            return list(held[:steps]), MEASURED
        how = f"its run measured to step {len(held)} of {steps}"
        other = self.curves.get((short, long, not closed), ())
        if len(other) <= len(held):
            return list(held), f"{how} (the steps after not projected)"
        curve = _continued(held, _ratios(other[:steps]))
        reach = "" if len(curve) == steps else f" to step {len(curve)}"
        return curve, f"{how}, continued{reach} by {_name(short, long, not closed)}'s per-step ratios"

    def lengthened(self, short, long, closed):
        """A board longer than any measured of its short side and kind: the
        longest such board's projection times the fit's growth from its
        length to ``long`` (none past twice the short side); None where
        no shorter board of this short side and kind was measured."""
        known = [length for s, length, c in self.curves if s == short and c == closed and length < long]
        if not known:
            return None
        length = max(known)
        base = self.of(short, length, closed)
        fit = self.fitted(closed)
        growth = 1.0 if fit is None else math.exp(_fitted_log(fit, short, long) - _fitted_log(fit, short, length))
        how = f"{_name(short, length, closed)}'s peak times the fit's growth to {long} columns ({growth:.2g}x)"
        return Forecast(base.peak * growth, base.state_steps * growth * long / length, how)

    def grown(self, short, long, closed):
        """A short side past the measured: the peak from ``fitted``, the
        states summed over the steps in the proportion of the largest
        measured board of its kind; a frontier of one or two squares holds
        a few states."""
        if short <= 2:
            return Forecast(4.0, 4.0 * short * long, "a frontier of at most two squares")
        fit = self.fitted(closed)
        if fit is None and closed:
            # a closed run holds fewer states than the open one at every
            # measured step: the open projection bounds it
            bound = self.of(short, long, False)
            return Forecast(bound.peak, bound.state_steps, f"at most the open run's: {bound.how}")
        if fit is None:
            return Forecast(0.0, 0.0, "no measured run to project from")
        _, shape, boards = fit
        peak = math.exp(_fitted_log(fit, short, long))
        kind = "closed" if closed else "open"
        how = f"fitted to the peaks of {boards} measured {kind} boards of short side {FIT_FROM_SHORT} or more"
        return Forecast(peak, peak * short * long * shape, how)

    def fitted(self, closed):
        """The least-squares fit of log(peak) on ``_features`` over the
        measured whole runs of this kind (short side ``FIT_FROM_SHORT`` or
        more, some state held): ``(coefficients, shape, boards)``, shape
        the largest board's states summed over its steps over its peak
        times its squares; None with fewer boards than coefficients."""
        if closed not in self.fits:
            self.fits[closed] = self._fit(closed)
        return self.fits[closed]

    def _fit(self, closed):
        measured = [
            (key, held)
            for key, held in self.curves.items()
            if key[2] == closed and key[0] >= FIT_FROM_SHORT and len(held) >= key[0] * key[1] and max(held)
        ]
        if len(measured) < len(_features(1, 1)):
            return None
        rows = np.array([_features(s, length) for (s, length, _), _ in measured], dtype=float)
        logs = np.log([float(max(held)) for _, held in measured])
        coefficients = np.linalg.lstsq(rows, logs, rcond=None)[0]
        (s, length, _), held = max(measured, key=lambda item: item[0][0] * item[0][1])
        shape = math.fsum(held[: s * length]) / (max(held) * s * length)
        return tuple(float(c) for c in coefficients), shape, len(measured)


# boards of short side 3 hold a few hundred states, shaped by the pruning
# more than by the frontier: the fit starts above them
FIT_FROM_SHORT = 4


def _fitted_log(fit, short, long):
    """log(peak) on ``short`` x ``long`` by ``fit`` (``_Forecaster.fitted``'s)."""
    return math.fsum(c * f for c, f in zip(fit[0], _features(short, long), strict=True))


def _features(short, long):
    """What log(peak) is fitted on: the short side, the long side up to
    twice the short (past it the tables are saturated: 5 x 12 held 8% more
    than 5 x 10, 4 x 12 17% more than 4 x 8) and their product."""
    length = min(long, 2 * short)
    return (1.0, float(short), float(length), float(short * length))
