"""This module splits a DFS count into work units.

The search from each start is cut at a fixed depth, and every prefix at that
depth is a unit counted on its own (``unit_count``). The sums are exact
whatever the split."""

from dataclasses import dataclass

import numpy as np

from knight.counting.dfs import dfs_kernels
from knight.counting.dfs.unit_count import stop_signal
from knight.geometry.neighbours import neighbour_table
from knight.runtime import status

# the default split: the shallowest cut with at least DEFAULT_UNITS units,
# and enough that an average unit (by a seeded Knuth estimate of the tree)
# places at most UNIT_NODES nodes, about half a second: Ctrl-C loses little
# and progress moves. Independent of the machine, so that a resume file made
# on one matches the plan on another.
DEFAULT_UNITS = 1000
UNIT_NODES = 1 << 24
_PLAN_PROBES = 2000


@dataclass(frozen=True)
class Plan:
    """A count split into work units.

    ``classes`` maps each start to the squares that share its count;
    ``above`` holds, per start, the status, tours and nodes of its search
    above the cut (nothing for a start the count does not search);
    ``units`` are the prefixes at the cut (an array, one row of
    ``depth + 1`` squares per unit, the start first).
    """

    rows: int
    cols: int
    closed: bool
    pruned: bool
    depth: int
    classes: dict
    above: dict
    units: list

    def header(self):
        """What identifies this plan in a resume file."""
        return {
            "rows": self.rows,
            "cols": self.cols,
            "closed": self.closed,
            "pruned": self.pruned,
            "depth": self.depth,
            "starts": sorted(self.classes),
            "units": len(self.units),
        }


def _cut(job, start, depth, capacity, stop):
    """The search from ``start`` cut at ``depth``: ``(counted, units)``, a
    ``SubtreeCount`` and the units, at most ``capacity`` of those it found."""
    units = np.zeros((capacity, depth + 1), dtype=np.int32)
    prefix = np.array([start], dtype=np.int32)
    counted = dfs_kernels.count_subtree(
        neighbour_table(job.rows, job.cols), prefix, job.closed, job.pruned, job.budget, depth, units, stop
    )
    return counted, units


def _units_at(job, depth, stop):
    starts = job.searched
    if depth == 0:
        return {s: (status.NONE, 0, 0) for s in starts}, np.array(starts, dtype=np.int32).reshape(-1, 1)
    above, units = {}, [np.zeros((0, depth + 1), dtype=np.int32)]
    for start in starts:
        found = _cut(job, start, depth, 0, stop)[0].units_found
        counted, rows_found = _cut(job, start, depth, found, stop)
        above[start] = (counted.status, counted.tours, counted.nodes)
        units.append(rows_found)
    # one array, not lists: a 7x7 count has about a million units
    return above, np.concatenate(units)


def _auto_depth(job, stop):
    """The shallowest cut giving enough units (see ``UNIT_NODES``), else
    (a small tree) the cut giving the most."""
    neighbours = neighbour_table(job.rows, job.cols)
    starts = job.searched
    nodes = sum(dfs_kernels.probe_tree(neighbours, s, job.closed, job.pruned, _PLAN_PROBES, s)[0] for s in starts)
    wanted = max(DEFAULT_UNITS, nodes / UNIT_NODES)
    most, best = 0, 0
    for depth in range(1, job.rows * job.cols):
        found = sum(_cut(job, s, depth, 0, stop)[0].units_found for s in starts)
        if found >= wanted:
            return depth
        if found > most:
            most, best = found, depth
    return best


def split_units(job, stop=None):
    """Split ``job``'s count into work units (see ``Plan``); its ``depth``
    None picks the shallowest cut with ``DEFAULT_UNITS`` units."""
    stop = stop_signal() if stop is None else stop
    depth = _auto_depth(job, stop) if job.depth is None else job.depth
    above, units = _units_at(job, depth, stop)
    for start in job.starts.classes:
        above.setdefault(start, (status.NONE, 0, 0))
    return Plan(job.rows, job.cols, job.closed, job.pruned, depth, job.starts.classes, above, units)
