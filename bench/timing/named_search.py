"""This module defines a named search through knight's public API and the record of one run of it.

It also holds the process clock and the allocator setting that the timings
rest on. The node baseline, the speed guard, the A/B comparison, the
history, the studies and the benchmark suite share these types. They live in
timing/, below every folder that uses them.

Only the standard library is imported at module level, and ``knight`` only
inside ``run``: ab_worker.py and instruction_worker.py, beside this file,
import it as their top-level neighbour beside any revision of knight, old
ones included, so it must rely on nothing but ``solve`` and
``count_tours``.
"""

import ctypes
import ctypes.util
import time
from dataclasses import asdict, dataclass

# Process CPU time, not the calling thread's: count_tours counts its work
# units on a thread pool, even with one worker.
cpu_clock = time.process_time

# glibc's mallopt parameter for the size from which malloc maps fresh pages
_M_MMAP_THRESHOLD = -3
# glibc's own starting value
MMAP_THRESHOLD = 128 * 1024


def pin_allocator():
    """Fix glibc's mmap threshold for this process, before anything is timed.

    glibc raises the threshold as a process frees large blocks, so whether
    a search's scratch arrays come from fresh pages (faulted in, inside the
    timed call) or from recycled heap depends on what the process did
    before: whole-call ratios of large boards read lower in one process
    than in another running the same knight, and equal with the threshold
    fixed (journal: "bench/'s comments"). Every process whose
    timings are compared (the speed check, the A/B and history workers)
    pins it. Elsewhere than glibc: nothing to pin."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    except (OSError, AttributeError):
        pass


# what a count reports: every search finished, or one hit its budget
COMPLETE, BUDGET = "complete", "budget"


def count_status(complete):
    """The status word of a count that did (or did not) finish."""
    return COMPLETE if complete else BUDGET


@dataclass(frozen=True)
class Outcome:
    """What one run of a search did.

    ``seconds`` is the kernel's own wall time, as knight reports it.
    ``cpu_seconds`` is the CPU time of the whole process (every thread, the
    count's worker included) over the whole call, set-up included: on a
    machine with more runnable processes than cores, wall time also counts
    the slices that other processes ran in, CPU time does not, so the speed
    guard compares throughput in CPU time.
    """

    status: str
    nodes: int
    seconds: float
    cpu_seconds: float
    tours: int | None = None

    @property
    def nodes_per_cpu_second(self):
        return self.nodes / self.cpu_seconds if self.cpu_seconds > 0 else float("inf")


def _plain_count_options(knight):
    """Keyword arguments that make ``count_tours`` the plain enumeration on
    one thread, as one unit: the search the node baseline, the references
    and the C baseline define. Older revisions had no such options and
    counted that way anyway."""
    import inspect

    accepted = inspect.signature(knight.count_tours).parameters
    wanted = {"method": "dfs", "pruned": False, "symmetry": False, "depth": 0, "workers": 1}
    return {name: value for name, value in wanted.items() if name in accepted}


@dataclass(frozen=True)
class Search:
    """``method`` is a ``knight.solve`` method, ``count`` for the plain
    (unpruned) exhaustive count of ``count_tours``, or ``dp`` for its
    frontier DP (``count_tours(method="dp")``, which has no budget).

    A DP's work, as the guard and A/B runs divide it by CPU time, is the
    count itself (``nodes`` = the tours counted): its own measure, the
    transitions, falls whenever the DP learns to drop more dead states, and
    a rate of transitions would read such a faster DP as a slower one. So
    its ratios are CPU-time ratios for the same count, and two sides
    counting differently show as a change of ``nodes``."""

    method: str
    rows: int
    cols: int
    start: tuple
    closed: bool
    budget: int
    tiebreak: str = "first"

    @property
    def label(self):
        """The method with the tie-break where it matters: ``warnsdorff-roth``."""
        return self.method if self.method in ("backtrack", "count", "dp") else f"{self.method}-{self.tiebreak}"

    @property
    def group(self):
        """Method and board, e.g. ``warnsdorff-roth 6x6``."""
        return f"{self.label} {self.rows}x{self.cols}"

    @property
    def key(self):
        """Unique and stable: baselines are keyed by it, so never change it."""
        shape = "closed" if self.closed else "open"
        row, col = self.start
        return f"{self.label} {shape} {self.rows}x{self.cols} @{row},{col} budget={self.budget}"

    def run(self):
        """Run it once in this process. Warm up first: the first call compiles
        (or loads numba's cache), and that lands in ``cpu_seconds``."""
        import knight

        began = cpu_clock()
        if self.method == "dp":
            counted = knight.count_tours(self.rows, self.cols, self.start, self.closed, method="dp")
            tours = int(counted.tours)
            return Outcome(count_status(counted.complete), tours, counted.seconds, cpu_clock() - began, tours)
        if self.method == "count":
            counted = knight.count_tours(
                self.rows, self.cols, self.start, self.closed, self.budget, **_plain_count_options(knight)
            )
            cpu_seconds = cpu_clock() - began
            return Outcome(
                count_status(counted.complete), int(counted.nodes), counted.seconds, cpu_seconds, int(counted.tours)
            )
        result = knight.solve(self.rows, self.cols, self.start, self.method, self.budget, self.closed, self.tiebreak)
        return Outcome(result.status, result.nodes, result.seconds, cpu_clock() - began)

    def to_json(self):
        return asdict(self)

    @classmethod
    def from_json(cls, fields):
        return cls(**{**fields, "start": tuple(fields["start"])})
