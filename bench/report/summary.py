"""This module writes the summary that a report opens with.

The summary gives the largest board that each search method solved and its
throughput, Numba against clang-C and CPython, and the counts with their
times.

``section`` writes the lines that REPORT.md starts with, each linking to
the figure or table below it that holds the detail. ``linked`` gives
index.html the same links: it turns those Markdown links to anchors into
HTML links, and it marks every heading with the anchor that GitHub gives
it.
"""

import html
import re
import statistics

from bench.report.sweep_figures import label, labels
from bench.text_cells import rate_text, seconds_text

HEADING = "## At a glance"
# the headings of the sections below that the summary links to
SWEEP_TABLE = "Summary per search and board"
THROUGHPUT = "Throughput"
VERSUS = "Numba against gcc, clang, Cython, PyPy and CPython"
COUNTS = "Counting: the DFS against the frontier DP"
# the toolchains the summary compares Numba with: clang-C (or, where the
# run found no clang, the C it had) and CPython
RIVALS = (("clang", "gcc", "c"), ("python",))
# a run folder's status words, from counts.json
_DONE = "done"


def anchor(heading):
    """GitHub's anchor of a heading's text: lower case, punctuation dropped
    but for hyphens and underscores, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.replace("`", "").replace("*", "").strip().lower())
    return text.replace(" ", "-")


def _link(text, heading):
    return f"[{text}](#{anchor(heading)})"


def _board(rows, cols):
    return f"{rows}x{cols}"


def method_lines(rows, figures):
    """A line per search method: the largest board on which it found a
    tour, and its median throughput there."""
    target = THROUGHPUT if "throughput" in figures else SWEEP_TABLE
    lines = []
    for name in labels(rows):
        found = [row for row in rows if label(row) == name and row.status == "found"]
        if not found:
            lines.append(f"- **{name}** found no tour in this run ({_link('table', SWEEP_TABLE)}).")
            continue
        largest = max(found, key=lambda row: (row.rows * row.cols, row.rows))
        there = [row.nodes_per_s for row in found if (row.rows, row.cols) == (largest.rows, largest.cols)]
        rate = rate_text(statistics.median(there))
        lines.append(
            f"- **{name}**: largest board solved {_board(largest.rows, largest.cols)}, "
            f"at {rate} nodes/s there ({_link('figure', target)})."
        )
    return lines


def _ratios(measured, rival):
    """Numba's throughput over ``rival``'s on each headline search."""
    from bench.studies.versus import versus_report

    found = []
    for row in measured["workloads"]:
        if row.get("headline", True) and (value := versus_report.ratio(row, "numba", rival)) is not None:
            found.append(value[0])
    return found


def _times(ratio):
    """A ratio to two decimals near 1, whole where it is 10 or more."""
    return f"{ratio:.2f}" if ratio < 10 else f"{ratio:.0f}"


def versus_line(measured):
    """Numba against clang-C and CPython, or why the run has no such line."""
    if measured is None:
        return "- **Numba against C**: not measured in this run (`make bench` measures it)."
    from bench.studies.versus.versus_report import NAMES

    parts = []
    for choices in RIVALS:
        found = next(((rival, ratios) for rival in choices if (ratios := _ratios(measured, rival))), None)
        if found is None:
            parts.append(f"{NAMES[choices[0]]} not measured")
            continue
        rival, ratios = found
        missing = "" if rival == choices[0] else f"{NAMES[choices[0]]} not measured; "
        spread = "" if len(ratios) == 1 else f" (median; {_times(min(ratios))}-{_times(max(ratios))})"
        parts.append(f"{missing}{_times(statistics.median(ratios))}x {NAMES[rival]}{spread}")
    searches = sum(1 for row in measured["workloads"] if row.get("headline", True))
    return (
        f"- **Numba's throughput** over {searches} searches: {', '.join(parts)} ({_link('figure and table', VERSUS)})."
    )


def _engine(name):
    from bench.studies.counts import count_report

    return count_report.LABELS.get(name, name)


def count_lines(measured):
    """For each series of the counting study, the largest board counted,
    its tours and the fastest engine's time."""
    if measured is None:
        return ["- **Counts**: not measured in this run (`make bench` measures them)."]
    lines = []
    for series in measured["series"]:
        done = [row for row in measured["rows"] if row["series"] == series and row["status"] == _DONE]
        if not done:
            lines.append(f"- **Counts, {series}**: no board counted within the caps.")
            continue
        size = max(row["rows"] * row["cols"] for row in done)
        fastest = min((row for row in done if row["rows"] * row["cols"] == size), key=lambda row: row["seconds"])
        lines.append(
            f"- **Counts, {series}**: {_board(fastest['rows'], fastest['cols'])} has {fastest['tours']:,} open "
            f"tours, counted in {seconds_text(fastest['seconds'])} by {_engine(fastest['engine'])} "
            f"({_link('figure and table', COUNTS)})."
        )
    return lines


def section(rows, figures, studied):
    """REPORT.md's opening lines. ``rows``: the sweep's RunRecords;
    ``figures``: its figures, {key: path}; ``studied``: {study name: what
    its file holds} for the studies the run has."""
    return [
        HEADING,
        "",
        *method_lines(rows, figures),
        versus_line(studied.get("versus")),
        *count_lines(studied.get("counts")),
        "",
    ]


_LINK = re.compile(r"\[([^\[\]<>]+)\]\(#([\w-]+)\)")
_HEADING = re.compile(r"<h([1-6])>(.*?)</h\1>")


def _heading_id(match):
    text = html.unescape(re.sub(r"<[^>]+>", "", match[2]))
    return f'<a id="{anchor(text)}"></a>{match[0]}'


def linked(body):
    """index.html's body with the links to anchors made HTML links, and an
    anchor before every heading. Only ``#anchor`` targets of word characters and
    hyphens become links, so no text of a run can add another target."""
    return _HEADING.sub(_heading_id, _LINK.sub(r'<a href="#\2">\1</a>', body))
