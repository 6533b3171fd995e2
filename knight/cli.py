"""The ``knight`` command line: 1-based squares at this edge, 0-based inside.

Errors in what the user typed end in one line on stderr and exit status 2.
Numba is imported only by the commands that search, so ``knight exists``
and ``--help`` answer at once.
"""

import math
import os
import sys

from knight import strict_json, validate
from knight.errors import InvalidArgument
from knight.exit_status import OneLineParser, run_command, stopped_by_signal

# boards printed square by square up to this size; larger ones would only
# scroll past, so they are summarised instead
MAX_PRINTED_SQUARES = 10_000
# a JSON tour is written this many squares at a time, so that the CLI holds
# a few MB beyond the search's own arrays however long the tour
JSON_TOUR_CHUNK = 1 << 13
# what one chunk costs while it is formatted: two Python ints a square
# (28 bytes and a tuple slot each), the text, the NumPy temporaries
JSON_TOUR_CHUNK_BYTES = JSON_TOUR_CHUNK * (2 * (28 + 8) + 24 + 32)


def format_board(rows, cols, tour):
    """The board with each square's 1-based step number, columns aligned."""
    steps = [[0] * cols for _ in range(rows)]
    for step, square in enumerate(tour, 1):
        row, col = divmod(int(square), cols)
        steps[row][col] = step
    width = len(str(rows * cols))
    return "\n".join(" ".join(f"{step:>{width}}" for step in line) for line in steps)


def _power_of_ten(number):
    """``10^12`` for 10**12: a budget as the help text writes it."""
    exponent = len(str(number)) - 1
    return f"10^{exponent}" if number == 10**exponent else str(number)


def _board_args(parser):
    parser.add_argument("rows", help="number of rows, >= 1")
    parser.add_argument("cols", help="number of columns, >= 1")


def _json_arg(parser):
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def _svg_arg(parser, what):
    parser.add_argument("--svg", metavar="FILE", help=f"also draw {what} as an SVG picture into FILE (- for stdout)")


def build_parser():
    parser = OneLineParser(prog="knight", description="Knight's tours: search, count, and what theory says.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)

    solve = commands.add_parser("solve", help="find one tour", description="Find one knight's tour.")
    _board_args(solve)
    solve.add_argument("--start", default="1,1", help="R,C (1-based) or chess notation like e4; default 1,1")
    solve.add_argument("--method", default="warnsdorff", help=f"{'|'.join(validate.METHODS)}; default warnsdorff")
    solve.add_argument(
        "--tiebreak", help="first|roth: order among equal onward degrees (not backtrack, which has no tie rule)"
    )
    solve.add_argument("--budget", help=f"most nodes to place before giving up; default {validate.DEFAULT_BUDGET}")
    solve.add_argument("--closed", action="store_true", help="require the last square to be a move from the first")
    _json_arg(solve)
    _svg_arg(solve, "the tour")

    count = commands.add_parser("count", help="count every tour", description="Count every tour exhaustively.")
    _board_args(count)
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
        "--total",
        action="store_true",
        help="only the total over every start, from one dp run (no grid): takes --closed, --scheduler, --memory "
        "and --json alone",
    )
    _json_arg(count)
    _svg_arg(count, "the count of each start (a heatmap)")

    estimate = commands.add_parser(
        "estimate", help="estimate a count's work and time", description="Knuth's random-probe estimate of a count."
    )
    _board_args(estimate)
    estimate.add_argument("--start", help="R,C or e4: one start square; default every start square")
    estimate.add_argument("--closed", action="store_true", help="closed tours only")
    estimate.add_argument("--probes", default="10000", help="random walks per searched start; default 10000")
    estimate.add_argument("--seed", default="0", help="random seed; default 0")
    _json_arg(estimate)

    exists = commands.add_parser("exists", help="does a tour exist? (theory, no search)")
    _board_args(exists)
    exists.add_argument("--closed", action="store_true", help="ask about closed tours")
    _json_arg(exists)
    return parser


def _board(args):
    return validate.board(validate.integer_text(args.rows, "rows"), validate.integer_text(args.cols, "cols"))


def _budget(args):
    if args.budget is None:
        return None
    return validate.integer_text(args.budget, "budget", minimum=1, maximum=validate.MAX_INT64)


def run_solve(args, out):
    rows, cols = _board(args)
    start = validate.start_text(args.start, rows, cols)
    validate.choice(args.method, "method", validate.METHODS)
    if args.tiebreak is not None and args.method == "backtrack":
        raise InvalidArgument("--tiebreak: backtrack tries moves in one fixed order and has no tie rule; leave it out")
    tiebreak = validate.choice("first" if args.tiebreak is None else args.tiebreak, "tiebreak", validate.TIEBREAKS)
    budget = _budget(args)
    validate.fits_in_memory(rows, cols, args.method, held=JSON_TOUR_CHUNK_BYTES if args.json else 0)
    svg = _svg_target(args, rows, cols)

    from knight.search.solver import solve

    result = solve(rows, cols, start, args.method, budget, args.closed, tiebreak)
    if svg is not None:
        out = _draw(svg, result, out)
    if args.json:
        record = {
            "rows": rows,
            "cols": cols,
            "start": [start[0] + 1, start[1] + 1],
            "method": result.method,
            "tiebreak": result.tiebreak,
            "closed": result.closed,
            "budget": result.budget,
            "status": result.status,
            "nodes": result.nodes,
            "seconds": result.seconds,
        }
        _print_json_with_tour(record, result, out)
        return 0
    if result.tour is not None:
        if rows * cols <= MAX_PRINTED_SQUARES:
            print(format_board(rows, cols, result.tour), file=out)
        else:
            print(f"(board of {rows * cols} squares not printed; --json gives the tour)", file=out)
    kind = "closed" if result.closed else "open"
    ties = "" if result.method == "backtrack" else f", tiebreak {result.tiebreak}"
    _print_fields(
        out,
        ("status", result.status),
        ("search", f"{result.method} ({kind}{ties}) from {start[0] + 1},{start[1] + 1}"),
        ("nodes", f"{result.nodes} (budget {result.budget})"),
        ("seconds", f"{result.seconds:.6f}"),
    )
    return 0


def _svg_target(args, rows, cols, grid=False):
    """Where ``--svg`` draws, checked before any search; None without it."""
    if args.svg is None:
        return None
    from knight import drawing

    if grid and args.start is not None:
        raise InvalidArgument("--svg draws the count of every start square; leave out --start")
    if args.svg == "-" and args.json:
        raise InvalidArgument("--svg - and --json both write to standard output; give --svg a file name")
    drawing.check_size(rows, cols, grid)
    return drawing.check_target(args.svg)


def _draw(target, done, out):
    """Draw ``done`` (a Result or a Count) into ``target``; returns where
    the text goes: standard error once the drawing took standard output."""
    from knight import drawing

    if getattr(done, "tour", True) is None:
        print(f"knight: no tour was found, so nothing was drawn ({target} not written)", file=sys.stderr)
        return out
    parts = drawing.result_parts(done) if hasattr(done, "tour") else drawing.count_grid_parts(done)
    drawing.write(target, parts, out)
    return sys.stderr if target == "-" else out


def _print_fields(out, *fields):
    """One ``name value`` line per field, the values aligned in one column."""
    for name, value in fields:
        print(f"{name:<8} {value}", file=out)


def _print_json_with_tour(record, result, out):
    """``record`` with a last key ``tour``: 1-based ``[row, col]`` pairs,
    written a chunk at a time straight from the NumPy array (a Python list
    of pairs would take about 200 bytes a square)."""
    if result.tour is None:
        _print_json({**record, "tour": None}, out)
        return
    from knight.board import coordinates

    head = strict_json.dumps(record)
    out.write(head[:-1] + ', "tour": [')
    squares = len(result.tour)
    for begin in range(0, squares, JSON_TOUR_CHUNK):
        pairs = coordinates(result.cols, result.tour[begin : begin + JSON_TOUR_CHUNK]) + 1
        text = ("[%d, %d], " * len(pairs)) % tuple(pairs.ravel().tolist())
        out.write(text if begin + JSON_TOUR_CHUNK < squares else text[:-2])
    out.write("]}\n")


def _print_json(record, out):
    print(strict_json.dumps(record), file=out)


def _optional_integer(text, name, minimum, maximum):
    return None if text is None else validate.integer_text(text, name, minimum=minimum, maximum=maximum)


def _json_head(rows, cols, closed, start, **fields):
    """The first keys of a count's or an estimate's JSON object."""
    record = {"rows": rows, "cols": cols, "closed": closed, **fields}
    if start is not None:
        record["start"] = [start[0] + 1, start[1] + 1]
    return record


def _fields(result, *names):
    """Some fields of a result, by name, for its JSON object."""
    return {name: getattr(result, name) for name in names}


def run_count(args, out):
    if args.total:
        return run_count_total(args, out)
    rows, cols = _board(args)
    start = None if args.start is None else validate.start_text(args.start, rows, cols)
    if start is None:
        _check_grid_printable(rows, cols, args.closed)
    budget = _budget(args)
    depth = _optional_integer(args.depth, "depth", 0, rows * cols - 1)
    workers = _optional_integer(args.workers, "workers", 1, validate.MAX_WORKERS)
    svg = _svg_target(args, rows, cols, grid=True)

    from knight.counting import driver

    job = driver.prepare(
        rows,
        cols,
        start,
        args.closed,
        budget,
        pruned=not args.plain,
        depth=depth,
        workers=workers,
        scheduler=args.scheduler,
        resume=args.resume,
        method=args.method,
        memory=_memory(args),
    )
    if not job.ruled_out:
        _print_projections(job)
    try:
        # the DFS reports work units; the DP reports steps and its table's size
        unit = "step" if job.method == "dp" else "unit"
        counted = _with_progress(lambda progress: driver.count_prepared(job, progress), unit)
    except BaseException as error:
        # only where a resume file holds something: a Ctrl-C before the
        # first unit finished leaves none to point at
        if stopped_by_signal(error) and args.resume and os.path.isfile(args.resume):
            print(
                f"knight: finished work is kept in {args.resume}; run again with --resume to go on",
                file=sys.stderr,
            )
        raise
    if svg is not None:
        out = _draw(svg, counted, out)
    if counted.ruled_out:
        return _print_ruled_out(counted, start, args.json, out)
    if counted.method == "dp":
        return _print_dp_count(counted, start, args.json, out)
    if args.json:
        record = _json_head(rows, cols, counted.closed, start, budget=counted.budget)
        if start is None:
            record["grid"] = counted.tours.tolist()
        record.update(tours=counted.total_tours, nodes=counted.total_nodes)
        record.update(_fields(counted, "pruned", "depth", "units", "complete", "seconds"))
        _print_json(record, out)
        return 0
    _print_grid(counted, start, out)
    kind = "closed" if counted.closed else "open"
    note = "" if counted.complete else " (lower bound: a search hit its budget)"
    search = "pruned" if counted.pruned else "plain"
    _print_fields(
        out,
        ("tours", f"{counted.total_tours} directed {kind} tours{note}"),
        ("nodes", f"{counted.total_nodes} ({search} search)"),
        ("units", f"{counted.units} work units, cut at depth {counted.depth}"),
        ("seconds", f"{counted.seconds:.3f}"),
    )
    return 0


def _check_grid_printable(rows, cols, closed):
    """Refuse, before the work, a grid of every start's count too large to
    print (or to hold as JSON): at ``MAX_PRINTED_SQUARES``, a per-start
    count by the DP is already hours (4 x 2500: ~2500 runs of ~26 s) to
    weeks (5 x 2000: of ~18 min), measured one run at a time."""
    from knight import theory

    squares = rows * cols
    if squares <= MAX_PRINTED_SQUARES:
        return
    reason = theory.no_tour_reason(rows, cols, closed)
    known = f"; {reason}, so every count is 0" if reason else ""
    raise InvalidArgument(
        f"a grid of every start's count on {rows}x{cols} is {squares} squares, too large to print "
        f"(at most {MAX_PRINTED_SQUARES}){known}: give --start R,C or --total for one number"
    )


def _print_projections(job):
    """What a long count will take, on stderr, before it starts."""
    if job.method == "dfs" and job.rows * job.cols > PROJECT_COUNTS_ABOVE:
        _print_projection(job)
    if job.method == "dp" and job.scheduler is None:
        _print_dp_projection(job.rows, job.cols, job.closed, 0 if job.closed else len(job.searched), job.memory)


def _print_grid(counted, start, out):
    if start is None:
        width = max(len(str(value)) for value in counted.tours.flat)
        for line in counted.tours:
            print(" ".join(f"{value:>{width}}" for value in line), file=out)


def _print_ruled_out(counted, start, as_json, out):
    """A count the theorems answered: 0 from every start, no work done."""
    if as_json:
        record = _json_head(counted.rows, counted.cols, counted.closed, start, method="theory")
        if start is None:
            record["grid"] = counted.tours.tolist()
        record.update(tours=0, ruled_out=counted.ruled_out, complete=True, seconds=0.0)
        _print_json(record, out)
        return 0
    _print_grid(counted, start, out)
    kind = "closed" if counted.closed else "open"
    _print_fields(out, ("tours", f"0 directed {kind} tours"), ("theory", f"{counted.ruled_out}: nothing searched"))
    return 0


def _print_dp_count(counted, start, as_json, out):
    if as_json:
        record = _json_head(counted.rows, counted.cols, counted.closed, start, method="dp")
        if start is None:
            record["grid"] = counted.tours.tolist()
        record.update(tours=counted.total_tours)
        record.update(_fields(counted, "states_peak", "transitions", "merges", "runs", "complete", "seconds"))
        _print_json(record, out)
        return 0
    _print_grid(counted, start, out)
    kind = "closed" if counted.closed else "open"
    _print_fields(
        out,
        ("tours", f"{counted.total_tours} directed {kind} tours"),
        ("states", f"{counted.states_peak} at the peak (frontier dynamic program)"),
        ("work", f"{counted.transitions} transitions, {counted.merges} merged, in {counted.runs} runs"),
        ("seconds", f"{counted.seconds:.3f}"),
    )
    return 0


# boards of more squares than 6x6 take minutes to days to count: say how
# long before starting
PROJECT_COUNTS_ABOVE = 36
_PROJECTION_PROBES = 2_000


def _print_projection(job):
    from knight.counting.dfs.tree_estimate import estimate_count

    guess = estimate_count(job, probes=_PROJECTION_PROBES)
    nodes = guess.pruned_nodes if job.pruned else guess.plain_nodes
    seconds = nodes / (guess.rate * guess.workers)
    print(
        f"knight: about {nodes:.2g} nodes, roughly {_duration(seconds)} on {guess.workers} cores "
        f"(Knuth's estimate from {_PROJECTION_PROBES} probes per start; it can be far off on large boards)",
        file=sys.stderr,
    )


# the DP's projection is printed for runs projected to hold this many
# states at their peak (7 x 7 open: 35 million), not for boards that take
# seconds (short side 6 open, bounded at 10 million; 7 x 8 closed, 8)
PROJECT_DP_STATES_FROM = 20_000_000


def _print_dp_projection(rows, cols, closed, forced_runs, memory):
    """One line on stderr before a large DP run: its peak states, memory,
    disk out of core, and time on this machine's cores."""
    from knight import machine
    from knight.counting.dp import memory_model as dp_memory

    guess = dp_memory.projection(rows, cols, closed, forced_runs)
    if guess.states < PROJECT_DP_STATES_FROM:
        return
    room = machine.available_memory() if memory is None else min(memory, machine.available_memory())
    where = (
        "in memory"
        if guess.memory_bytes <= room
        else f"past the {_gib(room)} it may use: out of core, ~{_gib(guess.disk_bytes)} of disk"
    )
    cores = machine.usable_cores()
    print(
        f"knight: about {guess.states:.2g} states at the dp's peak, ~{_gib(guess.memory_bytes)} of tables ({where}), "
        f"roughly {_duration(guess.core_seconds / cores)} on {cores} cores "
        "(extrapolated from measured runs; read it to a factor of a few)",
        file=sys.stderr,
    )


def _gib(size):
    return f"{size / 2**30:.1f} GiB"


def _with_progress(count, unit):
    """``count(progress)``, with a progress bar in ``unit``s on a terminal
    (``count(None)`` elsewhere)."""
    if not sys.stderr.isatty():
        return count(None)
    from tqdm import tqdm

    with tqdm(unit=unit, file=sys.stderr, leave=False) as bar:

        def progress(done, total, held=None, rates=None):
            bar.total = total
            bar.n = done
            if held is not None:
                bar.set_postfix_str(progress_text(held, _peak_memory_mib(), rates), refresh=False)
            bar.refresh()

        return count(progress)


def progress_text(held, memory_mib, rates=None):
    """The DP's part of the progress line: the states held, this process's
    peak memory, and on a cluster (``rates``: worker to transitions a
    second of its task time in the last step) the workers' slowest and
    fastest rate. One line at any number of workers."""
    text = f"{held:,} states, peak memory {memory_mib:,} MiB"
    if rates:
        slowest, fastest = min(rates.values()), max(rates.values())
        span = _rate(fastest) if len(rates) == 1 else f"{_rate(slowest)}-{_rate(fastest)}"
        text += f", {len(rates)} worker{'s' if len(rates) > 1 else ''} at {span} transitions/s"
    return text


def _rate(value):
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= size:
            return f"{value / size:.3g}{suffix}"
    return f"{value:.3g}"


# what --total takes: the options of a per-start or a DFS count are refused,
# and --svg (a heatmap of every start's count: --total has one number)
_NOT_WITH_TOTAL = ("start", "budget", "depth", "workers", "resume", "svg")


def _memory(args):
    return None if args.memory is None else validate.memory_text(args.memory)


def run_count_total(args, out):
    """``knight count R C --total``: the DP's total over every start, one line."""
    rows, cols = _board(args)
    given = [f"--{name}" for name in _NOT_WITH_TOTAL if getattr(args, name) is not None]
    given += ["--plain"] if args.plain else []
    if args.method is not None and validate.choice(args.method, "count method", ("auto", "dfs", "dp")) == "dfs":
        given.append("--method dfs")
    if given:
        refused = ", ".join(given)
        raise InvalidArgument(
            "--total is one dp run over every start: it takes --closed, --scheduler, --memory and --json, "
            f"not {refused}"
        )
    from knight import theory
    from knight.counting import driver

    memory = _memory(args)
    if args.scheduler is None and not theory.no_tour_reason(rows, cols, args.closed):  # else nothing is run
        _print_dp_projection(rows, cols, args.closed, 0, memory)
    total = _with_progress(
        lambda progress: driver.count_total(rows, cols, args.closed, progress, args.scheduler, memory), "step"
    )
    reason = theory.no_tour_reason(rows, cols, args.closed)
    if args.json:
        fields = (
            {"method": "theory", "tours": total, "ruled_out": reason} if reason else {"method": "dp", "tours": total}
        )
        _print_json(_json_head(rows, cols, args.closed, None, **fields), out)
        return 0
    kind = "closed" if args.closed else "open"
    if reason:
        _print_fields(out, ("tours", f"{total} directed {kind} tours"), ("theory", f"{reason}: nothing searched"))
        return 0
    _print_fields(out, ("tours", f"{total} directed {kind} tours from every start together (frontier dynamic program)"))
    return 0


def _peak_memory_mib():
    import resource

    # ru_maxrss is in KiB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def run_estimate(args, out):
    rows, cols = _board(args)
    start = None if args.start is None else validate.start_text(args.start, rows, cols)
    probes = validate.integer_text(args.probes, "probes", minimum=1, maximum=validate.MAX_INT64)
    seed = validate.integer_text(args.seed, "seed", minimum=0, maximum=validate.MAX_SEED)
    validate.fits_in_memory(rows, cols, "count")

    from knight.counting import driver
    from knight.counting.dfs.tree_estimate import estimate_count

    # it estimates the DFS's trees, plain and pruned, whichever engine a count
    # would pick: planned as for the plain search, which the theorems do not
    # answer (a pruned count on a board without tours places no node)
    job = driver.prepare(rows, cols, start, args.closed, method="dfs", pruned=False)
    guess = estimate_count(job, probes, seed)
    if args.json:
        record = _json_head(rows, cols, guess.closed, start, probes=probes, seed=seed)
        record.update(_fields(guess, "plain_nodes", "pruned_nodes", "tours", "rate", "workers", "seconds"))
        _print_json(record, out)
        return 0
    kind = "closed" if guess.closed else "open"
    if math.isfinite(guess.rate):
        rate = f"{guess.rate / 1e6:.1f} M pruned nodes/s per core, {guess.workers} cores"
    else:
        rate = "not measured: colour parity leaves no start to search"
    _print_fields(
        out,
        ("nodes", f"plain ~{guess.plain_nodes:.3g}, pruned ~{guess.pruned_nodes:.3g}"),
        ("tours", f"~{guess.tours:.3g} directed {kind} tours"),
        ("rate", rate),
        ("time", f"~{_duration(guess.seconds)} for the pruned count on this machine"),
        ("method", f"Knuth's random probes: {probes} per searched start, seed {seed}"),
    )
    return 0


def _duration(seconds):
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.3g} seconds"


def run_exists(args, out):
    from knight import theory

    rows, cols = _board(args)
    exists = theory.tour_exists(rows, cols, args.closed)
    kind, source = ("closed", theory.CLOSED_SOURCE) if args.closed else ("open", theory.OPEN_SOURCE)
    if args.json:
        _print_json({"rows": rows, "cols": cols, "closed": args.closed, "exists": exists}, out)
        return 0
    verdict = "yes" if exists else "no"
    print(
        f"{verdict}: {kind} knight's tours {'exist' if exists else 'do not exist'} on {rows}x{cols} ({source})",
        file=out,
    )
    if exists and theory.parity_restricts(rows, cols):
        print("only from squares of the corner's colour (colour parity: odd number of squares)", file=out)
    return 0


_COMMANDS = {"solve": run_solve, "count": run_count, "estimate": run_estimate, "exists": run_exists}


def main(argv=None, out=None):
    out = sys.stdout if out is None else out

    def body():
        args = build_parser().parse_args(argv)
        return _COMMANDS[args.command](args, out)

    return run_command("knight", body)
