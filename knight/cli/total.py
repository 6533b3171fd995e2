"""Run ``knight count ROWS COLS --total``, which prints the DP's total over every start from one run.

With ``--every-width`` the command prints the total of every width of the
board instead, one line each, from that same run.
"""

from knight import validate
from knight.cli.options import board, disk, memory
from knight.cli.printing import json_head, print_fields, print_json
from knight.cli.progress_bar import progress_bar
from knight.cli.projection import print_projections
from knight.errors import InvalidArgument

# what --total takes, as its help and its refusal say it
TAKES = "--closed, --scheduler, --resume, --memory, --disk, --every-width, --json and --method auto|dp"
# and with --every-width: no cluster (the sweep's run is the one in this process)
TAKES_EVERY_WIDTH = "--closed, --memory, --json and --method auto|dp"
# the options of a per-start or a DFS count, refused; and --svg (a heatmap
# of every start's count: --total has one number)
_NOT_WITH_TOTAL = ("start", "budget", "depth", "workers", "svg")


def run(args, out):
    """Count the total over every start (or of every width), and print it."""
    from knight.counting import driver

    rows, cols = board(args)
    _refuse_other_options(args)
    job = driver.prepare(
        rows,
        cols,
        None,
        args.closed,
        method="dp",
        scheduler=args.scheduler,
        resume=args.resume,
        memory=memory(args),
        disk=disk(args),
        total=True,
        every_width=args.every_width,
    )
    print_projections(job)
    if args.every_width:
        with progress_bar("step") as progress:
            totals = driver.every_width_of(job, progress)
        return _print_widths(totals, args.json, out)
    with progress_bar("step", args.resume) as progress:
        total = driver.total_of(job, progress)
    return _print_total(total, args.json, out)


def _print_total(total, as_json, out):
    """Print a ``Total``: its JSON object, or its one line."""
    if as_json:
        print_json(json_head(total.rows, total.cols, total.closed, None, **_json_fields(total)), out)
        return 0
    kind = "closed" if total.closed else "open"
    if total.ruled_out:
        print_fields(
            out, ("tours", f"{total.tours} directed {kind} tours"), ("theory", f"{total.ruled_out}: nothing searched")
        )
        return 0
    line = f"{total.tours} directed {kind} tours from every start together (frontier dynamic program)"
    print_fields(out, ("tours", line))
    return 0


def _json_fields(total):
    """Return the JSON fields of a ``Total`` after its board."""
    if total.ruled_out:
        return {"method": "theory", "tours": total.tours, "ruled_out": total.ruled_out}
    fields = total.as_dict()
    for name in ("rows", "cols", "closed", "ruled_out", "method", "tours"):
        del fields[name]
    return {"method": total.method, "tours": total.tours, **fields}


def _print_widths(totals, as_json, out):
    """Print a ``WidthTotals``: one line (one JSON item) per width."""
    if as_json:
        records = [json_head(w.rows, w.cols, totals.closed, None, **_width_fields(w)) for w in totals.widths]
        print_json(records, out)
        return 0
    kind = "closed" if totals.closed else "open"
    lines = (
        (f"{w.rows}x{w.cols}", f"{w.tours} directed {kind} tours from every start together") for w in totals.widths
    )
    print_fields(out, *lines)
    return 0


def _width_fields(width):
    """Return a width's JSON fields: the DP's count, or the theorems' 0 and their reason.

    A run that passes a width that the theorems rule out counts 0 there
    too, and tests hold the two to each other.
    """
    if width.ruled_out:
        return {"method": "theory", "tours": width.tours, "ruled_out": width.ruled_out}
    return {"method": "dp", "tours": width.tours}


def _refuse_other_options(args):
    given = [f"--{name}" for name in _NOT_WITH_TOTAL if getattr(args, name) is not None]
    given += ["--plain"] if args.plain else []
    if args.method is not None and validate.choice(args.method, "count method", ("auto", "dfs", "dp")) == "dfs":
        given.append("--method dfs")
    if args.every_width:
        given += ["--scheduler"] if args.scheduler is not None else []
        given += ["--disk"] if args.disk is not None else []  # its run does not budget the disk yet
        given += ["--resume"] if args.resume is not None else []  # nor keeps a checkpoint
        if given:
            raise InvalidArgument(
                f"--total --every-width is one dp run in this process: it takes {TAKES_EVERY_WIDTH}, "
                f"not {', '.join(given)}"
            )
    if given:
        raise InvalidArgument(f"--total is one dp run over every start: it takes {TAKES}, not {', '.join(given)}")
