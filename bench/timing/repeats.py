"""This module holds the timing primitives that the sweep, the speed guard and A/B runs share.

Rules every measurement here follows: the first call of a kernel compiles
(or loads the cache), so it is timed apart and never mixed into run times;
each run is repeated and summarised by its median (robust to a noisy
neighbour) with min and max for the spread.
"""

import statistics
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    """Seconds of ``len(samples)`` repeats of one measured call."""

    samples: tuple

    @property
    def median(self):
        return statistics.median(self.samples)

    @property
    def min(self):
        return min(self.samples)

    @property
    def max(self):
        return max(self.samples)

    @property
    def spread(self):
        """(max - min) / median: 0.1 means the repeats varied by 10%."""
        return (self.max - self.min) / self.median if self.median > 0 else 0.0


def time_repeats(call, repeats):
    """Call ``call()`` ``repeats`` times; return its Timing and last value.

    ``call`` may return an object with a ``seconds`` attribute (a
    ``knight.Result``): then that, the kernel's own time without argument
    checks and array set-up, is what is recorded.
    """
    samples = []
    value = None
    for _ in range(repeats):
        began = time.perf_counter()
        value = call()
        elapsed = time.perf_counter() - began
        samples.append(getattr(value, "seconds", elapsed))
    return Timing(tuple(samples)), value


def compile_times(methods):
    """Seconds each method's first call took in this process: JIT compile,
    or loading machine code from numba's cache when it is warm."""
    from knight import compile_kernels

    return compile_kernels(methods)
