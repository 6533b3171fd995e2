"""Numba against C and plain Python: the same searches side by side.

Each workload runs in three implementations, interleaved round by round
(bench/guard/paired.py): knight's kernels, the C baselines (bench/baselines/c.py)
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

from bench.baselines import c as c_baseline
from bench.baselines import python as naive
from bench.commits.named_search import Outcome, Search, cpu_clock
from bench.guard import paired
from bench.guard.references import KernelsReference
from bench.report import figure_style
from bench.report.text_cells import count_text, markdown_table
from bench.studies.study import Study

VERSUS = "versus.json"
PYTHON_BUDGET = 50_000
# interleaved rounds of a preset sweep: the default one's, the quick one's
ROUNDS, ROUNDS_QUICK = 5, 1

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
        from knight.harness_api import BITBOARD_SQUARES

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


def ratio(row, side, other):
    """Throughput of ``side`` over ``other`` on one workload, or None."""
    sides = row["sides"]
    if side not in sides or other not in sides:
        return None
    a, b = sides[side]["nodes_per_s"], sides[other]["nodes_per_s"]
    return a / b if a and b else None


def _side_rate(sides, name):
    value = sides.get(name, {}).get("nodes_per_s")
    return "-" if value is None else f"{value / 1e6:.2f}"


def _times_numba(row, name):
    value = ratio(row, "numba", name)
    return "-" if value is None else f"{value:.2f}x"


def section(measured, figure):
    """REPORT.md's part on Numba against C and plain Python."""
    header = (
        "search",
        "board",
        "from",
        "nodes (Numba = C)",
        "Numba Mn/s",
        "C Mn/s",
        "Python Mn/s",
        "Numba / C",
        "Numba / Python",
    )
    lines = []
    for row in measured["workloads"]:
        sides = row["sides"]
        method, board = row["group"].split(" ")
        shape = "closed" if row["closed"] else "open"
        rates = [_side_rate(sides, name) for name in ("numba", "c", "python")]
        times = [_times_numba(row, name) for name in ("c", "python")]
        lines.append(
            (method, f"{board} {shape}", "{},{}".format(*row["start"]), count_text(sides["numba"]["nodes"]),
             *rates, *times)
        )
    missing = [f"- {name} left out: {why}" for name, why in measured.get("missing", {}).items()]
    return [
        "## Numba against C and plain Python",
        "",
        f"The same searches in three implementations, interleaved over {measured['rounds']} rounds; medians of "
        "nodes per second of kernel time. Numba and C search the same tree to the same budget and their node "
        "counts are checked equal. Plain Python (bench/baselines/python.py, recursive, the way the classic "
        "programs work) "
        f"runs the first {measured['python_budget']:,} nodes of the same search. Searches of a few dozen nodes "
        "measure call overhead (ctypes for C), not search speed.",
        "",
        f"![Numba against C and plain Python]({figure.name})",
        "",
        markdown_table(header, lines),
        *(["", *missing] if missing else []),
        "",
    ]



_SIDE_COLOURS = dict(zip(("numba", "c", "python"), figure_style.PALETTE, strict=False))
_SIDE_NAMES = {"numba": "knight (Numba)", "c": "C (cc -O3 -march=native)", "python": "plain Python"}


def draw(measured, path):
    """Figure 6: nodes per second of each implementation on each workload,
    grouped bars on a log axis. ``measured`` is json's content."""
    rows = measured["workloads"]
    names = [name for name in _SIDE_NAMES if any(name in row["sides"] for row in rows)]
    figure, axes = figure_style.figure(
        "Same search, three implementations",
        "nodes per second of kernel time (log scale)",
        "",
        size=(9, 0.45 * len(rows) + 1.8),
    )
    height = 0.8 / max(len(names), 1)
    for offset, name in enumerate(names):
        rates = [row["sides"].get(name, {}).get("nodes_per_s") or 0 for row in rows]
        positions = [index + offset * height for index in range(len(rows))]
        axes.barh(positions, rates, height=height, color=_SIDE_COLOURS[name], label=_SIDE_NAMES[name])
    axes.set_yticks(
        [index + height * (len(names) - 1) / 2 for index in range(len(rows))], [_workload_label(row) for row in rows]
    )
    axes.invert_yaxis()
    axes.set_xscale("log")
    # beside the bars, where it hides none of them
    axes.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small")
    return figure_style.save(figure, path)


def _workload_label(row):
    shape = "closed" if row["closed"] else "open"
    row_, col = row["start"]
    return f"{row['group']} {shape} from {row_},{col}"


class VersusStudy(Study):
    name = "versus"
    data_file = VERSUS
    figure_file = "6-versus.png"
    extra = "versus_rounds"
    skip_help = "preset sweeps: skip timing Numba against C and plain Python (figure 6)"
    announcement = "Numba against C and plain Python"

    def setting(self, quick):
        return ROUNDS_QUICK if quick else ROUNDS

    def measure(self, setting):
        return measure(rounds=setting)

    def figure(self, measured, path):
        return draw(measured, path)

    def section(self, measured, figure, studied):
        return section(measured, figure)


STUDY = VersusStudy()
