"""This module draws figure 6 and writes the toolchain section of REPORT.md from versus.json alone.

bench/studies/versus/versus_study.py measures versus.json.

A file of the first format (sides numba, c and python; no call costs, no
per-round rates) still reads: every search is a headline one, and a ratio
is one of medians, without a spread.
"""

import statistics

from bench import figure_style
from bench.text_cells import count_text, markdown_table

# the order of columns and bars; "c" is the first format's one C column
ORDER = ("numba", "clang", "gcc", "c", "cython", "pypy", "python")
NAMES = {
    "numba": "Numba",
    "clang": "clang-C",
    "gcc": "gcc-C",
    "c": "C (cc)",
    "cython": "Cython",
    "pypy": "PyPy",
    "python": "CPython",
}
_COLOURS = dict(zip(ORDER, figure_style.PALETTE * 2, strict=False))


def ratio(row, side, other):
    """``(median, low, high)`` of ``side``'s throughput over ``other``'s on
    one workload, over the rounds (each round's pair ran back to back), or
    None where either is missing."""
    sides = row["sides"]
    if side not in sides or other not in sides:
        return None
    a, b = sides[side], sides[other]
    if "rates" in a and "rates" in b:
        pairs = [x / y for x, y in zip(a["rates"], b["rates"], strict=True) if x and y]
        return (statistics.median(pairs), min(pairs), max(pairs)) if pairs else None
    if a["nodes_per_s"] and b["nodes_per_s"]:
        value = a["nodes_per_s"] / b["nodes_per_s"]
        return value, value, value
    return None


def ratio_text(value):
    if value is None:
        return "-"
    middle, low, high = value
    return f"{middle:.2f}" if low == high else f"{middle:.2f} ({low:.2f}-{high:.2f})"


def _names(measured):
    present = set().union(*(row["sides"] for row in measured["workloads"])) if measured["workloads"] else set()
    return [name for name in ORDER if name in present]


def _headline(row):
    return row.get("headline", True)


def _rate(side):
    value = side.get("nodes_per_s")
    return "-" if value is None else f"{value / 1e6:.2f}"


def _where(row):
    method, board = row["group"].split(" ")
    shape = "closed" if row["closed"] else "open"
    return [method, f"{board} {shape}", "{},{}".format(*row["start"])]


def headline_table(measured):
    names = _names(measured)
    others = [name for name in names if name != "numba"]
    header = (
        "search",
        "board",
        "from",
        "nodes",
        *(f"{NAMES[name]} Mn/s" for name in names),
        *(f"Numba / {NAMES[name]}" for name in others),
    )
    lines = []
    for row in filter(_headline, measured["workloads"]):
        sides = row["sides"]
        lines.append(
            (
                *_where(row),
                count_text(sides["numba"]["nodes"]),
                *(_rate(sides[name]) if name in sides else "-" for name in names),
                *(ratio_text(ratio(row, "numba", name)) for name in others),
            )
        )
    return markdown_table(header, lines)


def _micro(seconds):
    return f"{seconds * 1e6:.2f}"


def call_cost_table(measured):
    costs = measured["call_costs"]
    names = [name for name in _names(measured) if name in costs]
    kinds = list(next(iter(costs.values())))
    header = ("kernel", *(f"{NAMES[name]} µs" for name in names))
    lines = [(kind, *(_micro(costs[name][kind]["cpu_seconds"]) for name in names)) for kind in kinds]
    return markdown_table(header, lines)


def short_table(measured):
    names = [name for name in _names(measured) if name in measured["call_costs"]]
    header = ("search", "board", "from", "nodes", *(f"{NAMES[name]} µs: search, empty call" for name in names))
    lines = []
    for row in measured["workloads"]:
        if _headline(row):
            continue
        sides = row["sides"]
        cells = [
            f"{_micro(sides[name]['median_cpu_s'])}, {_micro(sides[name]['empty_cpu_s'])}"
            f" ({row['call_share'].get(name, 0):.0%})"
            if name in sides
            else "-"
            for name in names
        ]
        lines.append((*_where(row), count_text(sides["numba"]["nodes"]), *cells))
    return markdown_table(header, lines)


def _rounds(measured):
    return "1 round" if measured["rounds"] == 1 else f"{measured['rounds']} rounds"


def _intro(measured):
    if "format" not in measured:
        return [
            f"The same searches in three implementations, interleaved over {_rounds(measured)} "
            "(a run of the first format: C went through ctypes and allocated its scratch inside the timed call). "
            "Medians of nodes per second of kernel wall time.",
        ]
    share = measured["headline_share"]
    return [
        f"The same searches by every toolchain found here, interleaved over {_rounds(measured)}. Like for "
        "like: Numba, C (gcc and clang at the same flags) and Cython get the same arrays, inputs and scratch "
        "allocated and touched before the clock, and the caller reads the same clocks around the bare call "
        "(bench/baselines/prepared.py, call_clock.py). Rates are nodes per second of the call's thread CPU "
        "time, medians over the rounds; a ratio is the median of the rounds' ratios, its range in brackets. "
        "Every compiled side placed exactly Numba's nodes (checked). Plain Python (bench/baselines/python.py, "
        f"recursive, the classic way) under PyPy and CPython runs the first {measured['python_budget']:,} "
        f"nodes of each search. The table holds the searches where one call's fixed cost (an empty function of "
        "the same arguments, timed just before each search call of the rounds) is under "
        f"{share:.0%} of the search's time on every side.",
    ]


def section(measured, figure):
    """REPORT.md's part on the toolchain comparison."""
    lines = ["## Numba against gcc, clang, Cython, PyPy and CPython", "", *_intro(measured), ""]
    for name, version in measured.get("versions", {}).items():
        lines.append(f"- {NAMES[name]}: {version}")
    lines += ["", f"![Numba against the other toolchains]({figure.name})", "", headline_table(measured)]
    if "call_costs" in measured:
        lines += [
            "",
            "### Call overhead",
            "",
            "One empty call's thread CPU time per toolchain and kernel, back to back (median of interleaved "
            "batches of calls; the two clock reads included, as in every timed call):",
            "",
            call_cost_table(measured),
            "",
            "The searches too short for the table above: the median time of one search call, of the empty call "
            "timed just before it in the same round, and that one's share of the search's time. An empty call "
            "right after another search costs several times one back to back: the caller's code and data are "
            "out of the caches then, as they are for the search call.",
            "",
            short_table(measured),
        ]
    missing = [f"- {NAMES.get(name, name)} left out: {why}" for name, why in measured.get("missing", {}).items()]
    return [*lines, *(["", *missing] if missing else []), ""]


def _label(row):
    shape = "closed" if row["closed"] else "open"
    row_, col = row["start"]
    return f"{row['group']} {shape} from {row_},{col}"


def _error(side):
    rates = [rate for rate in side.get("rates", []) if rate]
    middle = side.get("nodes_per_s") or 0
    if not rates:
        return 0, 0
    return middle - min(rates), max(rates) - middle


def draw(measured, path):
    """Figure 6: nodes per second of each toolchain on each headline search,
    grouped bars on a log axis, whiskers the range over rounds."""
    rows = [row for row in measured["workloads"] if _headline(row)]
    names = _names(measured)
    figure, axes = figure_style.figure(
        "Same search, every toolchain (searches long enough that call cost is under 1%)",
        "nodes per second of the call's CPU time (log scale)",
        "",
        size=(9, 0.17 * max(len(rows), 4) * len(names) + 1.8),
    )
    height = 0.8 / max(len(names), 1)
    for offset, name in enumerate(names):
        sides = [row["sides"].get(name, {}) for row in rows]
        rates = [side.get("nodes_per_s") or 0 for side in sides]
        errors = list(zip(*(_error(side) for side in sides), strict=True)) if sides else [[], []]
        positions = [index + offset * height for index in range(len(rows))]
        axes.barh(
            positions,
            rates,
            height=height,
            color=_COLOURS[name],
            label=NAMES[name],
            xerr=errors,
            error_kw={"elinewidth": 0.8, "capsize": 1.5},
        )
    axes.set_yticks(
        [index + height * (len(names) - 1) / 2 for index in range(len(rows))], [_label(row) for row in rows]
    )
    axes.invert_yaxis()
    if not rows:
        # a quick or tiny run: every search timed a call, none a search
        axes.text(0.5, 0.5, "no search long enough: see the call-overhead table", ha="center", transform=axes.transAxes)
        return figure_style.save(figure, path)
    axes.set_xscale("log")
    # beside the bars, where it hides none of them
    axes.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small")
    return figure_style.save(figure, path)
