"""Run ``knight count``, which counts the tours from one start, or from each start as a grid.

``--total`` routes the command to ``knight.cli.total``, which prints the
total alone.
"""

import argparse

from knight import validate
from knight.cli import total
from knight.cli.options import board, board_args, budget, disk, json_arg, memory, optional_integer, start
from knight.cli.printing import MAX_PRINTED_SQUARES, fields_of, json_head, print_fields, print_json
from knight.cli.progress_bar import progress_bar
from knight.cli.projection import print_projections
from knight.cli.svg_option import draw, svg_arg, svg_target
from knight.errors import InvalidArgument


def _power_of_ten(number):
    """``10^12`` for 10**12: a budget as the help text writes it."""
    exponent = len(str(number)) - 1
    return f"10^{exponent}" if number == 10**exponent else str(number)


def add_parser(commands):
    count = commands.add_parser("count", help="count every tour", description="Count every tour exhaustively.")
    board_args(count)
    count.add_argument("--start", help="R,C or e4: one start square; default every start square")
    count.add_argument(
        "--budget", help=f"most nodes per work unit; default {_power_of_ten(validate.DEFAULT_COUNT_BUDGET)}"
    )
    count.add_argument("--closed", action="store_true", help="count closed tours only")
    count.add_argument("--plain", action="store_true", help="no pruning: the plain search, node for node")
    count.add_argument("--depth", help="split into work units this many moves from the start; default automatic")
    count.add_argument("--workers", help="local threads; default every core")
    count.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on the Dask cluster at this address ([tcp|tls|ws|wss://]HOST:PORT): the dfs's work units, or the "
        "dp's steps (--method dp, --total) partitioned over its workers",
    )
    count.add_argument(
        "--resume",
        metavar="FILE",
        help="keep finished work in FILE and skip what it holds: the dfs's work units, or the dp's last finished "
        "step (a checkpoint)",
    )
    count.add_argument(
        "--method",
        help="dfs (enumerate: the search the benchmark measures) | dp (frontier dynamic program, no enumeration) "
        "| auto; default auto: the one expected to finish first on this board",
    )
    count.add_argument(
        "--memory",
        metavar="SIZE",
        help="the dp's budget of memory (8GiB, 500M, 16GB): steps whose tables would pass it run from disk; "
        "default most of what is free",
    )
    count.add_argument(
        "--disk",
        metavar="SIZE",
        help="the dp's budget of disk for the steps run out of core (same sizes as --memory); default the spill "
        "folder's free space. A dp count whose projected peak (from the per-step states of measured runs) fits "
        "neither budget is refused before it starts",
    )
    count.add_argument(
        "--total",
        action=_TotalFlag,
        help=f"only the total over every start, from one dp run (no grid): takes {total.TAKES} alone",
    )
    count.add_argument(
        "--every-width",
        action="store_true",
        help=f"with --total: the total of every board the run passes, the long side cut to 1, 2, ... squares, "
        f"one line each (ROWS x 1 to ROWS x COLS when ROWS is the short side), from the one run; takes "
        f"{total.TAKES_EVERY_WIDTH}",
    )
    json_arg(count)
    svg_arg(count, "the count of each start (a heatmap)")
    return count


class _TotalFlag(argparse.Action):
    """Set ``--total``, and route the command to ``knight.cli.total.run``."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=False, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, True)
        namespace.run = total.run


def run(args, out):
    """Count the tours from one start or from each start, and print them."""
    if args.every_width:
        raise InvalidArgument("--every-width counts every width's total in one dp run: give it with --total")
    rows, cols = board(args)
    square = start(args, rows, cols)
    if square is None:
        _check_grid_printable(rows, cols, args.closed)
    nodes = budget(args)
    depth = optional_integer(args.depth, "depth", 0, rows * cols - 1)
    workers = optional_integer(args.workers, "workers", 1, validate.MAX_WORKERS)
    svg = svg_target(args, rows, cols, grid=True)

    from knight.counting import driver

    job = driver.prepare(
        rows,
        cols,
        square,
        args.closed,
        nodes,
        pruned=not args.plain,
        depth=depth,
        workers=workers,
        scheduler=args.scheduler,
        resume=args.resume,
        method=args.method,
        memory=memory(args),
        disk=disk(args),
    )
    print_projections(job)
    # the DFS reports work units; the DP reports steps and its table's size
    with progress_bar("step" if job.method == "dp" else "unit", args.resume) as progress:
        counted = driver.count_prepared(job, progress)
    if svg is not None:
        out = draw(svg, counted, out)
    if counted.ruled_out:
        return _print_ruled_out(counted, square, args.json, out)
    if counted.method == "dp":
        return _print_dp_count(counted, square, args.json, out)
    return _print_dfs_count(counted, square, args.json, out)


def _check_grid_printable(rows, cols, closed):
    """Refuse, before the work, a grid of every start's count too large to
    print (or to hold as JSON): at ``MAX_PRINTED_SQUARES`` a per-start
    count by the DP is already hours to weeks, one run per symmetry class
    (journal: "Counting by search")."""
    from knight.geometry import theory

    squares = rows * cols
    if squares <= MAX_PRINTED_SQUARES:
        return
    reason = theory.no_tour_reason(rows, cols, closed)
    known = f"; {reason}, so every count is 0" if reason else ""
    raise InvalidArgument(
        f"a grid of every start's count on {rows}x{cols} is {squares} squares, too large to print "
        f"(at most {MAX_PRINTED_SQUARES}){known}: give --start R,C or --total for one number"
    )


def _print_grid(counted, start, out):
    if start is None:
        width = max(len(str(value)) for value in counted.tours.flat)
        for line in counted.tours:
            print(" ".join(f"{value:>{width}}" for value in line), file=out)


def _grid_head(counted, start, **fields):
    """A count's first JSON keys, with its grid where it counted every start."""
    record = json_head(counted.rows, counted.cols, counted.closed, start, **fields)
    if start is None:
        record["grid"] = counted.tours.tolist()
    return record


def _print_dfs_count(counted, start, as_json, out):
    if as_json:
        record = _grid_head(counted, start, budget=counted.budget)
        record.update(tours=counted.total_tours, nodes=counted.total_nodes)
        record.update(fields_of(counted, "pruned", "depth", "units", "complete", "seconds"))
        print_json(record, out)
        return 0
    _print_grid(counted, start, out)
    kind = "closed" if counted.closed else "open"
    note = "" if counted.complete else " (lower bound: a search hit its budget)"
    search = "pruned" if counted.pruned else "plain"
    print_fields(
        out,
        ("tours", f"{counted.total_tours} directed {kind} tours{note}"),
        ("nodes", f"{counted.total_nodes} ({search} search)"),
        ("units", f"{counted.units} work units, cut at depth {counted.depth}"),
        ("seconds", f"{counted.seconds:.3f}"),
    )
    return 0


def _print_ruled_out(counted, start, as_json, out):
    """A count the theorems answered: 0 from every start, no work done."""
    if as_json:
        record = _grid_head(counted, start, method="theory")
        record.update(tours=0, ruled_out=counted.ruled_out, complete=True, seconds=0.0)
        print_json(record, out)
        return 0
    _print_grid(counted, start, out)
    kind = "closed" if counted.closed else "open"
    print_fields(out, ("tours", f"0 directed {kind} tours"), ("theory", f"{counted.ruled_out}: nothing searched"))
    return 0


def _print_dp_count(counted, start, as_json, out):
    if as_json:
        record = _grid_head(counted, start, method="dp")
        record.update(tours=counted.total_tours)
        record.update(fields_of(counted, "states_peak", "transitions", "merges", "runs", "complete", "seconds"))
        print_json(record, out)
        return 0
    _print_grid(counted, start, out)
    kind = "closed" if counted.closed else "open"
    print_fields(
        out,
        ("tours", f"{counted.total_tours} directed {kind} tours"),
        ("states", f"{counted.states_peak} at the peak (frontier dynamic program)"),
        ("work", f"{counted.transitions} transitions, {counted.merges} merged, in {counted.runs} runs"),
        ("seconds", f"{counted.seconds:.3f}"),
    )
    return 0
