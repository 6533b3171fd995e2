"""Numba against C and plain Python: the same searches side by side.

Each workload runs in three implementations, interleaved round by round
(bench/paired.py): knight's kernels, the C baselines (bench/baselines/c.py)
and the plain-Python recursive search (bench/baselines/python.py, the classic way).
Numba and C run the same search to the same budget, and their node counts
must agree exactly. Plain Python is some hundred times slower, so it runs the
first ``PYTHON_BUDGET`` nodes of the same search; throughput (nodes per
second of kernel time) is what compares.

The result, versus.json in the run folder, feeds a figure and a table of
REPORT.md. The workload list is append-only, like asv benchmarks.
"""

import statistics
import time

from bench import paired, record
from bench.baselines import c as c_baseline
from bench.baselines import python as naive
from bench.references import KernelsReference
from bench.searches import Outcome, Search, cpu_clock

VERSUS = "versus.json"
PYTHON_BUDGET = 50_000

WORKLOADS = (
    *(Search("backtrack", n, n, (0, 0), closed=False, budget=10**8) for n in (5, 6, 7, 8)),
    Search("count", 5, 5, (0, 0), closed=False, budget=10**12),
    *(Search("warnsdorff", n, n, (0, 0), closed=False, budget=10**8) for n in (5, 6, 7, 8)),
    # parity rules this start out, so the search exhausts its whole tree
    Search("warnsdorff", 5, 5, (0, 1), closed=False, budget=10**8),
    Search("warnsdorff", 6, 6, (0, 0), closed=True, budget=3_000_000),
    # past 64 squares: the array kernel, not the bitboard one
    Search("warnsdorff", 60, 60, (0, 0), closed=False, budget=3_000_000),
    Search("greedy", 2000, 2000, (0, 0), closed=False, budget=10**8, tiebreak="roth"),
)


def _python_side():
    def run(search):
        budget = min(search.budget, PYTHON_BUDGET)
        began_cpu = cpu_clock()
        began = time.perf_counter()
        if search.method == "count":
            status, _, nodes = naive.count(search.rows, search.cols, search.start, search.closed, budget)
        else:
            search_function = getattr(naive, search.method)
            arguments = (search.rows, search.cols, search.start, search.closed, budget)
            if search.method != "backtrack":
                arguments += (search.tiebreak,)
            status, nodes, _ = search_function(*arguments)
        seconds = time.perf_counter() - began
        return Outcome(status, nodes, seconds, cpu_clock() - began_cpu)

    return run


class _CLikeSolve:
    """The C kernels, choosing between the array and the bitboard Warnsdorff
    search the way ``knight.solve`` does, so that like meets like."""

    def __init__(self):
        self._kernels = c_baseline.load()
        self.backtrack = self._kernels.backtrack
        self.greedy = self._kernels.greedy

    def warnsdorff(self, neighbours, keys, start, closed, budget, path):
        from knight.search.solver import BITBOARD_SQUARES

        if neighbours.shape[0] <= BITBOARD_SQUARES:
            return self._kernels.warnsdorff_bits(neighbours, keys, start, closed, budget, path)
        return self._kernels.warnsdorff(neighbours, keys, start, closed, budget, path)


def sides():
    """name -> run(search) for every implementation available here, and
    the reasons any was left out."""
    available = {"numba": Search.run}
    missing = {}
    c_reference = KernelsReference("c", _CLikeSolve)
    ok, reason = c_reference.available()
    if ok:
        available["c"] = c_reference.run
    else:
        missing["c"] = reason
    available["python"] = _python_side()
    return available, missing


def measure(rounds, workloads=WORKLOADS):
    """Run every workload on every side; return what versus.json holds."""
    implementations, missing = sides()
    samples = paired.measure(implementations, workloads, rounds, cold=("python",))
    rows = []
    for search in workloads:
        row = {
            "key": search.key,
            "group": search.group,
            "closed": search.closed,
            "start": [search.start[0] + 1, search.start[1] + 1],
            "budget": search.budget,
            "sides": {},
        }
        for name in implementations:
            outcomes = samples[name][search.key]
            rates = [outcome.nodes / outcome.seconds for outcome in outcomes if outcome.seconds > 0]
            row["sides"][name] = {
                "status": outcomes[-1].status,
                "nodes": outcomes[-1].nodes,
                "nodes_per_s": statistics.median(rates) if rates else None,
                "min_s": min(outcome.seconds for outcome in outcomes),
                "median_s": statistics.median(outcome.seconds for outcome in outcomes),
            }
        if "c" in row["sides"] and row["sides"]["c"]["nodes"] != row["sides"]["numba"]["nodes"]:
            raise AssertionError(
                f"{search.key}: C placed {row['sides']['c']['nodes']} nodes, Numba {row['sides']['numba']['nodes']}"
            )
        rows.append(row)
    return {"rounds": rounds, "python_budget": PYTHON_BUDGET, "missing": missing, "workloads": rows}


def run_into(folder, rounds):
    """Measure and write versus.json into ``folder``, unless it is there
    already (a resumed run keeps what it measured)."""
    path = folder / VERSUS
    if not path.exists():
        record.write_json(path, measure(rounds))
    return path


def ratio(row, side, other):
    """Throughput of ``side`` over ``other`` on one workload, or None."""
    sides = row["sides"]
    if side not in sides or other not in sides:
        return None
    a, b = sides[side]["nodes_per_s"], sides[other]["nodes_per_s"]
    return a / b if a and b else None
