"""REPORT.md of a run folder, and the figures it embeds, from its files alone.

``python -m bench.report [FOLDER]`` (``make plots``) redraws both from an
existing run, by default results/latest, without searching.
"""

import statistics
import sys
from collections import defaultdict

from bench import corners, count_study, folders, overhead, page, plots, record, tour_pictures, versus
from bench.command import Parser, fail, parse_boards
from bench.count_worker import DONE, STOPPED
from bench.plots import label, labels
from knight.errors import InvalidArgument
from knight.symmetry import symmetry_class

REPORT = "REPORT.md"

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


def _count(value):
    return "" if value is None else f"{int(value):,}"


def _seconds(value):
    """Seconds in the unit that reads best: 3.1 µs, 0.36 ms, 1.05 s."""
    if value is None:
        return ""
    for unit, scale in (("s", 1), ("ms", 1e-3), ("\u00b5s", 1e-6)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value * 1e9:.3g} ns"


def _rate(value):
    if value is None:
        return ""
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g}{unit}"
    return f"{value:.3g}"


def _boards(count):
    return f"{count} board" + ("" if count == 1 else "s")


def _table(header, lines):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(cell) for cell in line) + " |" for line in lines]
    return "\n".join(out)


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
        lines.append((
            name,
            board,
            len({(row.rows, row.cols) for row in members}),
            sum(row.represents for row in members),
            count["found"],
            count["none"],
            count["budget"],
            count["dead-end"],
            count[record.IMPOSSIBLE],
            _count(_median(_weighted(searched, lambda row: row.nodes))),
            _seconds(_median(_weighted(searched, lambda row: row.median_s))),
            _seconds(max((row.median_s for row in searched), default=None)),
            _rate(_median(_weighted(searched, lambda row: row.nodes_per_s))),
            f"{100 * statistics.median(spreads):.0f}%" if spreads else "",
        ))
    header = (
        "search", "board", "boards", "starts", "found", "none", "budget", "dead-end", "impossible",
        "median nodes", "median time", "slowest", "median nodes/s", "repeat spread",
    )
    return _table(header, lines)


def hardest_starts(rows):
    """For each backtracking search, the starts that cost the most nodes per
    square of their board while still finishing within the budget (budget
    hits are listed apart). Greedy never steps back, so it has none."""
    lines = []
    for name in labels(rows):
        finished = [
            row for row in rows
            if label(row) == name and row.method != "greedy" and row.searched and row.status != "budget"
        ]
        for row in sorted(finished, key=lambda row: (-row.nodes / (row.rows * row.cols), row.rows))[:_HARDEST]:
            start = f"{row.start_row},{row.start_col}"
            per_square = f"{row.nodes / (row.rows * row.cols):,.0f}"
            board = f"{row.rows}x{row.cols}"
            lines.append((name, board, start, _count(row.nodes), per_square, row.status, _seconds(row.median_s)))
    return _table(("search", "board", "start (row,col)", "nodes", "nodes per square", "status", "median time"), lines)


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
        failed = [row.rows for row in corner if row.status != "found"]
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
        hits = [row for row in searched if row.status == "budget"]
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
    proven = [row for row in rows if row.status == "none"]
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
    return _table(("search", "classes searched square by square", "node counts differ", "statuses differ"), lines)


def _sweep_table(meta):
    lines = []
    for part in meta["sweep"]["parts"]:
        shapes = part["shapes"]
        boards = ", ".join(shapes) if len(shapes) <= 6 else f"{shapes[0]} .. {shapes[-1]} ({len(shapes)} boards)"
        lines.append(
            (
                part["title"],
                boards,
                part["starts"],
                ", ".join(part["methods"]),
                ", ".join(part["tours"]),
                ", ".join(part["tiebreaks"]),
                f"{part['budget']:,}",
            )
        )
    return _table(("part", "boards", "starts", "methods", "tours", "tie rules", "node budget"), lines)


def _machine_table(meta):
    machine, software, numba_, git = meta["machine"], meta["software"], meta["numba"], meta["git"]
    facts = [
        ("CPU", f"{machine['cpu_model']} ({machine['usable_cores']} of {machine['logical_cores']} cores usable)"),
        ("OS", machine["os"]),
        ("Python", software["python"]),
        ("numba / llvmlite / numpy", f"{software['numba']} / {software['llvmlite']} / {software['numpy']}"),
        ("numba threading layer", numba_["threading_layer"]),
        ("NUMBA_* settings", ", ".join(f"{k}={v}" for k, v in numba_["environment"].items()) or "none set"),
        ("git commit", git["commit"] + (" (with uncommitted changes)" if git["dirty"] else "")),
    ]
    return _table(("", ""), facts)


def _compile_lines(meta):
    lines = []
    for number, session in enumerate(meta["sessions"], 1):
        times = ", ".join(f"{method} {seconds:.2f} s" for method, seconds in session["compile_seconds"].items())
        lines.append(f"- session {number} ({session['started']} to {session['finished']}, {session['ended']}): {times}")
    return lines


def _side_rate(sides, name):
    value = sides.get(name, {}).get("nodes_per_s")
    return "-" if value is None else f"{value / 1e6:.2f}"


def _times_numba(row, name):
    value = versus.ratio(row, "numba", name)
    return "-" if value is None else f"{value:.2f}x"


def versus_section(measured, figure):
    """REPORT.md's part on Numba against C and plain Python."""
    header = (
        "search",
        "board",
        "from",
        "nodes (Numba = C)",
        "Numba Mn/s",
        "C Mn/s",
        "Python Mn/s",
        "Numba / C",
        "Numba / Python",
    )
    lines = []
    for row in measured["workloads"]:
        sides = row["sides"]
        method, board = row["group"].split(" ")
        shape = "closed" if row["closed"] else "open"
        rates = [_side_rate(sides, name) for name in ("numba", "c", "python")]
        times = [_times_numba(row, name) for name in ("c", "python")]
        lines.append(
            (method, f"{board} {shape}", "{},{}".format(*row["start"]), _count(sides["numba"]["nodes"]), *rates, *times)
        )
    missing = [f"- {name} left out: {why}" for name, why in measured.get("missing", {}).items()]
    return [
        "## Numba against C and plain Python",
        "",
        f"The same searches in three implementations, interleaved over {measured['rounds']} rounds; medians of "
        "nodes per second of kernel time. Numba and C search the same tree to the same budget and their node "
        "counts are checked equal. Plain Python (bench/baselines/python.py, recursive, the way the classic "
        "programs work) "
        f"runs the first {measured['python_budget']:,} nodes of the same search. Searches of a few dozen nodes "
        "measure call overhead (ctypes for C), not search speed.",
        "",
        f"![Numba against C and plain Python]({figure.name})",
        "",
        _table(header, lines),
        *(["", *missing] if missing else []),
        "",
    ]


def corners_section(measured, figure):
    """REPORT.md's part on Warnsdorff's rule from the corner, n = 5..N."""
    boards = measured["boards"]
    first, last = boards[0]["n"], boards[-1]["n"]
    lines = []
    for name in corners.NAMES:
        failed = corners.failures(measured, name)
        worst = max(board[name][1] / board["n"] ** 2 for board in boards if board[name][0] == "found")
        shown = ", ".join(map(str, failed[:12])) + (", ..." if len(failed) > 12 else "")
        lines.append(
            (
                name,
                f"{len(boards) - len(failed)} of {len(boards)}",
                shown or "-",
                f"{worst:.3f}",
                _seconds(measured["kernel_seconds"][name]),
            )
        )
    recovered = []
    for tiebreak in ("roth", "first"):
        for n, walked, status, nodes in corners.recovery(measured, tiebreak)[:10]:
            recovered.append((tiebreak, n, _count(walked), status, _count(nodes), f"{nodes / n**2:.3f}"))
    return [
        f"## From the corner, n = {first}..{last}",
        "",
        f"The greedy walk and the Warnsdorff search (budget {measured['budget_factor']} n² nodes) from square "
        "1,1 of every n x n board, under each tie rule.",
        "",
        f"![Warnsdorff from the corner]({figure.name})",
        "",
        _table(
            ("search", "tour found on", "failed at n =", "most nodes / n² when found", "kernel time, all boards"), lines
        ),
        "",
        "Where the greedy walk dead-ended (first ten per rule): how far it got, and what the backtracking "
        "search did from the same corner.",
        "",
        _table(("ties", "n", "greedy walk nodes", "search status", "search nodes", "nodes / n²"), recovered),
        "",
    ]


def _ratio(spread):
    return f"{spread['median']:.2f}x ({spread['min']:.2f}-{spread['max']:.2f})"


def overhead_section(measured, measured_corners=None):
    """REPORT.md's part on set-up against search (bench/overhead.py)."""
    solve = measured["solve"]
    sizes = sorted({int(n) for by_size in solve.values() for n in by_size})
    lines = []
    for name, by_size in solve.items():
        cells = []
        for n in sizes:
            entry = by_size.get(str(n))
            cells.append("-" if entry is None else
                         f"{_ratio(entry['wall_over_kernel'])}, {_seconds(entry['kernel_s'])} {entry['status']}")
        lines.append((name, *cells))
    parts = [
        "## Set-up against search",
        "",
        "What a user of the public API waits for, against the kernel's own time. `knight.solve` from the "
        "corner: wall time of the call over the kernel's `Result.seconds` (median of the repeats, range in "
        "brackets), each call the first on its board; then the kernel time and status. Budgets: Warnsdorff "
        "2 n² nodes, backtracking n², greedy none. On a machine running other work, wall times "
        "stretch by its load.",
        "",
        _table(("search", *(f"{n}x{n}: wall / kernel" for n in sizes)), lines),
        "",
    ]
    if measured_corners is not None and "wall_seconds" in measured_corners:
        kernel = sum(measured_corners["kernel_seconds"].values())
        parts += [
            f"- The corner study (n = {measured_corners['boards'][0]['n']}..{measured_corners['largest']}, "
            f"4 solves per board): {_seconds(measured_corners['wall_seconds'])} of wall time for "
            f"{_seconds(kernel)} of kernel time, **{measured_corners['wall_seconds'] / kernel:.2f}x**.",
        ]
    repeats = measured["greedy_repeats"]
    parts.append(
        f"- Greedy (Roth) on {repeats['n']}x{repeats['n']}, {len(repeats['seconds'])} repeats back to back: the "
        f"slowest took **{repeats['slowest_over_fastest']:.2f}x** the fastest "
        f"({', '.join(_seconds(s) for s in repeats['seconds'])})."
    )
    count = measured["plain_count"]
    if "missing" in count:
        parts.append(f"- Plain count against C left out: {count['missing']}")
    else:
        parts.append(
            f"- Plain count of {count['board']}x{count['board']} from every start "
            f"(`count_tours(pruned=False, symmetry=False)`, {count['nodes']:,} nodes, {count['tours']:,} tours, "
            f"equal in both) against the same enumeration in C, {count['rounds']} interleaved rounds: knight's "
            f"nodes per CPU second over C's **{_ratio(count['knight_over_c']['cpu'])}**; in wall time "
            f"{_ratio(count['knight_over_c']['wall'])} (knight counts on every core, C on one)."
        )
    return [*parts, ""]


def _board(board):
    return f"{board[0]}x{board[1]}"


def _finished(measured, series, engine):
    """The rows of ``engine`` in ``series`` that finished, and the first that did not."""
    rows = count_study.series_rows(measured, series, engine)
    done = [row for row in rows if row["status"] == DONE]
    ended = next((row for row in rows if row["status"] != DONE), None)
    return done, ended


def _overtakes(measured, series, slow=count_study.DFS):
    """Where the DP's grid overtakes ``slow`` in ``series``, in words."""
    found = count_study.crossover(measured, series, slow=slow)
    if found is not None:
        board, beaten = found
        if beaten:
            return f"at **{_board(board)}** ({board[0] * board[1]} squares)"
        return f"on every board from {_board(board)}"
    _, ended = _finished(measured, series, count_study.DP)
    theirs = {(row["rows"], row["cols"]): row for row in count_study.series_rows(measured, series, slow)}
    if ended is not None:
        board = (ended["rows"], ended["cols"])
        other = theirs.get(board)
        where = f"the DP stopped at {_board(board)}"
        if other is not None and other["status"] == DONE:
            where += f", which {count_study.LABELS[slow]} counted in {_seconds(other['seconds'])}"
        return f"not within the caps ({where})"
    both = [board for board, row in theirs.items() if row["status"] == DONE]
    if not both:
        return "not on these boards"
    return f"not on these boards ({count_study.LABELS[slow]} still faster at {_board(both[-1])})"


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
    return f"{_seconds(row['seconds'])}{single} ({_seconds(row['cpu_seconds'])}) \u00b7 {_rate(work)}"


def counts_table(measured):
    """One line per series and board that some engine ran: each engine's
    time (CPU) and work."""
    engines = count_study.engines_of(measured)
    lines = []
    for series in measured["series"]:
        cells = {}
        for row in measured["rows"]:
            if row["series"] == series:
                cells.setdefault((row["rows"], row["cols"]), {})[row["engine"]] = row
        for board, by_engine in cells.items():
            if all(row["status"] == count_study.PAST_CAP for row in by_engine.values()):
                continue
            tours = next((row["tours"] for row in by_engine.values() if row["status"] == DONE), None)
            lines.append((series, _board(board), board[0] * board[1], "" if tours is None else f"{tours:,}",
                          *(_count_cell(by_engine.get(name), measured["engines"]) for name in engines)))
    header = ("series", "board", "squares", "open tours", *(count_study.LABELS[name] for name in engines))
    return _table(header, lines)


def _reach(measured, series):
    """The largest board each engine finished in ``series``, and where the
    DP's grid overtakes the plain DFS."""
    reached = []
    for name in count_study.engines_of(measured):
        done, _ = _finished(measured, series, name)
        reached.append(f"{count_study.LABELS[name]} {_board((done[-1]['rows'], done[-1]['cols'])) if done else '-'}")
    plain = _overtakes(measured, series, slow="dfs-plain").replace("**", "")
    return f"- {series}: largest board counted within the cap: {', '.join(reached)}. The DP's grid overtakes " \
        f"the plain DFS {plain}."


def counts_section(measured, figure):
    """REPORT.md's part on counting: the DFS against the DP (bench/count_study.py)."""
    caps = ", ".join(
        f"{count_study.LABELS[name]} {cap['seconds']:g} s" + (f" and {cap['budget']:,} nodes per work unit"
                                                                 if cap["budget"] else "")
        for name, cap in measured["engines"].items()
    )
    warm = sum(measured["warm_up_seconds"])
    return [
        "## Counting: the DFS against the frontier DP",
        "",
        _headline(measured),
        "",
        "Every open tour of each board, by four engines: the DFS, plain and pruned (`count_tours(method=\"dfs\", "
        "pruned=...)`), and the DP (`method=\"dp\"`) count the per-start grid that `knight count` prints; "
        "*DP open total* is the DP's single run with no forced end (`frontier.total_tours`), which the grid "
        "costs once per symmetry class of starts (the DFS's total is its grid's sum, no cheaper). Each count "
        "ran in a worker process that compiled every engine first; times are the engine's own seconds (as "
        "`knight count` prints them), the median of "
        f"{measured['repeats']} runs where one took under {_seconds(measured['repeat_below'])}, else one run "
        "(marked \u00b9); CPU seconds of the process in brackets; then the work: the DFS's nodes, the DP's "
        "transitions. Every count equals every other engine's on the same board, square by square (checked "
        f"as it ran). Caps: {caps}. A count that stopped at its cap or finished past it ends its engine's "
        "run of that series: the larger boards are *past cap*, never run. Boards past every engine's cap are "
        f"left out. The study took {_seconds(measured['wall_seconds'])} of wall time, {_seconds(warm)} of it "
        "starting workers.",
        "",
        *(_reach(measured, series) for series in measured["series"]),
        "",
        f"![Counting: DFS against DP]({figure.name})",
        "",
        counts_table(measured),
        "",
    ]


def render(meta, rows, figures, measured_versus=None, measured_corners=None, measured_overhead=None,
           measured_counts=None):
    """The text of REPORT.md."""
    state = (
        "complete"
        if meta["complete"]
        else f"**incomplete**: {meta['runs_done']} of {meta['runs_planned']} runs "
        "(finish it with `python -m bench --resume`)"
    )
    sampled = any(row.represents > 1 for row in rows)
    parts = [
        f"# Knight's-tour benchmark: {meta.get('folder', '')}".rstrip(),
        "",
        f"{len(rows):,} runs, {state}. Started {meta['started']}, finished {meta['finished'] or '-'}. "
        f"Each search was repeated {meta['sweep']['repeats']} times; times are the kernel's own, medians of "
        "the repeats. Node counts are exact and do not depend on the machine.",
        "",
        "## What was run",
        "",
        f"Command: `{' '.join(meta['command'])}`",
        "",
        _sweep_table(meta),
        "",
        "## Machine",
        "",
        _machine_table(meta),
        "",
        "JIT compile (or cache load) time of each kernel's first call, never part of any run's time:",
        "",
        *_compile_lines(meta),
        "",
        "## Figures",
        "",
    ]
    titles = {
        "time": "Time vs board size",
        "nodes": "Nodes vs board size",
        "heatmaps": "Nodes per start square",
        "success": "Success rate vs board size",
        "throughput": "Throughput",
    }
    for key, path in figures.items():
        if key in ("versus", "corners", "counts"):
            continue
        parts += [f"### {titles[key]}", "", _FIGURE_NOTES[key], "", f"![{titles[key]}]({path.name})", ""]
    if measured_versus is not None:
        parts += versus_section(measured_versus, figures["versus"])
    if measured_corners is not None:
        parts += corners_section(measured_corners, figures["corners"])
    if measured_overhead is not None:
        parts += overhead_section(measured_overhead, measured_corners)
    if measured_counts is not None:
        parts += counts_section(measured_counts, figures["counts"])
    parts += [
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
    return "\n".join(parts) + "\n"


def write(folder, heatmap_boards=None):
    """Redraw the figures, REPORT.md and index.html of run ``folder``; return REPORT.md's path."""
    folder = folders.resolve(folder)
    meta = record.read_meta(folder / record.META)
    rows = record.read_runs(folder / record.RUNS)
    meta["folder"] = folder.name
    figures = plots.draw_all(rows, folder, heatmap_boards)
    measured_versus = _drawn(folder / versus.VERSUS, plots.versus, folder / plots.VERSUS_FIGURE, figures)
    measured_corners = _drawn(folder / corners.CORNERS, plots.corners, folder / plots.CORNERS_FIGURE, figures)
    measured_counts = _drawn(folder / count_study.COUNTS, plots.counts, folder / plots.COUNTS_FIGURE, figures)
    measured_overhead = None
    if (folder / overhead.OVERHEAD).exists():
        measured_overhead = record.read_json(folder / overhead.OVERHEAD)
    try:
        text = render(meta, rows, figures, measured_versus, measured_corners, measured_overhead, measured_counts)
        text += "\n".join(tour_pictures.section(folder))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise InvalidArgument(f"the run in {folder} is malformed (at {error!r}): rerun it") from None
    path = folder / REPORT
    temporary = folder / f".{REPORT}.tmp"
    temporary.write_text(text)
    temporary.replace(path)
    page.write(folder, text, title=f"Knight's-tour benchmark: {folder.name}")
    return path


def _drawn(source, draw, figure, figures):
    """The measurements in ``source`` (None when absent), drawn into
    ``figures`` under the drawing's name; InvalidArgument naming the file if malformed."""
    if not source.exists():
        return None
    measured = record.read_json(source)
    try:
        figures[draw.__name__] = draw(measured, figure)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise InvalidArgument(f"{source} is malformed (at {error!r}): rerun it") from None
    return measured


def main(argv=None):
    parser = Parser(
        prog="python -m bench.report",
        description=(
            "Redraw the figures and REPORT.md of a benchmark run from its runs.csv and meta.json, without searching."
        ),
    )
    parser.add_argument(
        "folder", nargs="?", default=str(folders.RESULTS / folders.LATEST), help="run folder; default results/latest"
    )
    parser.add_argument(
        "--heatmaps", help="boards for the heatmaps, like 6x6,8x8 (default: those, when every start was searched)"
    )
    try:
        args = parser.parse_args(argv)
        boards = parse_boards(args.heatmaps) if args.heatmaps else None
        path = write(args.folder, boards)
    except InvalidArgument as error:
        return fail(error)
    print(f"wrote {path} and its figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
