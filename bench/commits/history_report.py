"""This module writes HISTORY.md and history.png from the rows of a history CSV.

Each workload's series compares knight's whole call with C's whole call
along the commits. The figure is throughput in CPU time with set-up included
on both sides, not kernel against kernel. The report also shows the steps
that bench/commits/steps.py finds in each series, and the commits that made
them.

``findings`` is the analysis, ``figure`` draws a table and returns the
figure (it never measures), ``markdown`` writes the page around both.
"""

import itertools
import math
import statistics
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from bench import figure_style
from bench.commits import steps
from knight.harness_api import atomic_write

MARKDOWN = "HISTORY.md"
FIGURE = "history.png"
# a step counts as outside the noise when it is larger than this many
# standard errors of the difference of its two levels (bench/steps.margin)
CONFIDENCE = 3.0
_DPI = 110


@dataclass(frozen=True)
class Finding:
    """A step in one workload's series, at the first commit of the new level."""

    workload: str
    commit: str
    short: str
    subject: str
    before: float
    after: float
    margin: float  # log units: smaller steps are within the repeat noise

    @property
    def size(self):
        return self.after / self.before - 1

    @property
    def outside_noise(self):
        return abs(math.log(self.after / self.before)) > self.margin


def table(points, listed, machine):
    """``{workload: [Point or None per commit of listed]}`` for one machine,
    in the order of the workloads as first seen."""
    here = {(point.commit, point.workload): point for point in points if point.machine == machine}
    workloads = list(dict.fromkeys(point.workload for point in points if point.machine == machine))
    return {workload: [here.get((commit, workload)) for commit in listed] for workload in workloads}


def _timed(series):
    return [point for point in series if point is not None and point.status == "ok"]


def findings(history):
    """Every step of every workload's series, oldest first per workload."""
    found = []
    for workload, series in history.items():
        timed = _timed(series)
        noises = [steps.point_noise(point.low, point.high, point.rounds) for point in timed]
        repeat = statistics.median(noises) if noises else 0.0
        for step in steps.detect([point.ratio for point in timed], noises):
            at = timed[step.index]
            margin = steps.margin(step, repeat, CONFIDENCE)
            found.append(Finding(workload, at.commit, at.short, at.subject, step.before, step.after, margin))
    return found


def _levels(series, found):
    """The fitted level at every timed point: the median between steps."""
    timed = _timed(series)
    cuts = [0] + [i for i, point in enumerate(timed) if any(f.commit == point.commit for f in found)] + [len(timed)]
    levels = []
    for a, b in itertools.pairwise(cuts):
        levels += [statistics.median(point.ratio for point in timed[a:b])] * (b - a)
    return levels


def figure(history, found, shorts):
    """Whole call / C's whole call against commit, one panel per workload, steps marked and named."""
    panels = max(len(history), 1)
    fig, axes = plt.subplots(panels, 1, figsize=(12, 2.6 * panels + 1), sharex=True, squeeze=False)
    positions = {short: x for x, short in enumerate(shorts)}
    for axes_, (workload, series) in zip(axes[:, 0], history.items(), strict=True):
        mine = [f for f in found if f.workload == workload]
        _panel(axes_, workload, series, mine, positions)
    axes[-1, 0].set_xticks(range(len(shorts)), shorts, rotation=90, fontsize=8, family="monospace")
    axes[-1, 0].set_xlabel("commit, oldest first")
    fig.suptitle("knight's throughput over C's, per commit (median of interleaved rounds; bars: middle half)")
    fig.tight_layout(rect=(0, 0, 1, 0.985))  # room for the title above the first panel
    return fig


def _panel(axes, workload, series, found, positions):
    timed = _timed(series)
    xs = [positions[point.short] for point in timed]
    ratios = [point.ratio for point in timed]
    errors = [[p.ratio - p.low for p in timed], [p.high - p.ratio for p in timed]]
    axes.errorbar(xs, ratios, yerr=errors, fmt="o", markersize=4, capsize=2, color="tab:blue", zorder=3)
    if timed:
        axes.step(xs, _levels(series, found), where="mid", color="tab:gray", linewidth=1, alpha=0.8)
    missing = [x for x, point in enumerate(series) if point is None or point.status != "ok"]
    for x in missing:
        axes.axvspan(x - 0.4, x + 0.4, color="0.9", zorder=0)
    for order, finding in enumerate(found):
        _mark(axes, positions[finding.short] - 0.5, finding, order)
    axes.set_title(workload, fontsize=9, loc="left")
    axes.set_ylabel("whole call / C's whole call")
    axes.grid(axis="y", alpha=0.3)
    top = max([p.high for p in timed], default=1.0)
    axes.set_ylim(0, top * 1.35)


def _mark(axes, x, finding, order):
    """A line at the step, named; successive names of a panel step down so they do not overlap."""
    colour = "tab:red" if finding.size < 0 else "tab:green"
    style = "-" if finding.outside_noise else ":"
    axes.axvline(x, color=colour, linestyle=style, linewidth=1.2)
    note = "" if finding.outside_noise else " (within noise)"
    text = f"{finding.short} {finding.size:+.0%}{note}\n{finding.subject[:34]}"
    axes.annotate(
        text,
        (x, 1),
        xycoords=("data", "axes fraction"),
        xytext=(3, -3 - 22 * order),
        textcoords="offset points",
        va="top",
        fontsize=7,
        color=colour,
        bbox={"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none", "alpha": 0.8},
    )


def _text(subject):
    """A commit subject inside a Markdown table cell."""
    return subject.replace("|", "\\|")


def _cell(point):
    if point is None:
        return ""
    return "missing" if point.status != "ok" else f"{point.ratio:.3f}"


def markdown(history, found, listed_points, machine, figure_name=FIGURE):
    """The text of HISTORY.md."""
    commits = [point for point in listed_points if point is not None]
    rounds = sorted({point.rounds for series in history.values() for point in _timed(series)})
    lines = [
        "# Speed history",
        "",
        f"Machine: {machine}. Each point is knight's whole call against C's whole call: knight's nodes per CPU "
        "second over the C baselines', each side's CPU time covering its whole call, set-up included (a C "
        "baseline allocates its scratch inside the call and builds its inputs in NumPy), so a point is not a "
        f"kernel against a kernel ({len(history)} workloads of bench/guard/workloads.py), median of "
        f"{', '.join(map(str, rounds)) or '-'} "
        "interleaved rounds, both timed in the same run, so points measured on different days compare. "
        f"{len(commits)} commits, oldest first; `python -m bench.commits.history` (`make bench-history`) wrote this.",
        "",
        f"![whole call against C's per commit]({figure_name})",
        "",
        "## Steps",
        "",
        "Found by bench/commits/steps.py (an exact L1 piecewise-constant fit of the log ratios, penalised in units "
        "of the measured noise). *before*, *after*: the median whole call / C's whole call of the commits on "
        "either side, up "
        f"to the next step. *Outside the noise*: the step is larger than {CONFIDENCE:g} standard errors of "
        "the difference of those two levels, as the repeat spread of the points (their middle half of rounds) "
        "puts it: the *margin*.",
        "",
        "| workload | commit | subject | before | after | step | margin | outside the noise |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for f in found:
        lines.append(
            f"| {f.workload} | `{f.short}` | {_text(f.subject)} | {f.before:.3f} | {f.after:.3f} | {f.size:+.1%} | "
            f"\u00b1{math.exp(f.margin) - 1:.1%} | {'yes' if f.outside_noise else 'no'} |"
        )
    if not found:
        lines.append("| no step found | | | | | | | |")
    lines += ["", "## Ratios", "", "| commit | " + " | ".join(history) + " |", "|---" * (len(history) + 1) + "|"]
    for index, point in enumerate(commits):
        cells = [_cell(series[index]) for series in history.values()]
        lines.append(f"| `{point.short}` {_text(point.subject[:50])} | " + " | ".join(cells) + " |")
    lines += _missing_notes(history)
    return "\n".join(lines) + "\n"


def _missing_notes(history):
    notes = []
    for series in history.values():
        for point in series:
            if point is not None and point.status != "ok":
                notes.append(f"- `{point.short}` {point.workload}: {point.note}")
    return ["", "## Missing", "", *notes] if notes else []


def _any_point_per_commit(history, count):
    """For each commit, one of its points (for its hash and subject), or None."""
    return [next((series[i] for series in history.values() if series[i] is not None), None) for i in range(count)]


def write(points, listed, machine, folder):
    """Write HISTORY.md and the figure into ``folder``; return their paths."""
    history = table(points, listed, machine)
    per_commit = _any_point_per_commit(history, len(listed))
    keep = [i for i, point in enumerate(per_commit) if point is not None]
    history = {workload: [series[i] for i in keep] for workload, series in history.items()}
    per_commit = [per_commit[i] for i in keep]
    found = findings(history)
    drawn = figure(history, found, [point.short for point in per_commit])
    picture = folder / FIGURE
    figure_style.save(drawn, picture, dpi=_DPI)
    page = folder / MARKDOWN
    text = markdown(history, found, per_commit, machine)
    atomic_write.replace(page, lambda file: file.write(text), shared=True)
    return page, picture
