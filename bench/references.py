"""The registry of references that knight's kernels are timed against.

A reference moves with the machine (its speed, today's load) but not with
the project's code, so knight's throughput divided by a reference's, both
measured in one run, can be compared with a ratio recorded on another day.

A reference has a ``name``, a ``description``, ``supports(search)`` and
``run(search) -> Outcome`` that times its search the way knight's are timed
(bench/searches.py): ``seconds``, the kernel's wall time alone, and
``cpu_seconds``, the process's CPU time over set-up and search.
To add one (the C baselines, say), write such a class and append an instance
to ``REFERENCES``; `make baseline` then records its ratios.
"""

import time

import numpy as np

from bench.searches import Outcome, cpu_clock

_STATUS = {0: "found", 1: "none", 2: "budget", 3: "dead-end"}
_TIEBREAK = {"first": 0, "roth": 1}


class FrozenKernels:
    """bench/reference_kernels.py: knight's Numba kernels frozen at 125a638."""

    name = "frozen"
    description = __doc__

    def supports(self, search):
        return search.method in ("backtrack", "count", "warnsdorff", "greedy")

    def run(self, search):
        cpu_began = cpu_clock()
        kernel, arguments = _frozen_call(search)
        began = time.perf_counter()
        answer = kernel(*arguments)
        seconds = time.perf_counter() - began
        return _outcome(search, answer, seconds, cpu_clock() - cpu_began)


def _frozen_call(search):
    """The frozen kernel for ``search`` and its arguments, built the way
    knight/search.py builds them at 125a638 (outside the timed call)."""
    from bench import reference_kernels as kernels

    rows, cols = search.rows, search.cols
    start = search.start[0] * cols + search.start[1]
    path = np.zeros(rows * cols, dtype=np.int32)
    tiebreak = _TIEBREAK[search.tiebreak]
    if search.method == "greedy":
        return kernels.greedy, (rows, cols, start, tiebreak, search.closed, search.budget, path)
    neighbours = kernels.neighbour_table(rows, cols)
    if search.method == "warnsdorff":
        keys = kernels.tie_keys(rows, cols, tiebreak)
        return kernels.warnsdorff, (neighbours, keys, start, search.closed, search.budget, path)
    first_only = search.method == "backtrack"
    return kernels.backtrack, (neighbours, start, search.closed, search.budget, first_only, path)


def _outcome(search, answer, seconds, cpu_seconds):
    if search.method == "count":
        status, tours, nodes = answer
        return Outcome("budget" if status == 2 else "complete", int(nodes), seconds, cpu_seconds, int(tours))
    status, nodes = answer[0], answer[-1]
    return Outcome(_STATUS[status], int(nodes), seconds, cpu_seconds)


REFERENCES = (FrozenKernels(),)
