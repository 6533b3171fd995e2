"""From the corner, every n x n board from 5 up: where Warnsdorff's rule
fails, under each tie rule, and what backtracking pays to recover.

For each n the greedy walk and the Warnsdorff-ordered search (which steps
back when the walk dead-ends) run from square (1,1) under both tie rules:
``first`` (move order) and ``roth`` (farthest from the centre first). The
search gets ``BUDGET_FACTOR`` n^2 nodes. Node counts are exact, so this part
reports work, not time: corners.json in the run folder, figure 7 and a
section of REPORT.md.
"""

import concurrent.futures
import time

from bench.run_folder import record
from knight import solve

CORNERS = "corners.json"
# a tour needs exactly n^2 nodes; a little more room shows how much
# backtracking a failed walk needs, when it is little
BUDGET_FACTOR = 2
LARGEST = 1000
LARGEST_QUICK = 100
NAMES = ("greedy-first", "warnsdorff-first", "greedy-roth", "warnsdorff-roth")


TIEBREAKS = ("first", "roth")


def _study(tiebreak, largest, show):
    """One tie rule's half of the study: ``({n: {name: [status, nodes]}},
    kernel seconds by name, wall seconds of the solve calls)``."""
    boards, seconds, wall = {}, {}, 0.0
    for n in range(5, largest + 1):
        board = boards.setdefault(n, {})
        for method, budget in (("greedy", None), ("warnsdorff", BUDGET_FACTOR * n * n)):
            name = f"{method}-{tiebreak}"
            began = time.perf_counter()
            result = solve(n, n, (0, 0), method, budget, tiebreak=tiebreak)
            wall += time.perf_counter() - began
            board[name] = [result.status, result.nodes]
            seconds[name] = seconds.get(name, 0.0) + result.seconds
        if show is not None:
            show(n)
    return boards, seconds, wall


def measure(largest, show=None):
    """{"largest", "budget_factor", "kernel_seconds", "wall_seconds", "boards": [{n, greedy-first, ...}]}.

    The two tie rules run on two threads (the kernels release the GIL):
    this study reports work, which is exact whatever runs beside it, and
    it was a third of ``make bench``. ``wall_seconds`` adds up the wall
    time of the solve calls, set-up included, against the kernels' own
    ``kernel_seconds``: what a user of the public API waits per call.
    """
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(TIEBREAKS)) as pool:
        halves = [pool.submit(_study, tiebreak, largest, show if tiebreak == TIEBREAKS[0] else None)
                  for tiebreak in TIEBREAKS]
        halves = [half.result() for half in halves]
    boards = [{"n": n} for n in range(5, largest + 1)]
    for board in boards:
        for found, _, _ in halves:
            board.update(found[board["n"]])
    seconds = {name: sum(half[1].get(name, 0.0) for half in halves) for name in NAMES}
    return {"largest": largest, "budget_factor": BUDGET_FACTOR, "kernel_seconds": seconds,
            "wall_seconds": sum(half[2] for half in halves), "boards": boards}


def run_into(folder, largest, show=None):
    """Measure and write corners.json, unless a resumed run has it."""
    path = folder / CORNERS
    if not path.exists():
        record.write_json(path, measure(largest, show))
    return path


def failures(measured, name):
    """Board sides where ``name`` (e.g. ``greedy-roth``) found no tour."""
    return [board["n"] for board in measured["boards"] if board[name][0] != "found"]


def recovery(measured, tiebreak):
    """For each n where the greedy walk failed under ``tiebreak``: how many
    nodes the backtracking search placed, and whether it found a tour."""
    rows = []
    for board in measured["boards"]:
        if board[f"greedy-{tiebreak}"][0] != "found":
            status, nodes = board[f"warnsdorff-{tiebreak}"]
            rows.append((board["n"], board[f"greedy-{tiebreak}"][1], status, nodes))
    return rows
