"""This module runs ``knight estimate``, which estimates the size and time of a count before it runs.

It uses Knuth's random-probe estimate of the count's trees, plain and
pruned, and times this machine."""

import math

from knight import validate
from knight.cli.options import board, board_args, json_arg, start
from knight.cli.printing import duration, fields_of, json_head, print_fields, print_json


def add_parser(commands):
    estimate = commands.add_parser(
        "estimate", help="estimate a count's work and time", description="Knuth's random-probe estimate of a count."
    )
    board_args(estimate)
    estimate.add_argument("--start", help="R,C or e4: one start square; default every start square")
    estimate.add_argument("--closed", action="store_true", help="closed tours only")
    estimate.add_argument("--probes", default="10000", help="random walks per searched start; default 10000")
    estimate.add_argument("--seed", default="0", help="random seed; default 0")
    json_arg(estimate)
    return estimate


def run(args, out):
    rows, cols = board(args)
    square = start(args, rows, cols)
    probes = validate.integer_text(args.probes, "probes", minimum=1, maximum=validate.MAX_INT64)
    seed = validate.integer_text(args.seed, "seed", minimum=0, maximum=validate.MAX_SEED)

    from knight.counting import driver

    # it estimates the DFS's trees, plain and pruned, whichever engine a count
    # would pick: planned as for the plain search, which the theorems do not
    # answer (a pruned count on a board without tours places no node); the
    # plan checks the board fits this machine's memory
    job = driver.prepare(rows, cols, square, args.closed, method="dfs", pruned=False)
    guess = driver.estimate(job, probes, seed)
    if args.json:
        record = json_head(rows, cols, guess.closed, square, probes=probes, seed=seed)
        record.update(fields_of(guess, "plain_nodes", "pruned_nodes", "tours", "rate", "workers", "seconds"))
        print_json(record, out)
        return 0
    kind = "closed" if guess.closed else "open"
    if math.isfinite(guess.rate):
        rate = f"{guess.rate / 1e6:.1f} M pruned nodes/s per core, {guess.workers} cores"
    else:
        rate = "not measured: colour parity leaves no start to search"
    print_fields(
        out,
        ("nodes", f"plain ~{guess.plain_nodes:.3g}, pruned ~{guess.pruned_nodes:.3g}"),
        ("tours", f"~{guess.tours:.3g} directed {kind} tours"),
        ("rate", rate),
        ("time", f"~{duration(guess.seconds)} for the pruned count on this machine"),
        ("method", f"Knuth's random probes: {probes} per searched start, seed {seed}"),
    )
    return 0
