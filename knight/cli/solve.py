"""This module runs ``knight solve``, which prints one tour as each square's step number or as JSON."""

from knight import validate
from knight.cli.options import board, board_args, budget, json_arg
from knight.cli.printing import MAX_PRINTED_SQUARES, print_fields, print_json
from knight.cli.svg_option import draw, svg_arg, svg_target, text_stream
from knight.errors import InvalidArgument
from knight.files import strict_json

# a JSON tour is written this many squares at a time, so that the CLI holds
# a few MB beyond the search's own arrays however long the tour
JSON_TOUR_CHUNK = 1 << 13
# what one chunk costs while it is formatted: two Python ints a square
# (28 bytes and a tuple slot each), the text, the NumPy temporaries
JSON_TOUR_CHUNK_BYTES = JSON_TOUR_CHUNK * (2 * (28 + 8) + 24 + 32)


def add_parser(commands):
    solve = commands.add_parser("solve", help="find one tour", description="Find one knight's tour.")
    board_args(solve)
    solve.add_argument("--start", default="1,1", help="R,C (1-based) or chess notation like e4; default 1,1")
    solve.add_argument("--method", default="warnsdorff", help=f"{'|'.join(validate.METHODS)}; default warnsdorff")
    solve.add_argument(
        "--tiebreak", help="first|roth: order among equal onward degrees (not backtrack, which has no tie rule)"
    )
    solve.add_argument("--budget", help=f"most nodes to place before giving up; default {validate.DEFAULT_BUDGET}")
    solve.add_argument("--closed", action="store_true", help="require the last square to be a move from the first")
    json_arg(solve)
    svg_arg(solve, "the tour")
    return solve


def format_board(rows, cols, tour):
    """The board with each square's 1-based step number, columns aligned."""
    steps = [[0] * cols for _ in range(rows)]
    for step, square in enumerate(tour, 1):
        row, col = divmod(int(square), cols)
        steps[row][col] = step
    width = len(str(rows * cols))
    return "\n".join(" ".join(f"{step:>{width}}" for step in line) for line in steps)


def run(args, out):
    rows, cols = board(args)
    start = validate.start_text(args.start, rows, cols)
    validate.choice(args.method, "method", validate.METHODS)
    if args.tiebreak is not None and args.method == "backtrack":
        raise InvalidArgument("--tiebreak: backtrack tries moves in one fixed order and has no tie rule; leave it out")
    tiebreak = validate.choice("first" if args.tiebreak is None else args.tiebreak, "tiebreak", validate.TIEBREAKS)
    nodes = budget(args)
    validate.fits_in_memory(rows, cols, args.method, held=JSON_TOUR_CHUNK_BYTES if args.json else 0)
    svg = svg_target(args, rows, cols)

    from knight.search.solver import solve

    result = solve(rows, cols, start, args.method, nodes, args.closed, tiebreak)
    text = text_stream(svg, out)
    if args.json:
        _print_json(result, start, text)
    else:
        _print_text(result, start, text)
    if svg is not None:
        draw(svg, result, out)
    return 0


def _print_json(result, start, out):
    record = {
        "rows": result.rows,
        "cols": result.cols,
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


def _print_text(result, start, out):
    rows, cols = result.rows, result.cols
    if result.tour is not None:
        if rows * cols <= MAX_PRINTED_SQUARES:
            print(format_board(rows, cols, result.tour), file=out)
        else:
            print(f"(board of {rows * cols} squares not printed; --json gives the tour)", file=out)
    kind = "closed" if result.closed else "open"
    ties = "" if result.method == "backtrack" else f", tiebreak {result.tiebreak}"
    print_fields(
        out,
        ("status", result.status),
        ("search", f"{result.method} ({kind}{ties}) from {start[0] + 1},{start[1] + 1}"),
        ("nodes", f"{result.nodes} (budget {result.budget})"),
        ("seconds", f"{result.seconds:.6f}"),
    )


def _print_json_with_tour(record, result, out):
    """``record`` with a last key ``tour``: 1-based ``[row, col]`` pairs,
    written a chunk at a time straight from the NumPy array (a Python list
    of pairs would take about 200 bytes a square)."""
    if result.tour is None:
        print_json({**record, "tour": None}, out)
        return
    from knight.geometry.board import coordinates

    head = strict_json.dumps(record)
    out.write(head[:-1] + ', "tour": [')
    squares = len(result.tour)
    for begin in range(0, squares, JSON_TOUR_CHUNK):
        pairs = coordinates(result.cols, result.tour[begin : begin + JSON_TOUR_CHUNK]) + 1
        text = ("[%d, %d], " * len(pairs)) % tuple(pairs.ravel().tolist())
        out.write(text if begin + JSON_TOUR_CHUNK < squares else text[:-2])
    out.write("]}\n")
