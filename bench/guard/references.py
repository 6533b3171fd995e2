"""This module lists the references that knight's kernels are timed against.

A reference moves with the machine (its speed, today's load) but not with
the project's code, so knight's throughput divided by a reference's, both
measured in one run, can be compared with a ratio recorded on another day.

A reference has a ``name``, ``available() -> (bool, reason)``,
``supports(search)`` and ``run(search) -> Outcome``, timed the way knight's
searches are (bench/timing/named_search.py): ``seconds``, the kernel's wall time alone,
and ``cpu_seconds``, the process's CPU time over set-up and search.

``KernelsReference`` makes one from any object with the ``backtrack``,
``warnsdorff`` and ``greedy`` of knight/kernels.py at 125a638 (same
arguments, same returns): the frozen copy and the C baselines both have
them. A new reference needs `make baseline` to record its ratios.
"""

import time

import numpy as np

from bench.timing.named_search import Outcome, count_status, cpu_clock
from knight.harness_api import status

_TIEBREAK = {"first": 0, "roth": 1}


class KernelsReference:
    """Kernels with knight.search.search_kernels' signatures, loaded by ``load()`` on
    first use; their inputs are built by the frozen definitions of
    bench/references/reference_kernels.py, so every reference searches the same trees."""

    def __init__(self, name, load):
        self.name = name
        self._load = load
        self._kernels = None

    def available(self):
        """Whether the kernels load here (a C compiler may be missing)."""
        try:
            self._kernels = self._kernels or self._load()
        except Exception as problem:  # any failure to load means: skip it, say why
            return False, f"{type(problem).__name__}: {problem}"
        return True, ""

    def supports(self, search):
        return search.method in ("backtrack", "count", "warnsdorff", "greedy")

    def run(self, search):
        if self._kernels is None:
            self._kernels = self._load()
        cpu_began = cpu_clock()
        kernel, arguments = _call(self._kernels, search)
        began = time.perf_counter()
        answer = kernel(*arguments)
        seconds = time.perf_counter() - began
        return _outcome(search, answer, seconds, cpu_clock() - cpu_began)


def _call(kernels, search):
    """The kernel of ``kernels`` for ``search`` and its arguments, built the
    way knight/search.py builds them at 125a638 (outside the timed call)."""
    from bench.references import reference_kernels as frozen

    rows, cols = search.rows, search.cols
    start = search.start[0] * cols + search.start[1]
    path = np.zeros(rows * cols, dtype=np.int32)
    tiebreak = _TIEBREAK[search.tiebreak]
    if search.method == "greedy":
        return kernels.greedy, (rows, cols, start, tiebreak, search.closed, search.budget, path)
    neighbours = frozen.neighbour_table(rows, cols)
    if search.method == "warnsdorff":
        keys = frozen.tie_keys(rows, cols, tiebreak)
        return kernels.warnsdorff, (neighbours, keys, start, search.closed, search.budget, path)
    first_only = search.method == "backtrack"
    return kernels.backtrack, (neighbours, start, search.closed, search.budget, first_only, path)


def _outcome(search, answer, seconds, cpu_seconds):
    if search.method == "count":
        code, tours, nodes = answer
        return Outcome(count_status(code != status.BUDGET), int(nodes), seconds, cpu_seconds, int(tours))
    code, nodes = answer[0], answer[-1]
    return Outcome(status.WORDS[code], int(nodes), seconds, cpu_seconds)


def _frozen_kernels():
    from bench.references import reference_kernels

    return reference_kernels


def _c_kernels():
    from bench.baselines import c

    return c.load()


class DPReference:
    """The frontier DP frozen in bench/references/reference_frontier.py (knight's at
    939426f), run as ``knight.frontier.count_job`` of that commit runs a
    count from one start: one DP run over the column schedule, the start a
    forced tour end (open; a start that colour parity rules out has no run
    there, so give it none here), or no forced end (closed: every start has
    twice the cycles). Its work is the count, as knight's DP's is
    (``Search``): the tours."""

    name = "frozen-dp"

    def available(self):
        try:
            from bench.references import reference_frontier  # noqa: F401 (loads numba)
        except Exception as problem:  # any failure to load means: skip it, say why
            return False, f"{type(problem).__name__}: {problem}"
        return True, ""

    def supports(self, search):
        return search.method == "dp"

    def run(self, search):
        from bench.references import reference_frontier as frozen

        cpu_began = cpu_clock()
        began = time.perf_counter()
        start = search.start[0] * search.cols + search.start[1]
        found, _ = frozen.run(
            frozen.schedule(search.rows, search.cols), search.closed, None if search.closed else start
        )
        seconds = time.perf_counter() - began
        tours = 2 * found if search.closed else found
        return Outcome(count_status(True), int(tours), seconds, cpu_clock() - cpu_began, int(tours))


# frozen: catches a change to knight's own code; c: also catches a numba or
# llvmlite upgrade, which recompiles knight and the frozen copy alike;
# frozen-dp: the DP's own frozen copy, for the DP's workloads only
REFERENCES = (KernelsReference("frozen", _frozen_kernels), KernelsReference("c", _c_kernels), DPReference())
