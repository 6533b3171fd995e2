"""``knight count ROWS COLS --total``: the DP's total over every start,
from one run, in one line."""

from knight import validate
from knight.cli.options import board, disk, memory
from knight.cli.printing import json_head, print_fields, print_json
from knight.cli.progress_bar import counted
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
    rows, cols = board(args)
    _refuse_other_options(args)
    if args.every_width:
        return _run_every_width(args, rows, cols, out)
    from knight.counting import driver

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
    )
    print_projections(job)
    reason = job.ruled_out
    if args.json:
        # the run's work beside its tours (driver.total_measured)
        tours, work = counted(lambda progress: driver.total_measured(job, progress), args.resume)
        fields = (
            {"method": "theory", "tours": tours, "ruled_out": reason}
            if reason
            else {"method": "dp", "tours": tours, **work}
        )
        print_json(json_head(rows, cols, job.closed, None, **fields), out)
        return 0
    tours = counted(lambda progress: driver.total_prepared(job, progress), args.resume)
    kind = "closed" if job.closed else "open"
    if reason:
        print_fields(out, ("tours", f"{tours} directed {kind} tours"), ("theory", f"{reason}: nothing searched"))
        return 0
    print_fields(out, ("tours", f"{tours} directed {kind} tours from every start together (frontier dynamic program)"))
    return 0


def _run_every_width(args, rows, cols, out):
    """``--total --every-width``: a line (a JSON list's item) per width."""
    from knight.counting import driver

    job = driver.prepare(rows, cols, None, args.closed, method="dp", memory=memory(args), total=True)
    print_projections(job)
    boards = counted(lambda progress: driver.every_width_prepared(job, progress), None)
    if args.json:
        print_json(
            [json_head(r, c, job.closed, None, **_width_fields(r, c, job.closed, tours)) for r, c, tours in boards], out
        )
        return 0
    kind = "closed" if job.closed else "open"
    print_fields(
        out, *((f"{r}x{c}", f"{tours} directed {kind} tours from every start together") for r, c, tours in boards)
    )
    return 0


def _width_fields(rows, cols, closed, tours):
    """A width's JSON fields, as ``--total`` gives them: the dp's count, or
    where the theorems leave no tour, theirs and its reason (a run that
    passes that width counts 0 there too: tests hold the two to it)."""
    from knight.geometry import theory

    reason = theory.no_tour_reason(rows, cols, closed)
    return {"method": "theory", "tours": tours, "ruled_out": reason} if reason else {"method": "dp", "tours": tours}


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
