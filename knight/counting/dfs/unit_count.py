"""This module counts one work unit of the DFS, the subtree below a prefix of squares.

It runs the compiled counter with plain data in and out, so that it runs on
any executor, a remote Dask worker included. Each count has its own stop
signal, so two counts in one process never stop each other."""

import time

import numpy as np

from knight.counting.dfs import dfs_kernels
from knight.geometry.neighbours import neighbour_table

_NO_CUT = -1


def stop_signal():
    """A fresh stop signal for one count: raise it (``signal[0] = 1``) and
    the kernels counting that count's units give up within about a million
    nodes, with status ``STOPPED``."""
    return np.zeros(1, dtype=np.uint8)


def count_unit(rows, cols, closed, pruned, budget, prefix, stop=None):
    """Count one work unit: the subtree below ``prefix`` (a list of
    squares), giving up if ``stop`` (a ``stop_signal``) is raised. Returns
    ``(status, tours, nodes)``. Plain data in and out, so it runs on any
    executor, a remote Dask worker's included."""
    prefix = np.asarray(prefix, dtype=np.int32)
    units = np.zeros((0, 1), dtype=np.int32)
    stop = stop_signal() if stop is None else stop
    counted = dfs_kernels.count_subtree(
        neighbour_table(rows, cols), prefix, bool(closed), bool(pruned), budget, _NO_CUT, units, stop
    )
    return counted.status, counted.tours, counted.nodes


def count_units(rows, cols, closed, pruned, budget, prefixes, stop=None):
    """``count_unit`` of each prefix in turn, as one task: returns the
    answers (fewer, if ``stop`` is raised meanwhile) and the seconds taken."""
    began = time.perf_counter()
    stop = stop_signal() if stop is None else stop
    answers = []
    for prefix in prefixes:
        if stop[0]:
            break
        answers.append(count_unit(rows, cols, closed, pruned, budget, prefix, stop))
    return answers, time.perf_counter() - began
