"""This module estimates how big a count is before it runs.

It uses Knuth's random-probe estimate of the search tree, plain and pruned,
and the time this machine would take.

Knuth (1975), "Estimating the efficiency of backtrack programs": walk from
the root to a leaf choosing a child uniformly at random; ``1 + d1 + d1*d2 +
...`` (``di`` the number of children met at depth ``i``) is an unbiased
estimate of the number of nodes. The mean over many walks converges, slowly
on trees as lopsided as these, so the figure is an order of magnitude, not
a promise. Seeded: the same arguments give the same figures.
"""

import time
from dataclasses import dataclass

import numpy as np

from knight import validate
from knight.counting.dfs import dfs_kernels
from knight.counting.dfs.unit_count import stop_signal
from knight.geometry.neighbours import neighbour_table
from knight.runtime import machine

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
    start: tuple | None
    closed: bool
    probes: int
    seed: int
    plain_nodes: float
    pruned_nodes: float
    tours: float
    rate: float
    workers: int
    seconds: float


def _probe(job, start, pruned, probes, seed):
    neighbours = neighbour_table(job.rows, job.cols)
    # each start its own stream; wrapped, as np.random.seed takes 32 bits
    stream = (seed + start) % (validate.MAX_SEED + 1)
    return dfs_kernels.probe_tree(neighbours, start, job.closed, pruned, probes, stream)


def _node_rate(job, start):
    """Pruned nodes per second of one core, timed on a budgeted search."""
    neighbours = neighbour_table(job.rows, job.cols)
    prefix = np.array([start], dtype=np.int32)
    units = np.zeros((0, 1), dtype=np.int32)
    stop = stop_signal()
    dfs_kernels.count_subtree(neighbours, prefix, job.closed, True, 10, -1, units, stop)  # compile first
    began = time.perf_counter()
    nodes = dfs_kernels.count_subtree(neighbours, prefix, job.closed, True, RATE_SAMPLE_NODES, -1, units, stop).nodes
    return nodes / max(time.perf_counter() - began, 1e-9)


def estimate_count(job, probes=DEFAULT_PROBES, seed=0):
    """Estimate the count ``job`` (a ``counting.driver.prepare``'d count) describes,
    from the same plan of starts: one start per symmetry class, the plain
    search from every class, the pruned one from those colour parity allows,
    the node rate of one core times ``job.workers`` (default all cores).
    Returns an ``Estimate``."""
    probes, seed = validate.probes(probes), validate.seed(seed)
    classes = job.starts.classes
    pruned_starts = job.starts.searched(pruned=True)
    plain_nodes = sum(_probe(job, start, False, probes, seed)[0] for start in classes)
    pruned_nodes = tours = 0.0
    for start in pruned_starts:
        nodes, found = _probe(job, start, True, probes, seed)
        pruned_nodes += nodes
        tours += found * len(classes[start])
    workers = job.workers or machine.usable_cores()
    rate = _node_rate(job, pruned_starts[0]) if pruned_starts else float("inf")
    seconds = pruned_nodes / (rate * workers)
    return Estimate(
        job.rows,
        job.cols,
        job.start,
        job.closed,
        probes,
        seed,
        plain_nodes,
        pruned_nodes,
        tours,
        rate,
        workers,
        seconds,
    )
