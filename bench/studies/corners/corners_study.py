"""This module runs searches from the corner of every n x n board from 5 up.

It shows where Warnsdorff's rule fails under each tie rule, and what
backtracking pays to recover.

For each n the greedy walk and the Warnsdorff-ordered search (which steps
back when the walk dead-ends) run from square (1,1) under both tie rules:
``first`` (move order) and ``roth`` (farthest from the centre first). The
search gets ``BUDGET_FACTOR`` n^2 nodes. Node counts are exact, so this part
reports work, not time: corners.json in the run folder, figure 7 and a
section of REPORT.md.
"""

import concurrent.futures
import time

from bench import figure_style
from bench.figure_style import plt
from bench.run_folder import record
from bench.studies.study import Study
from bench.text_cells import count_text, markdown_table, seconds_text
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
        halves = [
            pool.submit(_study, tiebreak, largest, show if tiebreak == TIEBREAKS[0] else None) for tiebreak in TIEBREAKS
        ]
        halves = [half.result() for half in halves]
    boards = [{"n": n} for n in range(5, largest + 1)]
    for board in boards:
        for found, _, _ in halves:
            board.update(found[board["n"]])
    seconds = {name: sum(half[1].get(name, 0.0) for half in halves) for name in NAMES}
    return {
        "largest": largest,
        "budget_factor": BUDGET_FACTOR,
        "kernel_seconds": seconds,
        "wall_seconds": sum(half[2] for half in halves),
        "boards": boards,
    }


def failures(measured, name):
    """Board sides where ``name`` (e.g. ``greedy-roth``) found no tour."""
    return [board["n"] for board in measured["boards"] if board[name][0] != record.FOUND]


def recovery(measured, tiebreak):
    """For each n where the greedy walk failed under ``tiebreak``: how many
    nodes the backtracking search placed, and whether it found a tour."""
    rows = []
    for board in measured["boards"]:
        if board[f"greedy-{tiebreak}"][0] != record.FOUND:
            status, nodes = board[f"warnsdorff-{tiebreak}"]
            rows.append((board["n"], board[f"greedy-{tiebreak}"][1], status, nodes))
    return rows


def section(measured, figure):
    """REPORT.md's part on Warnsdorff's rule from the corner, n = 5..N."""
    boards = measured["boards"]
    first, last = boards[0]["n"], boards[-1]["n"]
    lines = []
    for name in NAMES:
        failed = failures(measured, name)
        worst = max(board[name][1] / board["n"] ** 2 for board in boards if board[name][0] == record.FOUND)
        shown = ", ".join(map(str, failed[:12])) + (", ..." if len(failed) > 12 else "")
        lines.append(
            (
                name,
                f"{len(boards) - len(failed)} of {len(boards)}",
                shown or "-",
                f"{worst:.3f}",
                seconds_text(measured["kernel_seconds"][name]),
            )
        )
    recovered = []
    for tiebreak in ("roth", "first"):
        for n, walked, status, nodes in recovery(measured, tiebreak)[:10]:
            recovered.append((tiebreak, n, count_text(walked), status, count_text(nodes), f"{nodes / n**2:.3f}"))
    return [
        f"## From the corner, n = {first}..{last}",
        "",
        f"The greedy walk and the Warnsdorff search (budget {measured['budget_factor']} n² nodes) from square "
        "1,1 of every n x n board, under each tie rule.",
        "",
        f"![Warnsdorff from the corner]({figure.name})",
        "",
        markdown_table(
            ("search", "tour found on", "failed at n =", "most nodes / n² when found", "kernel time, all boards"), lines
        ),
        "",
        "Where the greedy walk dead-ended (first ten per rule): how far it got, and what the backtracking "
        "search did from the same corner.",
        "",
        markdown_table(("ties", "n", "greedy walk nodes", "search status", "search nodes", "nodes / n²"), recovered),
        "",
    ]


def draw(measured, path):
    """Figure 7: from the corner of every n x n board, the nodes the
    Warnsdorff search placed per square (1 = no step back), and the sizes
    where the greedy walk dead-ended, under each tie rule."""
    boards = measured["boards"]
    sides = [board["n"] for board in boards]
    figure, (walks, searches) = plt.subplots(
        2, 1, figsize=(9, 5.5), sharex=True, layout="constrained", height_ratios=(1, 2)
    )
    figure.suptitle(f"From the corner, n = {sides[0]}..{sides[-1]}: where Warnsdorff's rule fails")
    for row, tiebreak in enumerate(("first", "roth")):
        failed = [board["n"] for board in boards if board[f"greedy-{tiebreak}"][0] != record.FOUND]
        colour = figure_style.PALETTE[row]
        walks.plot(failed, [row] * len(failed), "|", markersize=14, color=colour, label=f"ties: {tiebreak}")
    walks.set_yticks([0, 1], ["first", "roth"])
    walks.set_ylim(-0.6, 1.6)
    walks.set_ylabel("greedy\ndead ends")
    walks.grid(True, axis="x", alpha=0.3)
    for row, tiebreak in enumerate(("first", "roth")):
        ratio = [board[f"warnsdorff-{tiebreak}"][1] / board["n"] ** 2 for board in boards]
        searches.plot(sides, ratio, ".", markersize=3, color=figure_style.PALETTE[row], label=f"ties: {tiebreak}")
    searches.axhline(measured["budget_factor"], color="grey", linestyle=":", label="node budget")
    searches.set_ylim(0.9, measured["budget_factor"] + 0.1)
    searches.set_ylabel("nodes / n\u00b2 (1: never stepped back)")
    searches.set_xlabel("board side n (board n x n)")
    searches.grid(True, which="major", alpha=0.3)
    searches.legend(loc="upper left", fontsize="small")
    return figure_style.save(figure, path)


# one line style and marker per series of the counting study, in its order


class CornersStudy(Study):
    name = "corners"
    data_file = CORNERS
    figure_file = "7-corners.png"
    extra = "corners_largest"
    skip_help = "preset sweeps: skip the corner study of n = 5..1000 (figure 7)"
    announcement = "every n x n from the corner, n = 5..{setting}"

    def setting(self, quick):
        return LARGEST_QUICK if quick else LARGEST

    def measure(self, setting):
        return measure(setting)

    def figure(self, measured, path):
        return draw(measured, path)

    def section(self, measured, figure, studied):
        return section(measured, figure)


STUDY = CornersStudy()
