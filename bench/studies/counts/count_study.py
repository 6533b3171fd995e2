"""This module is the counting study, which times the DFS and the frontier DP on the same boards.

The DFS runs plain and pruned. Each engine counts every board it finishes
within its cap, and the study shows where the DP overtakes.

Four engines (``count_worker.ENGINES``) count the open tours of boards in
four series: n x n, 3 x k, 4 x k and 5 x k, each smallest first. Three
count the per-start grid (what ``knight count`` prints); the fourth is the
DP's open total alone, which costs one DP run where the grid costs one per
symmetry class of starts (the DFS's total is its grid's sum: no cheaper).
Two more run that total on a loopback Dask cluster of 1 and 2 worker
processes, on a few boards only: what the cluster costs against the one
process (``cluster_overhead``).

Each engine has a cap: a time cap and, for the DFS, a node budget per work
unit. Within a series, once an engine's count stops at its cap or finishes
past it, that engine's later boards of the series are not run: reported as
``PAST_CAP``. Each count runs in a worker process (bench/studies/counts/count_worker.py)
that compiles every engine before the first count; a count under
``CountPlan.repeat_below`` seconds is repeated and its medians kept, a longer
one runs once (``repeats`` says which). Every count is checked against
every other engine's on the same board: a disagreement raises, it is never
a row. The result, counts.json in the run folder, feeds figure 8 and a
section of REPORT.md (bench/studies/counts/count_report.py).
"""

import statistics
import time
from dataclasses import dataclass

from bench.studies.counts import count_report, count_worker
from bench.studies.counts.count_report import PAST_CAP
from bench.studies.counts.count_worker import DONE
from bench.studies.study import Study

COUNTS = "counts.json"


@dataclass(frozen=True)
class Engine:
    """One engine's cap: ``seconds`` of time, ``budget`` nodes per work
    unit (the DFS; None for the DP), and ``longest``, the largest side of
    the boards it is given (k of the k series; n x n up to it too);
    ``boards``, when given, the only boards it is given (the cluster
    engines': a few, each a cluster run of its own)."""

    name: str
    seconds: float
    longest: int
    budget: int | None = None
    boards: tuple | None = None

    def takes(self, board):
        return max(board) <= self.longest and (self.boards is None or board in self.boards)


@dataclass(frozen=True)
class Series:
    name: str
    boards: tuple


@dataclass(frozen=True)
class CountPlan:
    series: tuple
    engines: tuple
    repeats: int = 3
    repeat_below: float = 0.1


def plan(study):
    """``[(series name, board, engine names), ...]`` in the order they run:
    series by series, each board by every engine that takes it."""
    return [
        (series.name, board, [engine.name for engine in study.engines if engine.takes(board)])
        for series in study.series
        for board in series.boards
    ]


def _measure_one(worker, engine, board, study):
    """One engine on one board: the worker's answer, repeated (medians)
    when a run took under ``study.repeat_below`` seconds."""
    first = worker.count(engine.name, *board, engine.seconds, engine.budget)
    answers = [first]
    if first["status"] == DONE and first["seconds"] < study.repeat_below:
        answers += [worker.count(engine.name, *board, engine.seconds, engine.budget) for _ in range(study.repeats - 1)]
    if any(answer["status"] != DONE for answer in answers):
        return next(answer for answer in answers if answer["status"] != DONE) | {"repeats": len(answers)}
    for answer in answers[1:]:
        if (answer["tours"], answer["work"]) != (first["tours"], first["work"]):
            raise AssertionError(f"{engine.name} on {board[0]}x{board[1]} counted differently when repeated")
    return first | {
        "seconds": statistics.median(answer["seconds"] for answer in answers),
        "cpu_seconds": statistics.median(answer["cpu_seconds"] for answer in answers),
        "repeats": len(answers),
    }


def past_cap(answer, engine):
    """Whether a count ends its engine's run of a series: it did not finish,
    or finished after its time cap."""
    return answer["status"] != DONE or answer["seconds"] > engine.seconds


def check_agreement(board, answers):
    """Raise unless every finished count of ``board`` agrees: the grids
    square by square, and every total with every other."""
    done = {name: answer for name, answer in answers.items() if answer["status"] == DONE}
    grids = {name: answer["grid"] for name, answer in done.items() if answer.get("grid") is not None}
    totals = {name: answer["tours"] for name, answer in done.items()}
    where = f"{board[0]}x{board[1]}"
    if len({repr(grid) for grid in grids.values()}) > 1:
        raise AssertionError(f"{where}: the engines' per-start grids differ: {grids}")
    if len(set(totals.values())) > 1:
        raise AssertionError(f"{where}: the engines' tour counts differ: {totals}")


def _row(series, board, engine, answer):
    row = {"series": series, "rows": board[0], "cols": board[1], "engine": engine, "status": answer["status"]}
    if answer["status"] == DONE:
        row.update({key: answer[key] for key in ("tours", "seconds", "cpu_seconds", "repeats", "work")})
    else:
        row["why"] = answer["why"]
    return row


def measure(study, worker=None, show=None):
    """Run ``study``; return what counts.json holds. ``show(series, board)``
    is called before each board."""
    own = worker is None
    clusters = [count_worker.CLUSTER_WORKERS[e.name] for e in study.engines if e.name in count_worker.CLUSTER_WORKERS]
    worker = count_worker.Worker(clusters=clusters) if own else worker
    began = time.perf_counter()
    answered, rows = {}, []
    try:
        for series in study.series:
            ended = {}  # engine name -> the board that ended its run of this series
            for board in series.boards:
                if show is not None:
                    show(series.name, board)
                here = {}
                for engine in (engine for engine in study.engines if engine.takes(board)):
                    if engine.name in ended:
                        rows_, cols = ended[engine.name]
                        here[engine.name] = {"status": PAST_CAP, "why": f"{rows_}x{cols} ran past the cap"}
                        continue
                    if (engine.name, board) not in answered:
                        answered[engine.name, board] = _measure_one(worker, engine, board, study)
                    here[engine.name] = answered[engine.name, board]
                    if past_cap(here[engine.name], engine):
                        ended[engine.name] = board
                check_agreement(board, here)
                rows += [_row(series.name, board, name, answer) for name, answer in here.items()]
    finally:
        if own:
            worker.close()
    return {
        "engines": {
            engine.name: {"seconds": engine.seconds, "budget": engine.budget, "longest": engine.longest}
            for engine in study.engines
        },
        "repeats": study.repeats,
        "repeat_below": study.repeat_below,
        "series": [series.name for series in study.series],
        "warm_up_seconds": worker.warm_ups,
        "wall_seconds": time.perf_counter() - began,
        "rows": rows,
    }


def _count_series(largest_n, largest_k):
    """n x n from n = 4, and 3 x k, 4 x k, 5 x k from the first k not
    below the short side (5 x 4 is 4 x 5 turned)."""
    return (
        Series("n x n", tuple((n, n) for n in range(4, largest_n + 1))),
        *(Series(f"{rows} x k", tuple((rows, k) for k in range(max(rows, 4), largest_k + 1))) for rows in (3, 4, 5)),
    )


def preset(quick=False):
    """The counting study of a preset sweep: n x n for n =
    4..7 and 3 x k, 4 x k, 5 x k, the DFS up to k = 12 and the DP to 20,
    each engine under its time cap; the DFS also under a node budget per
    work unit (10^8, seconds of one unit). The pruned DFS gets 3 s, enough
    for 6x6 on the idle machine; the plain DFS 1 s, the DP 1.5 s. The caps
    keep the study under a minute on the idle 2-core machine (journal: "The
    counting study and the step-engine study"). Quick: n <= 5, the DP
    to k = 8, the DFS to 6, every cap 0.3 s: a few seconds."""
    budget = 10**8
    if quick:
        series = _count_series(5, 8)
        caps = {"dfs-plain": 0.3, "dfs-pruned": 0.3, "dp": 0.3, "dp-total": 0.3}
        dfs_longest, dp_longest, repeat_below = 6, 8, 0.05
        cluster_cap, cluster_boards = 5.0, ((4, 4),)
    else:
        series = _count_series(7, 20)
        caps = {"dfs-plain": 1.0, "dfs-pruned": 3.0, "dp": 1.5, "dp-total": 1.5}
        dfs_longest, dp_longest, repeat_below = 12, 20, 0.1
        cluster_cap, cluster_boards = 20.0, ((5, 5), (6, 6))
    engines = (
        Engine("dfs-plain", caps["dfs-plain"], dfs_longest, budget),
        Engine("dfs-pruned", caps["dfs-pruned"], dfs_longest, budget),
        Engine("dp", caps["dp"], dp_longest),
        Engine("dp-total", caps["dp-total"], dp_longest),
        *(Engine(name, cluster_cap, dp_longest, boards=cluster_boards) for name in count_worker.CLUSTER_WORKERS),
    )
    return CountPlan(series, engines, repeats=3, repeat_below=repeat_below)


class CountsStudy(Study):
    name = "counts"
    data_file = COUNTS
    figure_file = "8-counts.png"
    extra = "counts"
    skip_help = "preset sweeps: skip the counting study, DFS against the DP (figure 8)"
    announcement = "counting, DFS (plain, pruned) against the DP, each engine under its cap"

    def setting(self, quick):
        return "quick" if quick else "default"

    def measure(self, setting):
        return measure(preset(quick=setting == "quick"))

    def figure(self, measured, path):
        return count_report.draw(measured, path)

    def section(self, measured, figure, studied):
        return count_report.section(measured, figure)


STUDY = CountsStudy()
