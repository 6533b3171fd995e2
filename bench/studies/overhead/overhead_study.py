"""This module measures where a user's wait goes, set-up against search, through the public API.

Three measurements, made in one run so that their ratios compare (the
"Set-up against search" section of REPORT.md; the corner study adds its
own wall time to corners.json):

* ``solve``: the wall time of ``knight.solve`` over the kernel's own
  ``Result.seconds``, for each method and tie rule on n x n boards from the
  corner. The sizes take turns, so every call is the first on its board and
  pays for its neighbour table (solve keeps only the last board's).
* ``greedy repeats``: the slowest over the fastest kernel time of
  ``REPEATS`` greedy walks on the largest board: fresh memory touched
  inside the timed call shows up here.
* ``plain count``: ``knight.count_tours(5, 5, pruned=False,
  symmetry=False)``, as a user calls it, against the C enumeration from
  every start (the same 38,010,697 nodes), interleaved rounds; nodes per
  CPU second of the process, since the count runs on every core.
"""

import statistics
import time

import numpy as np

from bench.studies.study import Study
from bench.text_cells import markdown_table, seconds_text
from bench.timing.named_search import cpu_clock

OVERHEAD = "overhead.json"
SIZES = (300, 1000, 2000)
SIZES_QUICK = (300,)
REPEATS = 5
COUNT_BOARD = 5
# (method, tie rule, node budget per square): a found tour places n^2 nodes;
# the budgets are the corner study's, and move-order backtracking, which
# finds no tour from the corner of these boards, gets one node per square
CASES = (
    ("greedy", "first", None),
    ("greedy", "roth", None),
    ("warnsdorff", "first", 2),
    ("warnsdorff", "roth", 2),
    ("backtrack", "first", 1),
)


def case_name(method, tiebreak):
    return method if method == "backtrack" else f"{method}-{tiebreak}"


def _spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def measure_solve(sizes, repeats):
    """``{case: {n: {"wall_over_kernel": {median, min, max}, "kernel_s", "wall_s", "status", "nodes"}}}``."""
    import knight

    samples = {}
    for _ in range(repeats):
        for method, tiebreak, factor in CASES:
            for n in sizes:
                budget = None if factor is None else factor * n * n
                began = time.perf_counter()
                result = knight.solve(n, n, (0, 0), method, budget, tiebreak=tiebreak)
                wall = time.perf_counter() - began
                samples.setdefault(case_name(method, tiebreak), {}).setdefault(n, []).append((wall, result))
    measured = {}
    for name, by_size in samples.items():
        for n, pairs in by_size.items():
            measured.setdefault(name, {})[str(n)] = {
                "wall_over_kernel": _spread([wall / result.seconds for wall, result in pairs]),
                "wall_s": statistics.median(wall for wall, _ in pairs),
                "kernel_s": statistics.median(result.seconds for _, result in pairs),
                "status": pairs[-1][1].status,
                "nodes": pairs[-1][1].nodes,
            }
    return measured


def measure_greedy_repeats(n, repeats):
    """Kernel seconds of ``repeats`` greedy walks (Roth) on n x n, back to back."""
    import knight

    seconds = [knight.solve(n, n, (0, 0), "greedy", tiebreak="roth").seconds for _ in range(repeats)]
    return {"n": n, "seconds": seconds, "slowest_over_fastest": max(seconds) / min(seconds)}


def _c_count(n):
    """The C enumeration from every start of n x n: ``(tours, nodes)``."""
    from bench.baselines import c as c_baseline
    from bench.references import reference_kernels

    kernels = c_baseline.load()
    neighbours = reference_kernels.neighbour_table(n, n)

    def run():
        tours = nodes = 0
        for start in range(n * n):
            _, found, placed = kernels.backtrack(neighbours, start, False, 10**12, False, np.zeros(n * n, np.int32))
            tours += found
            nodes += placed
        return tours, nodes

    return run


def _knight_count(n):
    import knight

    def run():
        counted = knight.count_tours(n, n, pruned=False, symmetry=False)
        return counted.total_tours, counted.total_nodes

    return run


def measure_count(rounds, n=COUNT_BOARD):
    """The plain count from every start, knight against C, interleaved."""
    from bench.baselines import c as c_baseline

    try:
        sides = {"knight": _knight_count(n), "c": _c_count(n)}
    except c_baseline.CompilerMissing as missing:
        return {"missing": str(missing)}
    # no untimed first round: count_tours compiles (or loads) its kernels
    # before its clock starts, and C is loaded above; medians absorb the rest
    times = {name: {"cpu": [], "wall": []} for name in sides}
    answers = {}
    for round_ in range(rounds):
        for name in list(sides) if round_ % 2 == 0 else list(sides)[::-1]:
            began, began_cpu = time.perf_counter(), cpu_clock()
            answers[name] = sides[name]()
            times[name]["cpu"].append(cpu_clock() - began_cpu)
            times[name]["wall"].append(time.perf_counter() - began)
    if answers["knight"] != answers["c"]:
        raise AssertionError(f"plain count of {n}x{n}: knight {answers['knight']}, C {answers['c']}")
    ratios = {
        clock: _spread([c / ours for c, ours in zip(times["c"][clock], times["knight"][clock], strict=True)])
        for clock in ("cpu", "wall")
    }
    tours, nodes = answers["knight"]
    return {
        "board": n,
        "tours": tours,
        "nodes": nodes,
        "rounds": rounds,
        "knight_over_c": ratios,
        "seconds": {
            name: {clock: statistics.median(values) for clock, values in by_clock.items()}
            for name, by_clock in times.items()
        },
    }


def measure(quick=False):
    """What overhead.json holds."""
    sizes = SIZES_QUICK if quick else SIZES
    return {
        "solve": measure_solve(sizes, 1 if quick else 3),
        "greedy_repeats": measure_greedy_repeats(sizes[-1], REPEATS),
        "plain_count": measure_count(1 if quick else 5),
    }


def _ratio(spread):
    return f"{spread['median']:.2f}x ({spread['min']:.2f}-{spread['max']:.2f})"


def section(measured, measured_corners=None):
    """REPORT.md's part on set-up against search (bench/py)."""
    solve = measured["solve"]
    sizes = sorted({int(n) for by_size in solve.values() for n in by_size})
    lines = []
    for name, by_size in solve.items():
        cells = []
        for n in sizes:
            entry = by_size.get(str(n))
            cells.append(
                "-"
                if entry is None
                else f"{_ratio(entry['wall_over_kernel'])}, {seconds_text(entry['kernel_s'])} {entry['status']}"
            )
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
        markdown_table(("search", *(f"{n}x{n}: wall / kernel" for n in sizes)), lines),
        "",
    ]
    if measured_corners is not None and "wall_seconds" in measured_corners:
        kernel = sum(measured_corners["kernel_seconds"].values())
        parts += [
            f"- The corner study (n = {measured_corners['boards'][0]['n']}..{measured_corners['largest']}, "
            f"4 solves per board): {seconds_text(measured_corners['wall_seconds'])} of wall time for "
            f"{seconds_text(kernel)} of kernel time, **{measured_corners['wall_seconds'] / kernel:.2f}x**.",
        ]
    repeats = measured["greedy_repeats"]
    parts.append(
        f"- Greedy (Roth) on {repeats['n']}x{repeats['n']}, {len(repeats['seconds'])} repeats back to back: the "
        f"slowest took **{repeats['slowest_over_fastest']:.2f}x** the fastest "
        f"({', '.join(seconds_text(s) for s in repeats['seconds'])})."
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


class OverheadStudy(Study):
    name = "overhead"
    data_file = OVERHEAD
    extra = "overhead"
    skip_help = "preset sweeps: skip timing set-up against search (solve, count)"
    announcement = "set-up against search (solve, plain count)"

    def setting(self, quick):
        return "quick" if quick else "default"

    def measure(self, setting):
        return measure(quick=setting == "quick")

    def figure(self, measured, path):
        return None  # a table and findings, no figure

    def section(self, measured, figure, studied):
        return section(measured, studied.get("corners"))


STUDY = OverheadStudy()
