"""The figures of a run: one pure function per figure, rows in, PNG out.

Every function takes the RunRecords of a run and a path, draws with
matplotlib's Agg backend and writes a PNG; none runs a search. A figure with
nothing to show still gets written, saying so, so that a run folder always
holds the same files.

Figures 1, 2, 4 and 5 plot square boards (n x n) against n; rectangles are
in the report's table and, when chosen, the heatmaps. Where a sweep sampled
one start per symmetry class, each sample counts once per square it stands
for.
"""

import itertools
import math
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")

# the rest is imported once the backend is chosen
import matplotlib.pyplot as plt
import numpy as np
from matplotlib import patheffects
from matplotlib.colors import LogNorm
from matplotlib.ticker import NullFormatter

from bench.run_folder.record import IMPOSSIBLE
from bench.studies import count_study
from bench.studies.count_worker import DONE, STOPPED
from knight.symmetry import symmetry_class

FIGURES = {
    "time": "1-time-vs-size.png",
    "nodes": "2-nodes-vs-size.png",
    "heatmaps": "3-heatmaps.png",
    "success": "4-success-vs-size.png",
    "throughput": "5-throughput.png",
}
VERSUS_FIGURE = "6-versus.png"
CORNERS_FIGURE = "7-corners.png"
COUNTS_FIGURE = "8-counts.png"
PREFERRED_HEATMAP_BOARDS = ((6, 6), (8, 8))

_DPI = 110
_OWN_POINT_UP_TO = 30
_POOL_EDGES = (31, 41, 51, 66, 81, 101, 131, 161, 201, 261, 331, 401, 501, 651, 801, 1001, 1301, 1601, 2001)
# one colour per line, the same in every figure
_PALETTE = plt.get_cmap("tab10").colors
# what each status looks like on a heatmap square
_MARKS = {"budget": "B", "none": "N", "dead-end": "D", IMPOSSIBLE: "\u00d7"}
_BAND_NOTE = "shaded: lowest to highest start square"
_HALO = [patheffects.withStroke(linewidth=2.5, foreground="white")]


def label(row):
    """How a line in a figure names the search: method, then what differs
    from the default (open tours, move-order ties)."""
    notes = []
    if row.closed:
        notes.append("closed")
    if row.tiebreak == "roth":
        notes.append("Roth ties")
    return row.method + (f" ({', '.join(notes)})" if notes else "")


def labels(rows):
    """Every label, in a fixed order: method, then variants."""
    return sorted({label(row) for row in rows}, key=lambda name: (name.split()[0], name))


def _colours(rows):
    return {name: _PALETTE[i % len(_PALETTE)] for i, name in enumerate(labels(rows))}


def _by_label_and_size(rows, value):
    """{label: {n: weighted values}} over the searched runs on n x n boards."""
    series = defaultdict(lambda: defaultdict(list))
    for row in rows:
        if row.square and row.searched:
            number = value(row)
            if number is not None:
                series[label(row)][row.rows].extend([number] * row.represents)
    return series


def _figure(title, xlabel, ylabel, size=(8, 5)):
    figure, axes = plt.subplots(figsize=size, layout="constrained")
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.grid(True, which="major", alpha=0.3)
    return figure, axes


def _save(figure, path):
    figure.savefig(path, dpi=_DPI)
    plt.close(figure)
    return path


def _board_side_axis(axes, sizes):
    """Log scale in n, labelled with plain round numbers, not powers of 10."""
    axes.set_xscale("log")
    ticks = [
        t for t in (5, 6, 8, 10, 15, 20, 30, 50, 100, 200, 300, 500, 1000, 2000, 5000) if min(sizes) <= t <= max(sizes)
    ]
    axes.set_xticks(ticks or sorted(sizes), [str(t) for t in (ticks or sorted(sizes))])
    axes.xaxis.set_minor_formatter(NullFormatter())


def _nothing_to_show(axes, text):
    axes.text(0.5, 0.5, text, ha="center", va="center", transform=axes.transAxes, color="grey")


def _median_band_figure(rows, value, title, ylabel):
    """One line per search: the median over start squares, shaded from the
    lowest to the highest start square."""
    figure, axes = _figure(title, "board side n (n x n board)", ylabel)
    series = _by_label_and_size(rows, value)
    colours = _colours(rows)
    for name in labels(rows):
        if name not in series:
            continue
        sizes = sorted(series[name])
        values = [np.asarray(series[name][n], dtype=float) for n in sizes]
        colour = colours[name]
        axes.plot(
            sizes, [np.median(v) for v in values], marker=".", markersize=4, linewidth=1.2, color=colour, label=name
        )
        axes.fill_between(sizes, [v.min() for v in values], [v.max() for v in values], color=colour, alpha=0.15)
    if series:
        _board_side_axis(axes, [n for by_size in series.values() for n in by_size])
        axes.set_yscale("log")
        axes.legend(fontsize="small", title=_BAND_NOTE, title_fontsize="small")
    else:
        _nothing_to_show(axes, "no searches on square boards in this run")
    return figure, axes, series


def _save_band(rows, path, value, title, ylabel):
    """A median-and-band figure of ``value`` against n, as a PNG at ``path``."""
    figure, _, _ = _median_band_figure(rows, value, title, ylabel)
    return _save(figure, path)


def time_vs_size(rows, path):
    """Figure 1: seconds per search against n, per search method."""
    title = "Search time vs board size (line: median over start squares)"
    ylabel = "seconds per search (median of repeats, kernel only)"
    return _save_band(rows, path, lambda row: row.median_s, title, ylabel)


def nodes_vs_size(rows, path):
    """Figure 2: nodes per search against n, with n^2 (one node per square)
    and every node budget that some search hit."""
    figure, axes, series = _median_band_figure(
        rows,
        lambda row: row.nodes,
        "Search nodes vs board size (line: median over start squares)",
        "nodes placed per search (log scale)",
    )
    if series:
        sizes = np.array(sorted({n for by_size in series.values() for n in by_size}), dtype=float)
        axes.plot(sizes, sizes**2, color="black", linestyle="--", linewidth=1, label="n\u00b2: each square once")
        budgets = sorted({row.budget for row in rows if row.square and row.status == "budget"})
        for budget in budgets:
            axes.axhline(budget, color="grey", linestyle=":", linewidth=1)
            axes.annotate(f"budget {budget:.0e}", (sizes[0], budget), fontsize="x-small", color="grey", va="bottom")
        axes.legend(fontsize="small", title=_BAND_NOTE, title_fontsize="small")
    return _save(figure, path)


def _pooled(n):
    """The group of board sides that share one point of the success figure:
    n itself up to 30, then ranges about a quarter wide, because a size with
    one start square searched can only score 0 or 100%."""
    if n <= _OWN_POINT_UP_TO:
        return n
    for low, high in itertools.pairwise(_POOL_EDGES):
        if low <= n < high:
            return low
    return n


def success_vs_size(rows, path):
    """Figure 4: the share of start squares from which a tour was found,
    among those where theory allows one."""
    figure, axes = _figure(
        f"Success rate vs board size (past n = {_OWN_POINT_UP_TO}, neighbouring sizes pooled)",
        "board side n (n x n board)",
        "tours found / start squares where one can exist (%)",
    )
    found = defaultdict(lambda: defaultdict(int))
    possible = defaultdict(lambda: defaultdict(int))
    sides = defaultdict(lambda: defaultdict(set))
    for row in rows:
        if row.square and row.status != IMPOSSIBLE:
            group = _pooled(row.rows)
            possible[label(row)][group] += row.represents
            found[label(row)][group] += row.represents * (row.status == "found")
            sides[label(row)][group].add(row.rows)
    colours = _colours(rows)
    for name in labels(rows):
        if name in possible:
            groups = sorted(possible[name])
            # a pooled point sits at the geometric mean of the sizes in it
            where = [float(np.exp(np.mean(np.log(sorted(sides[name][g]))))) for g in groups]
            rates = [100 * found[name][g] / possible[name][g] for g in groups]
            axes.plot(where, rates, marker=".", markersize=5, linewidth=1.2, color=colours[name], label=name)
    if possible:
        _board_side_axis(axes, [n for by_size in sides.values() for group in by_size.values() for n in group])
        axes.set_ylim(-5, 105)
        axes.legend(fontsize="small")
    else:
        _nothing_to_show(axes, "no searches on square boards in this run")
    return _save(figure, path)


def throughput(rows, path):
    """Figure 5: nodes placed per second of kernel time, median over starts."""
    title = "Throughput vs board size (line: median over start squares)"
    ylabel = "nodes per second of kernel time (log scale)"
    return _save_band(rows, path, lambda row: row.nodes_per_s, title, ylabel)


def covered_boards(rows):
    """Boards on which some search covered every start square (directly or
    through its symmetry class), largest last."""
    covered = defaultdict(set)
    for row in rows:
        covered[(row.rows, row.cols, label(row))].update(_squares_of(row))
    return sorted(
        {(r, c) for (r, c, _), squares in covered.items() if len(squares) == r * c},
        key=lambda board: (board[0] * board[1], board),
    )


def _squares_of(row):
    start = (row.start_row - 1, row.start_col - 1)
    return symmetry_class(row.rows, row.cols, start) if row.represents > 1 else [start]


def heatmap_boards(rows, wanted=None):
    """The boards to draw: ``wanted`` where covered, else 6x6 and 8x8, else
    the two largest covered boards."""
    covered = covered_boards(rows)
    for choice in (wanted or (), PREFERRED_HEATMAP_BOARDS):
        chosen = [tuple(board) for board in choice if tuple(board) in covered]
        if chosen:
            return chosen
    return covered[-2:]


def heatmap_labels(rows):
    """One panel per method: open tours with move-order ties, where the run
    has them, since the figure compares methods; else every variant."""
    base = labels([row for row in rows if not row.closed and row.tiebreak in ("", "first")])
    return base or labels(rows)


def _grid(rows, board, name):
    """(nodes, status) grids of one board and search; None where not run."""
    nodes = np.full(board, np.nan)
    statuses = np.full(board, "", dtype=object)
    for row in rows:
        if (row.rows, row.cols) == board and label(row) == name:
            for square in _squares_of(row):
                nodes[square] = row.nodes if row.nodes > 0 else np.nan
                statuses[square] = row.status
    return nodes, statuses


def heatmaps(rows, path, boards=None):
    """Figure 3: nodes per start square (log colour) on chosen boards, one
    panel per search method; budget hits, exhausted searches, greedy dead
    ends and starts ruled out by theory marked by letter."""
    boards = heatmap_boards(rows, boards)
    names = [name for name in heatmap_labels(rows) if any(_grid(rows, board, name)[1].any() for board in boards)]
    if not boards or not names:
        figure, axes = _figure("Nodes per start square", "", "")
        axes.set_axis_off()
        _nothing_to_show(axes, "no board had every start square searched in this run")
        return _save(figure, path)
    grids = {(board, name): _grid(rows, board, name) for board in boards for name in names}
    values = [v for nodes, _ in grids.values() for v in nodes.flat if not math.isnan(v)]
    norm = LogNorm(vmin=max(1, min(values)), vmax=max(2, max(values))) if values else None
    figure, axes = plt.subplots(
        len(boards),
        len(names),
        figsize=(3.1 * len(names) + 1, 3.1 * len(boards) + 0.9),
        squeeze=False,
        layout="constrained",
    )
    cmap = plt.get_cmap("viridis").with_extremes(bad="lightgrey")
    image = None
    for i, board in enumerate(boards):
        for j, name in enumerate(names):
            image = _heatmap_panel(axes[i][j], *grids[(board, name)], cmap, norm)
            axes[i][j].set_title(f"{name}, {board[0]}x{board[1]}", fontsize="small")
    figure.colorbar(image, ax=axes, label="nodes placed from this start (log scale)", shrink=0.8)
    figure.suptitle("Nodes per start square (row 1 at the top, as the knight command prints boards)")
    legend = (
        "B: hit the node budget   N: no tour from here (search exhausted)   D: greedy dead end   "
        "\u00d7: ruled out by theory   grey: not searched"
    )
    figure.text(0.5, 0.005, legend, ha="center", va="bottom", fontsize="small")
    figure.get_layout_engine().set(rect=(0, 0.04, 1, 0.96))
    return _save(figure, path)


def _heatmap_panel(axes, nodes, statuses, cmap, norm):
    image = axes.imshow(np.ma.masked_invalid(nodes), cmap=cmap, norm=norm)
    rows, cols = nodes.shape
    axes.set_xticks(range(cols), [str(c + 1) for c in range(cols)], fontsize="x-small")
    axes.set_yticks(range(rows), [str(r + 1) for r in range(rows)], fontsize="x-small")
    for (r, c), status in np.ndenumerate(statuses):
        mark = _MARKS.get(status)
        if mark:
            # a white halo keeps the letter readable on every colour
            axes.text(c, r, mark, ha="center", va="center", fontsize="small", fontweight="bold", path_effects=_HALO)
    return image


def draw_all(rows, folder, heatmap_boards_wanted=None):
    """Every figure of a run into ``folder``; returns {figure: path}."""
    return {
        "time": time_vs_size(rows, folder / FIGURES["time"]),
        "nodes": nodes_vs_size(rows, folder / FIGURES["nodes"]),
        "heatmaps": heatmaps(rows, folder / FIGURES["heatmaps"], heatmap_boards_wanted),
        "success": success_vs_size(rows, folder / FIGURES["success"]),
        "throughput": throughput(rows, folder / FIGURES["throughput"]),
    }


_SIDE_COLOURS = {"numba": _PALETTE[0], "c": _PALETTE[1], "python": _PALETTE[2]}
_SIDE_NAMES = {"numba": "knight (Numba)", "c": "C (cc -O3 -march=native)", "python": "plain Python"}


def versus(measured, path):
    """Figure 6: nodes per second of each implementation on each workload,
    grouped bars on a log axis. ``measured`` is versus.json's content."""
    rows = measured["workloads"]
    names = [name for name in _SIDE_NAMES if any(name in row["sides"] for row in rows)]
    figure, axes = _figure(
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
    return _save(figure, path)


def _workload_label(row):
    shape = "closed" if row["closed"] else "open"
    row_, col = row["start"]
    return f"{row['group']} {shape} from {row_},{col}"


def corners(measured, path):
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
        failed = [board["n"] for board in boards if board[f"greedy-{tiebreak}"][0] != "found"]
        walks.plot(failed, [row] * len(failed), "|", markersize=14, color=_PALETTE[row], label=f"ties: {tiebreak}")
    walks.set_yticks([0, 1], ["first", "roth"])
    walks.set_ylim(-0.6, 1.6)
    walks.set_ylabel("greedy\ndead ends")
    walks.grid(True, axis="x", alpha=0.3)
    for row, tiebreak in enumerate(("first", "roth")):
        ratio = [board[f"warnsdorff-{tiebreak}"][1] / board["n"] ** 2 for board in boards]
        searches.plot(sides, ratio, ".", markersize=3, color=_PALETTE[row], label=f"ties: {tiebreak}")
    searches.axhline(measured["budget_factor"], color="grey", linestyle=":", label="node budget")
    searches.set_ylim(0.9, measured["budget_factor"] + 0.1)
    searches.set_ylabel("nodes / n\u00b2 (1: never stepped back)")
    searches.set_xlabel("board side n (board n x n)")
    searches.grid(True, which="major", alpha=0.3)
    searches.legend(loc="upper left", fontsize="small")
    return _save(figure, path)


# one line style and marker per series of the counting study, in its order
_SERIES_STYLES = (("o", "-"), ("s", "--"), ("^", "-."), ("D", ":"))
_SQUARE_TICKS = (12, 16, 20, 25, 30, 36, 42, 49, 60, 80, 100)


def _work(row):
    """A count's work: the DFS's nodes, the DP's transitions."""
    return row["work"].get("nodes", row["work"].get("transitions"))


def counts(measured, path):
    """Figure 8: time and work of each counting engine against the board's
    squares, one line per engine and series, log-log; a count stopped at
    its cap is a cross on the cap's line, and a star marks where the DP's
    grid overtakes the pruned DFS in each series. ``measured`` is
    counts.json's content."""
    figure, (timed, worked) = plt.subplots(1, 2, figsize=(13, 5.5), layout="constrained")
    figure.suptitle("Counting every open tour: DFS (plain, pruned) against the frontier DP")
    engines = count_study.engines_of(measured)
    colours = {name: _PALETTE[i] for i, name in enumerate(engines)}
    styles = {name: _SERIES_STYLES[i % len(_SERIES_STYLES)] for i, name in enumerate(measured["series"])}
    sizes, marked = set(), set()  # squares of the counts that finished; and of those stopped
    for series in measured["series"]:
        marker, line = styles[series]
        for name in engines:
            rows = count_study.series_rows(measured, series, name)
            done = [row for row in rows if row["status"] == DONE]
            stopped = [row for row in rows if row["status"] == STOPPED]
            squares = [row["rows"] * row["cols"] for row in done]
            sizes.update(squares)
            marked.update(row["rows"] * row["cols"] for row in stopped)
            common = dict(color=colours[name], marker=marker, linestyle=line, markersize=4, linewidth=1.1)
            timed.plot(squares, [row["seconds"] for row in done], **common)
            # no work at all (the DP drops every state of a board without tours) has no place on a log axis
            working = [row for row in done if _work(row) > 0]
            worked.plot([row["rows"] * row["cols"] for row in working], [_work(row) for row in working], **common)
            cap = measured["engines"][name]["seconds"]
            timed.plot([row["rows"] * row["cols"] for row in stopped], [cap] * len(stopped), "x",
                       color=colours[name], markersize=8)
    for name in engines:
        timed.axhline(measured["engines"][name]["seconds"], color=colours[name], linestyle=":", linewidth=0.8)
    _mark_crossovers(timed, measured)
    for axes, ylabel in ((timed, "seconds per count (log)"), (worked, "work: DFS nodes, DP transitions (log)")):
        axes.set_xlabel("squares on the board (log)")
        axes.set_ylabel(ylabel)
        axes.grid(True, which="major", alpha=0.3)
        if sizes:
            axes.set_xscale("log")
            axes.set_yscale("log")
            ticks = [t for t in _SQUARE_TICKS if min(sizes | marked) <= t <= max(sizes | marked)]
            axes.set_xticks(ticks, [str(t) for t in ticks])
            axes.xaxis.set_minor_formatter(NullFormatter())
    if not sizes:
        _nothing_to_show(timed, "no count finished in this run")
    timed.set_title("time (dotted: each engine's time cap; x: stopped at it)", fontsize="small")
    worked.set_title("work", fontsize="small")
    handles = [plt.Line2D([], [], color=colours[name], label=count_study.LABELS[name]) for name in engines]
    handles += [plt.Line2D([], [], color="grey", marker=styles[series][0], linestyle=styles[series][1],
                           label=series) for series in measured["series"]]
    handles.append(plt.Line2D([], [], color="black", marker="*", linestyle="", markersize=11,
                              label="DP grid overtakes DFS pruned"))
    worked.legend(handles=handles, loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small")
    return _save(figure, path)


def _mark_crossovers(axes, measured):
    for series in measured["series"]:
        found = count_study.crossover(measured, series)
        if found is None or not found[1]:  # none, or the DP's grid was faster from the first board
            continue
        board, _ = found
        row = next(row for row in count_study.series_rows(measured, series, count_study.DP)
                   if (row["rows"], row["cols"]) == board)
        where = (board[0] * board[1], row["seconds"])
        axes.plot(*where, "*", color="black", markersize=13, zorder=5)
        axes.annotate(f"{board[0]}x{board[1]}", where, textcoords="offset points", xytext=(6, -12),
                      fontsize="small", path_effects=_HALO)
