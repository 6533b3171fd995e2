"""``knight count ROWS COLS --total``: the DP's total over every start,
from one run, in one line."""

from knight import validate
from knight.cli.options import board, disk, memory
from knight.cli.printing import json_head, print_fields, print_json
from knight.cli.progress_bar import with_progress
from knight.cli.projection import print_projections
from knight.errors import InvalidArgument

# what --total takes, as its help and its refusal say it
TAKES = "--closed, --scheduler, --memory, --disk, --json and --method auto|dp"
# the options of a per-start or a DFS count, refused; and --svg (a heatmap
# of every start's count: --total has one number)
_NOT_WITH_TOTAL = ("start", "budget", "depth", "workers", "resume", "svg")


def run(args, out):
    rows, cols = board(args)
    _refuse_other_options(args)
    from knight.counting import driver

    job = driver.prepare(
        rows,
        cols,
        None,
        args.closed,
        method="dp",
        scheduler=args.scheduler,
        memory=memory(args),
        disk=disk(args),
        total=True,
    )
    print_projections(job)
    reason = job.ruled_out
    if args.json:
        # the run's work beside its tours (driver.total_measured)
        tours, work = with_progress(lambda progress: driver.total_measured(job, progress), "step")
        fields = (
            {"method": "theory", "tours": tours, "ruled_out": reason}
            if reason
            else {"method": "dp", "tours": tours, **work}
        )
        print_json(json_head(rows, cols, job.closed, None, **fields), out)
        return 0
    tours = with_progress(lambda progress: driver.total_prepared(job, progress), "step")
    kind = "closed" if job.closed else "open"
    if reason:
        print_fields(out, ("tours", f"{tours} directed {kind} tours"), ("theory", f"{reason}: nothing searched"))
        return 0
    print_fields(out, ("tours", f"{tours} directed {kind} tours from every start together (frontier dynamic program)"))
    return 0


def _refuse_other_options(args):
    given = [f"--{name}" for name in _NOT_WITH_TOTAL if getattr(args, name) is not None]
    given += ["--plain"] if args.plain else []
    if args.method is not None and validate.choice(args.method, "count method", ("auto", "dfs", "dp")) == "dfs":
        given.append("--method dfs")
    if given:
        raise InvalidArgument(f"--total is one dp run over every start: it takes {TAKES}, not {', '.join(given)}")
