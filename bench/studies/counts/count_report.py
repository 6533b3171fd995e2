"""This module draws figure 8 and writes the counting section of REPORT.md from counts.json alone.

bench/studies/counts/count_study.py measures counts.json. The section says
what its rows show and where the DP overtakes the DFS, and it gives the
table, the cluster's overhead and the figure."""

from matplotlib.ticker import NullFormatter

from bench import figure_style
from bench.figure_style import plt
from bench.studies.counts import count_worker
from bench.studies.counts.count_worker import DONE, ENGINES, STOPPED
from bench.text_cells import markdown_table, rate_text, seconds_text

PAST_CAP = "past cap"
# the engine the DP's grid races in the headline, and what it is compared with
DP, DFS = "dp", "dfs-pruned"
LABELS = {
    "dfs-plain": "DFS plain",
    "dfs-pruned": "DFS pruned",
    "dp": "DP grid",
    "dp-total": "DP open total",
    "dp-1-worker": "DP total, 1 local worker",
    "dp-2-workers": "DP total, 2 local workers",
}


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


def _board(board):
    return f"{board[0]}x{board[1]}"


def _finished(measured, series, engine):
    """The rows of ``engine`` in ``series`` that finished, and the first that did not."""
    rows = series_rows(measured, series, engine)
    done = [row for row in rows if row["status"] == DONE]
    ended = next((row for row in rows if row["status"] != DONE), None)
    return done, ended


def _overtakes(measured, series, slow=DFS):
    """Where the DP's grid overtakes ``slow`` in ``series``, in words."""
    found = crossover(measured, series, slow=slow)
    if found is not None:
        board, beaten = found
        if beaten:
            return f"at **{_board(board)}** ({board[0] * board[1]} squares)"
        return f"on every board from {_board(board)}"
    _, ended = _finished(measured, series, DP)
    theirs = {(row["rows"], row["cols"]): row for row in series_rows(measured, series, slow)}
    if ended is not None:
        board = (ended["rows"], ended["cols"])
        other = theirs.get(board)
        where = f"the DP stopped at {_board(board)}"
        if other is not None and other["status"] == DONE:
            where += f", which {LABELS[slow]} counted in {seconds_text(other['seconds'])}"
        return f"not within the caps ({where})"
    both = [board for board, row in theirs.items() if row["status"] == DONE]
    if not both:
        return "not on these boards"
    return f"not on these boards ({LABELS[slow]} still faster at {_board(both[-1])})"


def _headline(measured):
    parts = [f"{series}: {_overtakes(measured, series)}" for series in measured["series"]]
    return f"**Where the DP's grid overtakes the pruned DFS** (time, per series): {'; '.join(parts)}."


def _count_cell(row, caps):
    if row is None:
        return "-"
    if row["status"] != DONE:
        if row["status"] == STOPPED:
            return f"stopped at {caps[row['engine']]['seconds']:g} s"
        return row["status"]
    work = row["work"].get("nodes", row["work"].get("transitions"))
    single = "\u00b9" if row["repeats"] == 1 else ""
    return f"{seconds_text(row['seconds'])}{single} ({seconds_text(row['cpu_seconds'])}) \u00b7 {rate_text(work)}"


def counts_table(measured):
    """One line per series and board that some engine ran: each engine's
    time (CPU) and work."""
    engines = engines_of(measured)
    lines = []
    for series in measured["series"]:
        cells = {}
        for row in measured["rows"]:
            if row["series"] == series:
                cells.setdefault((row["rows"], row["cols"]), {})[row["engine"]] = row
        for board, by_engine in cells.items():
            if all(row["status"] == PAST_CAP for row in by_engine.values()):
                continue
            tours = next((row["tours"] for row in by_engine.values() if row["status"] == DONE), None)
            lines.append(
                (
                    series,
                    _board(board),
                    board[0] * board[1],
                    "" if tours is None else f"{tours:,}",
                    *(_count_cell(by_engine.get(name), measured["engines"]) for name in engines),
                )
            )
    header = ("series", "board", "squares", "open tours", *(LABELS[name] for name in engines))
    return markdown_table(header, lines)


def _reach(measured, series):
    """The largest board each engine finished in ``series``, and where the
    DP's grid overtakes the plain DFS."""
    reached = []
    for name in engines_of(measured):
        done, _ = _finished(measured, series, name)
        reached.append(f"{LABELS[name]} {_board((done[-1]['rows'], done[-1]['cols'])) if done else '-'}")
    plain = _overtakes(measured, series, slow="dfs-plain").replace("**", "")
    return (
        f"- {series}: largest board counted within the cap: {', '.join(reached)}. The DP's grid overtakes "
        f"the plain DFS {plain}."
    )


def cluster_overhead(measured):
    """A line per board that the DP's total counted in this process and on
    a loopback cluster: the cluster's time against the single process's."""
    clustered = [name for name in engines_of(measured) if name in count_worker.CLUSTER_WORKERS]
    done = {(row["engine"], row["rows"], row["cols"]): row for row in measured["rows"] if row["status"] == DONE}
    lines = []
    for (name, rows, cols), single in sorted(done.items()):
        if name != "dp-total":
            continue
        on = [(other, done.get((other, rows, cols))) for other in clustered]
        cells = [
            f"{seconds_text(row['seconds'])} on {count_worker.CLUSTER_WORKERS[other]} "
            f"({row['seconds'] / single['seconds']:.1f}x)"
            for other, row in on
            if row is not None
        ]
        if cells:
            lines.append(
                f"- {rows}x{cols} open total on a loopback cluster: {', '.join(cells)} against "
                f"{seconds_text(single['seconds'])} in one process."
            )
    return lines


def section(measured, figure):
    """REPORT.md's part on counting: the DFS against the DP (bench/py)."""
    caps = ", ".join(
        f"{LABELS[name]} {cap['seconds']:g} s"
        + (f" and {cap['budget']:,} nodes per work unit" if cap["budget"] else "")
        for name, cap in measured["engines"].items()
    )
    warm = sum(measured["warm_up_seconds"])
    return [
        "## Counting: the DFS against the frontier DP",
        "",
        _headline(measured),
        "",
        'Every open tour of each board, by up to six engines: the DFS, plain and pruned (`count_tours(method="dfs", '
        'pruned=...)`), and the DP (`method="dp"`) count the per-start grid that `knight count` prints; '
        "*DP open total* is the DP's single run with no forced end (`frontier.total_tours`), which the grid "
        "costs once per symmetry class of starts (the DFS's total is its grid's sum, no cheaper); *DP total, "
        "1 (2) local workers* is that run on a loopback Dask cluster of as many single-threaded worker "
        "processes, started before the count (its CPU seconds are the client's alone). Each count "
        "ran in a worker process that compiled every engine first; times are the engine's own seconds (as "
        "`knight count` prints them), the median of "
        f"{measured['repeats']} runs where one took under {seconds_text(measured['repeat_below'])}, else one run "
        "(marked \u00b9); CPU seconds of the process in brackets; then the work: the DFS's nodes, the DP's "
        "transitions. Every count equals every other engine's on the same board, square by square (checked "
        f"as it ran). Caps: {caps}. A count that stopped at its cap or finished past it ends its engine's "
        "run of that series: the larger boards are *past cap*, never run. Boards past every engine's cap are "
        f"left out. The study took {seconds_text(measured['wall_seconds'])} of wall time, {seconds_text(warm)} of it "
        "starting workers.",
        "",
        *(_reach(measured, series) for series in measured["series"]),
        *cluster_overhead(measured),
        "",
        f"![Counting: DFS against DP]({figure.name})",
        "",
        counts_table(measured),
        "",
    ]


_SERIES_STYLES = (("o", "-"), ("s", "--"), ("^", "-."), ("D", ":"))
_SQUARE_TICKS = (12, 16, 20, 25, 30, 36, 42, 49, 60, 80, 100)


def _work(row):
    """A count's work: the DFS's nodes, the DP's transitions."""
    return row["work"].get("nodes", row["work"].get("transitions"))


def draw(measured, path):
    """Figure 8: time and work of each counting engine against the board's
    squares, one line per engine and series, log-log; a count stopped at
    its cap is a cross on the cap's line, and a star marks where the DP's
    grid overtakes the pruned DFS in each series. ``measured`` is
    counts.json's content."""
    figure, (timed, worked) = plt.subplots(1, 2, figsize=(13, 5.5), layout="constrained")
    figure.suptitle("Counting every open tour: DFS (plain, pruned) against the frontier DP")
    engines = engines_of(measured)
    colours = {name: figure_style.PALETTE[i] for i, name in enumerate(engines)}
    styles = {name: _SERIES_STYLES[i % len(_SERIES_STYLES)] for i, name in enumerate(measured["series"])}
    sizes, marked = set(), set()  # squares of the counts that finished; and of those stopped
    for series in measured["series"]:
        marker, line = styles[series]
        for name in engines:
            rows = series_rows(measured, series, name)
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
            timed.plot(
                [row["rows"] * row["cols"] for row in stopped],
                [cap] * len(stopped),
                "x",
                color=colours[name],
                markersize=8,
            )
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
        figure_style.nothing_to_show(timed, "no count finished in this run")
    timed.set_title("time (dotted: each engine's time cap; x: stopped at it)", fontsize="small")
    worked.set_title("work", fontsize="small")
    handles = [plt.Line2D([], [], color=colours[name], label=LABELS[name]) for name in engines]
    handles += [
        plt.Line2D([], [], color="grey", marker=styles[series][0], linestyle=styles[series][1], label=series)
        for series in measured["series"]
    ]
    handles.append(
        plt.Line2D([], [], color="black", marker="*", linestyle="", markersize=11, label="DP grid overtakes DFS pruned")
    )
    worked.legend(handles=handles, loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small")
    return figure_style.save(figure, path)


def _mark_crossovers(axes, measured):
    for series in measured["series"]:
        found = crossover(measured, series)
        if found is None or not found[1]:  # none, or the DP's grid was faster from the first board
            continue
        board, _ = found
        row = next(row for row in series_rows(measured, series, DP) if (row["rows"], row["cols"]) == board)
        where = (board[0] * board[1], row["seconds"])
        axes.plot(*where, "*", color="black", markersize=13, zorder=5)
        axes.annotate(
            f"{board[0]}x{board[1]}",
            where,
            textcoords="offset points",
            xytext=(6, -12),
            fontsize="small",
            path_effects=figure_style.HALO,
        )
