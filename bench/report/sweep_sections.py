"""This module writes the sections of REPORT.md on the sweep itself, from the records of runs.csv alone.

The sections hold the sweep's figures with their notes, the summary for each
search and board, and the notable findings."""

import statistics
from collections import defaultdict

from bench.report.sweep_figures import label, labels
from bench.run_folder import record
from bench.text_cells import count_text, markdown_table, rate_text, seconds_text
from knight import symmetry_class

# square boards up to this side get a row of their own in the summary; larger
# ones are grouped into these ranges of n
_OWN_ROW_UP_TO = 12
_SIZE_RANGES = ((13, 20), (21, 30), (31, 50), (51, 100), (101, 200), (201, 400), (401, 1000), (1001, 2000))
_HARDEST = 3

_FIGURE_NOTES = {
    "time": "Kernel seconds per search against the board side n, log-log. The line is the median over the "
    "start squares searched on that board (in the default sweep: every start up to n = 30, the corners "
    "beyond); the shaded band runs from the fastest start to the slowest.",
    "nodes": "Nodes placed per search (the machine-independent measure of work), same layout. The dashed line "
    "is n\u00b2, one node per square: a search on it never stepped back. Dotted lines are node budgets that "
    "some search hit; a median there means most starts gave up.",
    "heatmaps": "Each square is a start square, coloured by the nodes its search placed (log scale). Letters "
    "mark searches that did not find a tour: B budget hit, N no tour from there, D greedy dead end, "
    "\u00d7 ruled out by theory (colour parity, or no tour on the board).",
    "success": "The share of start squares from which a tour was found, out of those where theory allows "
    "one. Greedy from the corner is all-or-nothing per board, so its line jumps between 0 and 100.",
    "throughput": "Nodes per second of kernel time: how fast each kernel works, independent of how much "
    "work the start square demands. Searches of a few dozen nodes are dominated by call overhead.",
}


def size_group(row):
    """The summary row a record belongs to: its board, or a range of n."""
    if not row.square:
        return (row.rows * row.cols, f"{row.rows}x{row.cols}")
    if row.rows <= _OWN_ROW_UP_TO:
        return (row.rows * row.cols, f"{row.rows}x{row.cols}")
    for low, high in _SIZE_RANGES:
        if low <= row.rows <= high:
            return (low * low, f"n = {low}..{high}")
    return (row.rows * row.cols, f"{row.rows}x{row.cols}")


def _weighted(rows, value):
    return [value(row) for row in rows for _ in range(row.represents)]


def _median(values):
    return statistics.median(values) if values else None


def _boards(count):
    return f"{count} board" + ("" if count == 1 else "s")


def summary_table(rows):
    """One line per search method and board (or range of n)."""
    groups = defaultdict(list)
    for row in rows:
        groups[(label(row), *size_group(row))].append(row)
    lines = []
    order = {name: i for i, name in enumerate(labels(rows))}
    for (name, _, board), members in sorted(groups.items(), key=lambda item: (order[item[0][0]], item[0][1])):
        searched = [row for row in members if row.searched]
        count = defaultdict(int)
        for row in members:
            count[row.status] += row.represents
        spreads = [(row.max_s - row.min_s) / row.median_s for row in searched if row.median_s]
        lines.append(
            (
                name,
                board,
                len({(row.rows, row.cols) for row in members}),
                sum(row.represents for row in members),
                *(count[word] for word in (*record.SEARCHED, record.IMPOSSIBLE)),
                count_text(_median(_weighted(searched, lambda row: row.nodes))),
                seconds_text(_median(_weighted(searched, lambda row: row.median_s))),
                seconds_text(max((row.median_s for row in searched), default=None)),
                rate_text(_median(_weighted(searched, lambda row: row.nodes_per_s))),
                f"{100 * statistics.median(spreads):.0f}%" if spreads else "",
            )
        )
    header = (
        "search",
        "board",
        "boards",
        "starts",
        *record.SEARCHED,
        record.IMPOSSIBLE,
        "median nodes",
        "median time",
        "slowest",
        "median nodes/s",
        "repeat spread",
    )
    return markdown_table(header, lines)


def hardest_starts(rows):
    """For each backtracking search, the starts that cost the most nodes per
    square of their board while still finishing within the budget (budget
    hits are listed apart). Greedy never steps back, so it has none."""
    lines = []
    for name in labels(rows):
        finished = [
            row
            for row in rows
            if label(row) == name and row.method != "greedy" and row.searched and row.status != record.BUDGET
        ]
        for row in sorted(finished, key=lambda row: (-row.nodes / (row.rows * row.cols), row.rows))[:_HARDEST]:
            start = f"{row.start_row},{row.start_col}"
            per_square = f"{row.nodes / (row.rows * row.cols):,.0f}"
            board = f"{row.rows}x{row.cols}"
            time = seconds_text(row.median_s)
            lines.append((name, board, start, count_text(row.nodes), per_square, row.status, time))
    header = ("search", "board", "start (row,col)", "nodes", "nodes per square", "status", "median time")
    return markdown_table(header, lines)


def greedy_corner_failures(rows):
    """For each greedy variant: the smallest n whose walk from square 1,1
    dead-ends, and how often it did among the sizes tried."""
    findings = []
    for name in labels(rows):
        corner = sorted(
            (
                row
                for row in rows
                if label(row) == name
                and row.method == "greedy"
                and row.square
                and (row.start_row, row.start_col) == (1, 1)
                and row.searched
            ),
            key=lambda row: row.rows,
        )
        if not corner:
            continue
        failed = [row.rows for row in corner if row.status != record.FOUND]
        tried = f"{len(corner)} sizes from {corner[0].rows} to {corner[-1].rows}"
        if failed:
            shown = ", ".join(map(str, failed[:8])) + (", ..." if len(failed) > 8 else "")
            findings.append(
                f"- **{name}** from the corner first fails at **n = {failed[0]}**; it failed on "
                f"{len(failed)} of {tried} ({shown})."
            )
        else:
            findings.append(f"- **{name}** from the corner found a tour on all {tried}.")
    return findings


def budget_hits(rows):
    findings = []
    for name in labels(rows):
        searched = [row for row in rows if label(row) == name and row.searched]
        hits = [row for row in searched if row.status == record.BUDGET]
        if hits:
            boards = sorted({(row.rows, row.cols) for row in hits}, key=lambda b: (b[0] * b[1], b))
            shown = ", ".join(f"{r}x{c}" for r, c in boards[:10]) + (", ..." if len(boards) > 10 else "")
            budgets = ", ".join(f"{b:,}" for b in sorted({row.budget for row in hits}))
            findings.append(
                f"- **{name}** hit its node budget ({budgets}) on {sum(r.represents for r in hits)} of "
                f"{sum(r.represents for r in searched)} start squares searched, on {_boards(len(boards))}: {shown}."
            )
    return findings or ["- No search hit its node budget."]


def proved_none(rows):
    proven = [row for row in rows if row.status == record.NONE]
    if not proven:
        return []
    boards = sorted({(row.rows, row.cols, label(row)) for row in proven})
    return [
        f"- Searches that exhausted every path and proved no tour starts there, though theory allows one: "
        f"{sum(row.represents for row in proven)} starts ("
        + ", ".join(f"{name} on {r}x{c}" for r, c, name in boards[:8])
        + (", ..." if len(boards) > 8 else "")
        + ")."
    ]


def symmetry_table(rows):
    """How often squares of one symmetry class disagree, on boards where
    every square of a class was searched: the evidence that a search which
    stops at its first tour is not symmetric."""
    by_square = {(label(row), row.rows, row.cols, row.start_row - 1, row.start_col - 1): row for row in rows}
    counts = defaultdict(lambda: [0, 0, 0])
    for (name, r, c, row_, col_), row in by_square.items():
        members = symmetry_class(r, c, (row_, col_))
        if row.represents > 1 or members[0] != (row_, col_) or len(members) == 1:
            continue
        found = [by_square.get((name, r, c, *square)) for square in members]
        if any(other is None or not other.searched for other in found):
            continue
        tally = counts[name]
        tally[0] += 1
        tally[1] += len({other.nodes for other in found}) > 1
        tally[2] += len({other.status for other in found}) > 1
    lines = [(name, *counts[name]) for name in labels(rows) if name in counts]
    if not lines:
        return None
    header = ("search", "classes searched square by square", "node counts differ", "statuses differ")
    return markdown_table(header, lines)


_FIGURE_TITLES = {
    "time": "Time vs board size",
    "nodes": "Nodes vs board size",
    "heatmaps": "Nodes per start square",
    "success": "Success rate vs board size",
    "throughput": "Throughput",
}


def figures_section(figures):
    """REPORT.md's part on the sweep's figures ({figure: path}), each with its note."""
    parts = ["## Figures", ""]
    for key, path in figures.items():
        title = _FIGURE_TITLES[key]
        parts += [f"### {title}", "", _FIGURE_NOTES[key], "", f"![{title}]({path.name})", ""]
    return parts


def findings_section(rows):
    """REPORT.md's summary per search and board, and its notable findings."""
    sampled = any(row.represents > 1 for row in rows)
    parts = [
        "## Summary per search and board",
        "",
        "Counts are start squares. *none*: the search exhausted every path, no tour starts there. "
        "*impossible*: ruled out by theory, not searched. *repeat spread*: median of (slowest - fastest) / "
        "median over the repeats of a run, a measure of timing noise.",
        "",
        summary_table(rows),
        "",
        "## Notable findings",
        "",
        "Hardest start squares for each search that backtracks: the most nodes per square of the board among "
        "searches that finished within their budget.",
        "",
        hardest_starts(rows),
        "",
        *greedy_corner_failures(rows),
        *budget_hits(rows),
        *proved_none(rows),
    ]
    symmetric = symmetry_table(rows)
    if symmetric:
        parts += [
            "",
            "Start squares that a rotation or reflection of the board maps onto each other have the same tours, "
            "but a search that stops at its first tour follows a fixed move order, which the board's symmetries "
            "do not preserve. "
            "Classes of two or more squares, every square searched:",
            "",
            symmetric,
        ]
    if sampled:
        parts += [
            "- Starts were sampled one per symmetry class. Tour counts and existence are the same across a "
            "class, but a search that stops at its first tour follows the fixed move order, so the other "
            "squares of a class can take a different number of nodes: the heatmaps show the sample's value "
            "on every square of its class.",
        ]
    return parts
