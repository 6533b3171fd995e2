"""The counting study: the DFS, plain and pruned, against the frontier DP,
on every board each finishes within its cap; and where the DP overtakes.

Four engines (``count_worker.ENGINES``) count the open tours of boards in
four series: n x n, 3 x k, 4 x k and 5 x k, each smallest first. Three
count the per-start grid (what ``knight count`` prints); the fourth is the
DP's open total alone, which costs one DP run where the grid costs one per
symmetry class of starts (the DFS's total is its grid's sum: no cheaper).

Each engine has a cap: a time cap and, for the DFS, a node budget per work
unit. Within a series, once an engine's count stops at its cap or finishes
past it, that engine's later boards of the series are not run: reported as
``PAST_CAP``. Each count runs in a worker process (bench/count_worker.py)
that compiles every engine before the first count; a count under
``Study.repeat_below`` seconds is repeated and its medians kept, a longer
one runs once (``repeats`` says which). Every count is checked against
every other engine's on the same board: a disagreement raises, it is never
a row. The result, counts.json in the run folder, feeds figure 8 and a
section of REPORT.md.
"""

import statistics
import time
from dataclasses import dataclass

from bench.run_folder import record
from bench.studies import count_worker
from bench.studies.count_worker import DONE, ENGINES

COUNTS = "counts.json"
PAST_CAP = "past cap"
# the engine the DP's grid races in the headline, and what it is compared with
DP, DFS = "dp", "dfs-pruned"
LABELS = {"dfs-plain": "DFS plain", "dfs-pruned": "DFS pruned", "dp": "DP grid", "dp-total": "DP open total"}


@dataclass(frozen=True)
class Engine:
    """One engine's cap: ``seconds`` of time, ``budget`` nodes per work
    unit (the DFS; None for the DP), and ``longest``, the largest side of
    the boards it is given (k of the k series; n x n up to it too)."""

    name: str
    seconds: float
    longest: int
    budget: int | None = None

    def takes(self, board):
        return max(board) <= self.longest


@dataclass(frozen=True)
class Series:
    name: str
    boards: tuple


@dataclass(frozen=True)
class Study:
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
        answers += [worker.count(engine.name, *board, engine.seconds, engine.budget)
                    for _ in range(study.repeats - 1)]
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
    worker = count_worker.Worker() if own else worker
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
        "engines": {engine.name: {"seconds": engine.seconds, "budget": engine.budget, "longest": engine.longest}
                    for engine in study.engines},
        "repeats": study.repeats,
        "repeat_below": study.repeat_below,
        "series": [series.name for series in study.series],
        "warm_up_seconds": worker.warm_ups,
        "wall_seconds": time.perf_counter() - began,
        "rows": rows,
    }


def run_into(folder, study, show=None):
    """Measure and write counts.json, unless a resumed run has it."""
    path = folder / COUNTS
    if not path.exists():
        record.write_json(path, measure(study, show=show))
    return path


def series_rows(measured, series, engine):
    """The rows of one engine in one series, smallest board first."""
    return [row for row in measured["rows"] if row["series"] == series and row["engine"] == engine]


def crossover(measured, series, fast=DP, slow=DFS):
    """Where ``fast`` overtakes ``slow`` in ``series``: the first board from
    which on, on every board where either finished, ``fast`` finished
    sooner (or alone); ``(board, beaten before)``, ``beaten before`` saying
    whether ``slow`` won somewhere before it. None when ``slow`` wins the
    last board either finished, or neither finished any."""
    ours = {(row["rows"], row["cols"]): row for row in series_rows(measured, series, fast)}
    theirs = {(row["rows"], row["cols"]): row for row in series_rows(measured, series, slow)}
    verdicts = []  # (board, fast won) on every board where either finished
    for board in [board for board in ours if board in theirs]:
        a, b = ours[board], theirs[board]
        if a["status"] != DONE and b["status"] != DONE:
            continue
        won = b["status"] != DONE or (a["status"] == DONE and a["seconds"] < b["seconds"])
        verdicts.append((board, won))
    if not verdicts or not verdicts[-1][1]:
        return None
    first = len(verdicts) - 1
    while first > 0 and verdicts[first - 1][1]:
        first -= 1
    return verdicts[first][0], first > 0


def engines_of(measured):
    """The engines of the study, in ``ENGINES`` order."""
    return [name for name in ENGINES if name in measured["engines"]]
