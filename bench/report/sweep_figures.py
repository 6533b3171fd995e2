"""This module draws the sweep's own figures, 1 to 5, each by one pure function from rows to a PNG.

Every function takes the RunRecords of a run and a path, draws with
matplotlib's Agg backend and writes a PNG; none runs a search. A figure with
nothing to show still gets written, saying so, so that a run folder always
holds the same files. Each study draws its own figure (bench/studies/).

Figures 1, 2, 4 and 5 plot square boards (n x n) against n; rectangles are
in the report's table and, when chosen, the heatmaps. Where a sweep sampled
one start per symmetry class, each sample counts once per square it stands
for.
"""

import itertools
import math
from collections import defaultdict

import numpy as np
from matplotlib.colors import LogNorm
from matplotlib.ticker import NullFormatter

from bench import figure_style
from bench.figure_style import plt
from bench.run_folder import record
from knight import symmetry_class

FIGURES = {
    "time": "1-time-vs-size.png",
    "nodes": "2-nodes-vs-size.png",
    "heatmaps": "3-heatmaps.png",
    "success": "4-success-vs-size.png",
    "throughput": "5-throughput.png",
}
PREFERRED_HEATMAP_BOARDS = ((6, 6), (8, 8))

_OWN_POINT_UP_TO = 30
_POOL_EDGES = (31, 41, 51, 66, 81, 101, 131, 161, 201, 261, 331, 401, 501, 651, 801, 1001, 1301, 1601, 2001)
# what each status looks like on a heatmap square
_MARKS = {record.BUDGET: "B", record.NONE: "N", record.DEAD_END: "D", record.IMPOSSIBLE: "\u00d7"}
_BAND_NOTE = "shaded: lowest to highest start square"


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
    return {name: figure_style.PALETTE[i % len(figure_style.PALETTE)] for i, name in enumerate(labels(rows))}


def _by_label_and_size(rows, value):
    """{label: {n: weighted values}} over the searched runs on n x n boards."""
    series = defaultdict(lambda: defaultdict(list))
    for row in rows:
        if row.square and row.searched:
            number = value(row)
            if number is not None:
                series[label(row)][row.rows].extend([number] * row.represents)
    return series


def _board_side_axis(axes, sizes):
    """Log scale in n, labelled with plain round numbers, not powers of 10."""
    axes.set_xscale("log")
    ticks = [
        t for t in (5, 6, 8, 10, 15, 20, 30, 50, 100, 200, 300, 500, 1000, 2000, 5000) if min(sizes) <= t <= max(sizes)
    ]
    axes.set_xticks(ticks or sorted(sizes), [str(t) for t in (ticks or sorted(sizes))])
    axes.xaxis.set_minor_formatter(NullFormatter())


def _legend(axes, **options):
    """The legend right of the axes, as the other figures place theirs:
    matplotlib's default, ``loc="best"``, searches the plot for room, and a
    search over a full sweep's lines that took over a second on a loaded
    machine warned (an error under the tests' filters)."""
    axes.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small", **options)


def _median_band_figure(rows, value, title, ylabel):
    """One line per search: the median over start squares, shaded from the
    lowest to the highest start square."""
    figure, axes = figure_style.figure(title, "board side n (n x n board)", ylabel)
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
        _legend(axes, title=_BAND_NOTE, title_fontsize="small")
    else:
        figure_style.nothing_to_show(axes, "no searches on square boards in this run")
    return figure, axes, series


def _save_band(rows, path, value, title, ylabel):
    """A median-and-band figure of ``value`` against n, as a PNG at ``path``."""
    figure, _, _ = _median_band_figure(rows, value, title, ylabel)
    return figure_style.save(figure, path)


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
        budgets = sorted({row.budget for row in rows if row.square and row.status == record.BUDGET})
        for budget in budgets:
            axes.axhline(budget, color="grey", linestyle=":", linewidth=1)
            axes.annotate(f"budget {budget:.0e}", (sizes[0], budget), fontsize="x-small", color="grey", va="bottom")
        _legend(axes, title=_BAND_NOTE, title_fontsize="small")
    return figure_style.save(figure, path)


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
    figure, axes = figure_style.figure(
        f"Success rate vs board size (past n = {_OWN_POINT_UP_TO}, neighbouring sizes pooled)",
        "board side n (n x n board)",
        "tours found / start squares where one can exist (%)",
    )
    found = defaultdict(lambda: defaultdict(int))
    possible = defaultdict(lambda: defaultdict(int))
    sides = defaultdict(lambda: defaultdict(set))
    for row in rows:
        if row.square and row.status != record.IMPOSSIBLE:
            group = _pooled(row.rows)
            possible[label(row)][group] += row.represents
            found[label(row)][group] += row.represents * (row.status == record.FOUND)
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
        _legend(axes)
    else:
        figure_style.nothing_to_show(axes, "no searches on square boards in this run")
    return figure_style.save(figure, path)


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
        figure, axes = figure_style.figure("Nodes per start square", "", "")
        axes.set_axis_off()
        figure_style.nothing_to_show(axes, "no board had every start square searched in this run")
        return figure_style.save(figure, path)
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
    return figure_style.save(figure, path)


def _heatmap_panel(axes, nodes, statuses, cmap, norm):
    image = axes.imshow(np.ma.masked_invalid(nodes), cmap=cmap, norm=norm)
    rows, cols = nodes.shape
    axes.set_xticks(range(cols), [str(c + 1) for c in range(cols)], fontsize="x-small")
    axes.set_yticks(range(rows), [str(r + 1) for r in range(rows)], fontsize="x-small")
    for (r, c), status in np.ndenumerate(statuses):
        mark = _MARKS.get(status)
        if mark:
            halo = figure_style.HALO
            axes.text(c, r, mark, ha="center", va="center", fontsize="small", fontweight="bold", path_effects=halo)
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
