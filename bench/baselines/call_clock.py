"""This module holds the one timing of the toolchain comparison.

The caller reads two clocks around a call with no arguments, the same way
for every implementation. The module uses the standard library only, so that
PyPy's worker (bench/baselines/pypy_worker.py) times its calls with this
very function."""

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Timed:
    """One call: what it returned, its wall time and its thread's CPU time."""

    answer: object
    seconds: float
    cpu_seconds: float


def timed(call):
    """Call ``call()`` between two reads of each clock. Thread CPU time is
    what the comparison's ratios use: on the shared 2-core machine it leaves
    out the slices other processes ran in (bench/timing/paired.py)."""
    began_cpu = time.thread_time()
    began = time.perf_counter()
    answer = call()
    seconds = time.perf_counter() - began
    return Timed(answer, seconds, time.thread_time() - began_cpu)


def empty_costs(empty, calls):
    """``timed`` of ``calls`` calls of ``empty``: (wall, CPU) seconds of each."""
    costs = [timed(empty) for _ in range(calls)]
    return [cost.seconds for cost in costs], [cost.cpu_seconds for cost in costs]
