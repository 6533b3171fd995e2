"""This module defines the arguments that several commands take and reads them into checked values.

The checks are the API's own, in ``knight.validate``."""

from knight import validate


def board_args(parser):
    parser.add_argument("rows", help="number of rows, >= 1")
    parser.add_argument("cols", help="number of columns, >= 1")


def json_arg(parser):
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def board(args):
    return validate.board(validate.integer_text(args.rows, "rows"), validate.integer_text(args.cols, "cols"))


def start(args, rows, cols):
    """``--start`` as a 0-based square; None without it."""
    return None if args.start is None else validate.start_text(args.start, rows, cols)


def budget(args):
    return optional_integer(args.budget, "budget", 1, validate.MAX_INT64)


def optional_integer(text, name, minimum, maximum):
    return None if text is None else validate.integer_text(text, name, minimum=minimum, maximum=maximum)


def memory(args):
    """``--memory`` in bytes; None without it."""
    return None if args.memory is None else validate.memory_text(args.memory)


def disk(args):
    """``--disk`` in bytes; None without it."""
    return None if args.disk is None else validate.disk_text(args.disk)
