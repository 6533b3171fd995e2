"""This module compares Numba with what a user would pick instead, on the same searches.

The same searches run as C compiled with gcc and with clang, as Cython, and
as the plain-Python reference under CPython and under PyPy, timed like for
like.

Like for like: every compiled side (knight's Numba kernels,
bench/baselines/numba_bound.py; knight.c by each compiler,
bench/baselines/c.py; bench/baselines/knight_cython.pyx) is handed the same
arrays, inputs and scratch allocated and touched before the clock
(bench/baselines/prepared.py), and the caller reads the same clocks around
the bare kernel call (bench/baselines/call_clock.py). Each side's fixed cost
of one call is measured by an empty function of the same arguments, timed
just before every search call of the rounds (after another search, as the
call itself runs) and in batches back to back; a search is a *headline*
search when the first is below 1% of its time on every side, and the others
go to the call-overhead table. Plain Python
(bench/baselines/python_bound.py, in this process and in a pypy3 worker) runs
the first ``PYTHON_BUDGET`` nodes of the same search.

The sides run interleaved round by round (bench/timing/paired.py). Rates are
nodes per second of the call's thread CPU time, median over rounds; a ratio
is the median of the rounds' ratios, with their range. Every compiled side
must place exactly Numba's nodes, with its status, and plain Python
Numba's nodes capped at its budget. A side whose toolchain is missing is
left out with a one-line reason. The result, versus.json in the run folder,
feeds figure 6 and a section of REPORT.md (bench/studies/versus/versus_report.py).
The workloads are bench/studies/versus/versus_workloads.py's.
"""

import functools
import statistics

from bench.baselines import c as c_baseline
from bench.baselines import call_clock, cython_build, numba_bound, prepared, pypy_runner, python_bound
from bench.studies.study import Study
from bench.studies.versus import versus_report
from bench.studies.versus.versus_workloads import WORKLOADS
from bench.timing import paired
from bench.timing.named_search import Outcome

VERSUS = "versus.json"
# what versus.json holds: 2 is this module's; a file without "format" is the
# first one's (numba, c and python sides, no call costs), still readable
FORMAT = 2
PYTHON_BUDGET = 50_000
# interleaved rounds of a preset sweep: the default one's, the quick one's
ROUNDS, ROUNDS_QUICK = 5, 1
# empty calls per batch, and at least this many batches, interleaved like rounds
EMPTY_CALLS, EMPTY_BATCHES = 200, 3
# a search is a headline search when one call's fixed cost is below this share of its time
HEADLINE_SHARE = 0.01
COMPILED = ("numba", "clang", "gcc", "cython")
INTERPRETED = ("pypy", "python")
SIDES = (*COMPILED, *INTERPRETED)


def _open(name):
    """The side ``name``'s implementation (``bind``, ``version``), or raise
    with the one-line reason it is missing."""
    if name == "numba":
        return numba_bound.NumbaKernels()
    if name in c_baseline.COMPILERS:
        return c_baseline.ScratchC(name)
    if name == "cython":
        return cython_build.CythonKernels()
    return pypy_runner.PyPyWorker()


def toolchains(names=(*COMPILED, "pypy")):
    """``(opened, missing)``: name -> implementation for every side that
    loads here, name -> why for the others (CPython is always there)."""
    opened, missing = {}, {}
    for name in names:
        try:
            opened[name] = _open(name)
        except Exception as problem:  # a missing or broken toolchain: skip it, say why
            missing[name] = " ".join(f"{type(problem).__name__}: {problem}".split())
    return opened, missing


class _Bindings:
    """Each search prepared once, shared by every compiled side, and each
    side's ``(call, empty, read)`` for it, all made before any clock:
    ``read`` turns what ``call()`` returned into ``(status word, nodes)``,
    after the clock."""

    def __init__(self, opened):
        self._opened = opened
        self._prepared = {}
        self._bound = {}

    def prepared(self, search):
        if search.key not in self._prepared:
            self._prepared[search.key] = prepared.prepare(search)
        return self._prepared[search.key]

    def bound(self, name, search):
        if (name, search.key) not in self._bound:
            self._bound[name, search.key] = self._bind(name, search)
        return self._bound[name, search.key]

    def _bind(self, name, search):
        if name == "python":
            fields = (
                search.method,
                search.rows,
                search.cols,
                search.start,
                search.closed,
                search.budget,
                search.tiebreak,
            )
            return (*python_bound.bind(*fields, PYTHON_BUDGET), tuple)
        ready = self.prepared(search)
        call, empty = self._opened[name].bind(ready)
        return call, empty, functools.partial(prepared.answer_words, ready)


def _in_process_run(bindings, name, empties):
    """``run(search)``: an empty call, then the search, each timed; the
    empty call's CPU time goes to ``empties[search.key]``."""

    def run(search):
        call, empty, read = bindings.bound(name, search)
        empties.setdefault(search.key, []).append(call_clock.timed(empty).cpu_seconds)
        measured = call_clock.timed(call)
        status, nodes = read(measured.answer)
        return Outcome(status, nodes, measured.seconds, measured.cpu_seconds)

    return run


def _pypy_run(worker, empties):
    def run(search):
        answer = worker.ask(search, PYTHON_BUDGET, with_empty=True)
        empties.setdefault(search.key, []).append(answer["empty_cpu_seconds"])
        return Outcome(answer["status"], answer["nodes"], answer["seconds"], answer["cpu_seconds"])

    return run


def _empty_costs(name, opened, bindings, search, calls):
    """(wall, CPU) seconds of ``calls`` empty calls of ``name`` on ``search``'s arguments."""
    if name == "pypy":
        answer = opened["pypy"].ask(search, PYTHON_BUDGET, calls)
        return answer["seconds"], answer["cpu_seconds"]
    return call_clock.empty_costs(bindings.bound(name, search)[1], calls)


def call_costs(names, opened, bindings, workloads, batches):
    """name -> kind -> median wall and CPU seconds of one empty call back to
    back, over interleaved batches, one search of each kind standing for its kind."""
    standing = {}
    for search in workloads:
        standing.setdefault(prepared.kind_of(search), search)
    samples = {(name, kind): ([], []) for name in names for kind in standing}
    for batch in range(batches):
        for index, (kind, search) in enumerate(standing.items()):
            order = names if (batch + index) % 2 == 0 else names[::-1]
            for name in order:
                wall, cpu = _empty_costs(name, opened, bindings, search, EMPTY_CALLS)
                samples[name, kind][0].extend(wall)
                samples[name, kind][1].extend(cpu)
    return {
        name: {
            kind: {
                "seconds": statistics.median(samples[name, kind][0]),
                "cpu_seconds": statistics.median(samples[name, kind][1]),
            }
            for kind in standing
        }
        for name in names
    }


def measure(rounds, workloads=WORKLOADS):
    """Run every workload on every side; return what versus.json holds."""
    opened, missing = toolchains()
    try:
        return _measure(opened, missing, rounds, workloads)
    finally:
        if "pypy" in opened:
            opened["pypy"].close()


def _measure(opened, missing, rounds, workloads):
    bindings = _Bindings(opened)
    names = [name for name in SIDES if name in opened or name == "python"]
    empties = {name: {} for name in names}
    runs = {
        name: _pypy_run(opened["pypy"], empties[name])
        if name == "pypy"
        else _in_process_run(bindings, name, empties[name])
        for name in names
    }
    samples = paired.measure(runs, workloads, rounds, cold=("python",))
    costs = call_costs(names, opened, bindings, workloads, max(rounds, EMPTY_BATCHES))
    # the rounds' empty calls, less the warm-up call's
    in_rounds = {name: {key: times[-rounds:] for key, times in by_key.items()} for name, by_key in empties.items()}
    rows = [_row(search, names, samples, in_rounds) for search in workloads]
    versions = {name: opened[name].version for name in opened}
    return {
        "format": FORMAT,
        "rounds": rounds,
        "python_budget": PYTHON_BUDGET,
        "headline_share": HEADLINE_SHARE,
        "missing": missing,
        "versions": versions,
        "call_costs": costs,
        "workloads": rows,
    }


def _side(outcomes, empties):
    rates = [outcome.nodes / outcome.cpu_seconds if outcome.cpu_seconds > 0 else None for outcome in outcomes]
    timed = [rate for rate in rates if rate]
    return {
        "status": outcomes[-1].status,
        "nodes": outcomes[-1].nodes,
        "nodes_per_s": statistics.median(timed) if timed else None,
        "rates": rates,
        "min_s": min(outcome.seconds for outcome in outcomes),
        "median_s": statistics.median(outcome.seconds for outcome in outcomes),
        "median_cpu_s": statistics.median(outcome.cpu_seconds for outcome in outcomes),
        # an empty call of the same arguments, timed just before each of the search's calls
        "empty_cpu_s": statistics.median(empties),
    }


def _row(search, names, samples, empties):
    row = {
        "key": search.key,
        "group": search.group,
        "kind": prepared.kind_of(search),
        "closed": search.closed,
        "start": [search.start[0] + 1, search.start[1] + 1],
        "budget": search.budget,
        "sides": {name: _side(samples[name][search.key], empties[name][search.key]) for name in names},
    }
    check_same_tree(search.key, row["sides"])
    row["call_share"] = {
        name: side["empty_cpu_s"] / side["median_cpu_s"]
        for name, side in row["sides"].items()
        if side["median_cpu_s"] > 0
    }
    row["headline"] = len(row["call_share"]) == len(names) and max(row["call_share"].values()) < HEADLINE_SHARE
    return row


def check_same_tree(key, sides):
    """Raise unless every side searched Numba's tree: compiled sides placed
    its nodes with its status, plain Python its nodes capped at its budget."""
    numba = sides["numba"]
    for name, side in sides.items():
        if name in COMPILED and (side["nodes"], side["status"]) != (numba["nodes"], numba["status"]):
            raise AssertionError(
                f"{key}: {name} placed {side['nodes']} nodes ({side['status']}), "
                f"Numba {numba['nodes']} ({numba['status']})"
            )
        if name in INTERPRETED and side["nodes"] != min(numba["nodes"], PYTHON_BUDGET):
            raise AssertionError(f"{key}: {name} placed {side['nodes']} nodes, Numba {numba['nodes']}")


class VersusStudy(Study):
    name = "versus"
    data_file = VERSUS
    figure_file = "6-versus.png"
    extra = "versus_rounds"
    skip_help = "preset sweeps: skip timing Numba against gcc, clang, Cython, PyPy and CPython (figure 6)"
    announcement = "Numba against gcc, clang, Cython, PyPy and CPython"

    def setting(self, quick):
        return ROUNDS_QUICK if quick else ROUNDS

    def measure(self, setting):
        return measure(rounds=setting)

    def figure(self, measured, path):
        return versus_report.draw(measured, path)

    def section(self, measured, figure, studied):
        return versus_report.section(measured, figure)


STUDY = VersusStudy()
