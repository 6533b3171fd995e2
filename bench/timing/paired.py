"""This module measures several sides on the same searches, interleaved, and gives the ratios between them.

A side is knight or a reference, or one of two revisions of knight.

The sides run back to back on each search, in an order that reverses from
one search to the next and one round to the next (A B, B A, ...), so that a
slow spell of a noisy machine lands on both sides alike and neither always
goes first. Each round gives one throughput ratio per search; the median of
the rounds is the measurement, their range its spread.

Throughput is nodes per CPU second of the process (Outcome.cpu_seconds): on
a machine with more busy processes than cores, wall-time ratios of identical
code spread far wider than CPU-time ratios (journal: "bench/'s comments").
"""

import statistics

from bench.timing.repeats import Timing

# what a change of throughput says, read against a threshold
SLOWER, FASTER, OK = "SLOWER", "faster", "ok"


class Ratios(Timing):
    """Per-round throughput ratios (side A's nodes per CPU second over side B's);
    ``median``, ``min``, ``max`` and ``spread`` read as they do for times."""

    @property
    def middle_half(self):
        """First and third quartiles: where half the rounds fell, a spread
        that one round preempted by a noisy neighbour does not stretch."""
        if len(self.samples) < 2:
            return self.median, self.median
        first, _, third = statistics.quantiles(self.samples, n=4)
        return first, third


def measure(sides, searches, rounds, cold=()):
    """``{side: {search.key: [Outcome per round]}}`` for ``sides``, a dict of
    name -> ``run(search) -> Outcome``.

    Every side not named in ``cold`` runs every search once first, untimed:
    that call compiles the kernels or loads them from cache, and faults the
    memory in. A side with nothing to compile (plain Python) needs no such
    call, which for it was a whole round of the slowest side.
    """
    names = list(sides)
    for search in searches:
        for name in names:
            if name not in cold:
                sides[name](search)
    samples = {name: {search.key: [] for search in searches} for name in names}
    for round_ in range(rounds):
        for index, search in enumerate(searches):
            order = names if (round_ + index) % 2 == 0 else names[::-1]
            for name in order:
                samples[name][search.key].append(sides[name](search))
    return samples


def throughput_ratios(subject, reference):
    """Ratios of ``subject``'s nodes per CPU second to ``reference``'s,
    round by round, from two lists of Outcomes of one search."""
    return Ratios(
        tuple(a.nodes_per_cpu_second / b.nodes_per_cpu_second for a, b in zip(subject, reference, strict=True))
    )


def verdict(change, threshold):
    """``SLOWER``, ``FASTER`` or ``OK``: a relative change of throughput
    (a ratio less one) beyond ``-threshold``, beyond ``threshold``, or
    within both."""
    if change < -threshold:
        return SLOWER
    return FASTER if change > threshold else OK


def median_rate(outcomes):
    """Median nodes per CPU second of a list of Outcomes."""
    return statistics.median(outcome.nodes_per_cpu_second for outcome in outcomes)
