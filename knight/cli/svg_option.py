"""This module adds the ``--svg FILE`` option to ``solve`` and ``count`` and draws the picture.

The target file is checked before any search, and the drawing is written
after it."""

import sys

from knight.errors import InvalidArgument


def svg_arg(parser, what):
    parser.add_argument("--svg", metavar="FILE", help=f"also draw {what} as an SVG picture into FILE (- for stdout)")


def svg_target(args, rows, cols, grid=False):
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


def text_stream(target, out):
    """Where a command's text goes: standard error once the drawing
    (``target``) takes standard output, else ``out``."""
    return sys.stderr if target == "-" else out


def draw(target, done, out):
    """Draw ``done`` (a Result or a Count) into ``target``, after the
    command printed it: a picture that cannot be written loses no result
    (the write's failure still ends the command, exit status 74)."""
    from knight import drawing

    if getattr(done, "tour", True) is None:
        print(f"knight: no tour was found, so nothing was drawn ({target} not written)", file=sys.stderr)
        return
    parts = drawing.result_parts(done) if hasattr(done, "tour") else drawing.count_grid_parts(done)
    drawing.write(target, parts, out)
