"""This module runs a few of the sweep's searches again and draws their tours for the report.

The tours are drawn by ``knight.drawing``, the code that ``knight solve
--svg`` and the notebook reprs draw with.

A self-contained study in three steps: ``collect`` picks the searches from
a finished run folder's runs.csv (one open tour per method on 8x8, a
closed tour, the largest greedy tour) and runs them again through knight's
public API, since runs.csv keeps nodes, not tours; ``write_into`` writes
their SVG files and ``tours.json`` (files and captions) into the folder;
``section`` is the REPORT.md section that shows them, read from those
files alone, so that redrawing a report (``make plots``) searches nothing.
"""

from dataclasses import dataclass

import knight
from bench.run_folder import record
from knight.harness_api import drawing, validate

TOURS = "tours.json"
BOARD = (8, 8)
# the report draws these small: five tours side by side in a page's width
WIDTH = 220
# a search the run did not make (a sweep of your own), tried from the start
# squares in turn within this many nodes
FALLBACK_BUDGET = 10**5


@dataclass(frozen=True)
class Picture:
    """One tour to draw: ``what`` names it in the report, ``result`` is
    the search run again; ``swept_nodes`` the nodes runs.csv recorded for
    it (None for a search the run did not make)."""

    what: str
    result: object
    swept_nodes: int | None = None

    @property
    def name(self):
        result = self.result
        closed = "-closed" if result.closed else ""
        return f"tour-{result.method}-{result.tiebreak}-{result.rows}x{result.cols}{closed}.svg"


def _again(row):
    """The search of a runs.csv row, run again: its tour."""
    start = (row.start_row - 1, row.start_col - 1)
    return knight.solve(row.rows, row.cols, start, row.method, row.budget, row.closed, row.tiebreak or "first")


def _choose(rows, method=None, closed=False, board=BOARD):
    """The found search of ``method`` (any, if None) on ``board`` that
    starts from the corner, else the one of fewest nodes; None if none."""
    found = [
        row for row in rows
        if row.status == "found" and row.closed == closed and (method is None or row.method == method)
        and (row.rows, row.cols) == board
    ]  # fmt: skip
    return min(found, key=lambda row: ((row.start_row, row.start_col) != (1, 1), row.nodes), default=None)


def _largest_board(rows, method, most=None):
    """The board of most squares (at most ``most``) on which ``method``
    found a tour in the run; None if none."""
    boards = [
        (row.rows, row.cols) for row in rows
        if row.method == method and row.status == "found" and (most is None or row.rows * row.cols <= most)
    ]  # fmt: skip
    return max(boards, key=lambda board: (board[0] * board[1], board), default=None)


def _searched(method, closed=False):
    """A tour of ``method`` on 8x8 from the first start square (row by
    row) that gives one within ``FALLBACK_BUDGET`` nodes; None if none."""
    for square in range(BOARD[0] * BOARD[1]):
        start = divmod(square, BOARD[1])
        result = knight.solve(*BOARD, start, method, FALLBACK_BUDGET, closed)
        if result.found:
            return result
    return None


def _one_tour(rows, what, method, closed):
    """A Picture of an 8x8 tour of ``method``: from the run, else searched,
    else of the run's largest board below 8x8 on which it found one (plain
    backtracking rarely finishes 8x8 within a budget); None if none."""
    row = _choose(rows, method, closed)
    if row is None:
        result = _searched(method or "warnsdorff", closed)
        if result is not None:
            return Picture(what, result)
        smaller = method and _largest_board([r for r in rows if r.closed == closed], method, BOARD[0] * BOARD[1])
        row = smaller and _choose(rows, method, closed, smaller)
    return None if row is None else Picture(what, _again(row), row.nodes)


def collect(folder):
    """The pictures of run ``folder``: an open 8x8 tour of each method, a
    closed 8x8 tour (see ``_one_tour``), and the largest board on which
    greedy found a tour in the run, drawn once each."""
    rows = record.read_runs(folder / record.RUNS)
    pictures = [_one_tour(rows, "", method, False) for method in validate.METHODS]
    pictures.append(_one_tour(rows, "closed tour", None, True))
    board = _largest_board(rows, "greedy")
    if board is not None:
        row = _choose(rows, "greedy", False, board) or _choose(rows, "greedy", True, board)
        pictures.append(Picture("largest greedy tour of the run", _again(row), row.nodes))
    unique = {picture.name: picture for picture in reversed([p for p in pictures if p is not None])}
    return list(reversed(unique.values()))


def write_into(folder, pictures):
    """Each picture's SVG, and ``tours.json`` listing them, into ``folder``."""
    listed = []
    for picture in pictures:
        drawing.write(str(folder / picture.name), drawing.result_parts(picture.result, WIDTH), None)
        listed.append(
            {
                "what": picture.what,
                "file": picture.name,
                "caption": caption(picture),
                "squares": picture.result.rows * picture.result.cols,
            }
        )
    record.write_json(folder / TOURS, {"tours": listed})
    return listed


def caption(picture):
    text = drawing.search_caption(picture.result)
    if picture.swept_nodes is None:
        return text + f" (searched for this report, from the first start that finds one in {FALLBACK_BUDGET:,} nodes)"
    if picture.swept_nodes is not None and picture.swept_nodes != picture.result.nodes:
        # the kernels are deterministic: a difference means the code changed since the sweep
        text += f" (the sweep's run of it placed {picture.swept_nodes:,})"
    return text


def section(folder):
    """REPORT.md's lines showing the tours in ``folder``'s tours.json; none
    if the run drew none."""
    if not (folder / TOURS).exists():
        return []
    listed = record.read_json(folder / TOURS)["tours"]
    lines = [
        "",
        "## Tours",
        "",
        "Tours some of the sweep's searches found, run again and drawn as `knight solve --svg` draws them: the "
        "path through the square centres, each square numbered with its step (the first green, the last red); "
        f"on boards over {drawing.NUMBERED_SIDE} a side the path alone, coloured from blue at the start to "
        "orange at the end, from a green disc to a red square. A closed tour's path returns to its start.",
        "",
    ]
    for tour in listed:
        line = f"**{tour['what']}**: {tour['caption']}" if tour["what"] else tour["caption"]
        lines += [f"![{tour['caption']}]({tour['file']})", "", line, ""]
    return lines
