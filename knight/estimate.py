"""How big is a count before running it: Knuth's random-probe estimate of
the search tree (plain and pruned) and the time this machine would take.

Knuth (1975), "Estimating the efficiency of backtrack programs": walk from
the root to a leaf choosing a child uniformly at random; ``1 + d1 + d1*d2 +
...`` (``di`` the number of children met at depth ``i``) is an unbiased
estimate of the number of nodes. The mean over many walks converges, slowly
on trees as lopsided as these, so the figure is an order of magnitude, not
a promise. Seeded: the same arguments give the same figures.
"""

import os
import time
from dataclasses import dataclass
from typing import Optional

import numpy as np

from knight import count_kernels, counting, validate

DEFAULT_PROBES = 10_000
# nodes in the timed sample run that measures this machine's node rate
RATE_SAMPLE_NODES = 3_000_000


@dataclass(frozen=True)
class Estimate:
    """Estimated nodes of the plain and the pruned count, directed tours,
    the measured pruned node rate of one core, and the projected wall time
    of the pruned count on ``workers`` cores."""

    rows: int
    cols: int
    start: Optional[tuple]
    closed: bool
    probes: int
    seed: int
    plain_nodes: float
    pruned_nodes: float
    tours: float
    rate: float
    workers: int
    seconds: float


def _probe(rows, cols, start, closed, pruned, probes, seed):
    neighbours = counting.neighbour_table_of(rows, cols)
    # each start its own stream; wrapped, as np.random.seed takes 32 bits
    stream = (seed + start) % (validate.MAX_SEED + 1)
    return count_kernels.probe_tree(neighbours, start, closed, pruned, probes, stream)


def _node_rate(rows, cols, start, closed):
    """Pruned nodes per second of one core, timed on a budgeted search."""
    neighbours = counting.neighbour_table_of(rows, cols)
    prefix = np.array([start], dtype=np.int32)
    units = np.zeros((0, 1), dtype=np.int32)
    stop = np.zeros(1, dtype=np.uint8)
    count_kernels.count_subtree(neighbours, prefix, closed, True, 10, -1, units, stop)  # compile first
    began = time.perf_counter()
    _, _, nodes, _ = count_kernels.count_subtree(neighbours, prefix, closed, True, RATE_SAMPLE_NODES, -1, units, stop)
    return nodes / max(time.perf_counter() - began, 1e-9)


def estimate_count(rows, cols, starts, closed=False, probes=DEFAULT_PROBES, seed=0, workers=None):
    """Estimate the count from ``starts`` (0-based squares) as ``count_tours``
    runs it: one start per symmetry class, parity-impossible starts skipped
    by the pruned count. Returns an ``Estimate``."""
    probes, seed, workers = validate.probes(probes), validate.seed(seed), validate.workers(workers)
    classes = counting.symmetry_classes(rows, cols, starts)
    plain_nodes = pruned_nodes = tours = 0.0
    pruned_starts = []
    for start in classes:
        plain_nodes += _probe(rows, cols, start, closed, False, probes, seed)[0]
        if counting.parity_excludes(rows, cols, start):
            continue
        nodes, found = _probe(rows, cols, start, closed, True, probes, seed)
        pruned_nodes += nodes
        tours += found * len(classes[start])
        pruned_starts.append(start)
    workers = workers or len(os.sched_getaffinity(0))
    rate = _node_rate(rows, cols, pruned_starts[0], closed) if pruned_starts else float("inf")
    first = min(starts)
    return Estimate(
        rows=rows,
        cols=cols,
        start=divmod(first, cols) if len(starts) == 1 else None,
        closed=bool(closed),
        probes=probes,
        seed=seed,
        plain_nodes=plain_nodes,
        pruned_nodes=pruned_nodes,
        tours=tours,
        rate=rate,
        workers=workers,
        seconds=pruned_nodes / (rate * workers),
    )
