"""This module runs ``knight exists``, which says what the theorems say about a board without searching."""

from knight.cli.options import board, board_args, json_arg
from knight.cli.printing import print_json


def add_parser(commands):
    exists = commands.add_parser("exists", help="does a tour exist? (theory, no search)")
    board_args(exists)
    exists.add_argument("--closed", action="store_true", help="ask about closed tours")
    json_arg(exists)
    return exists


def run(args, out):
    from knight.geometry import theory

    rows, cols = board(args)
    exists = theory.tour_exists(rows, cols, args.closed)
    kind, source = ("closed", theory.CLOSED_SOURCE) if args.closed else ("open", theory.OPEN_SOURCE)
    if args.json:
        print_json({"rows": rows, "cols": cols, "closed": args.closed, "exists": exists}, out)
        return 0
    verdict = "yes" if exists else "no"
    print(
        f"{verdict}: {kind} knight's tours {'exist' if exists else 'do not exist'} on {rows}x{cols} ({source})",
        file=out,
    )
    if exists and theory.parity_restricts(rows, cols):
        print("only from squares of the corner's colour (colour parity: odd number of squares)", file=out)
    return 0
