"""This module holds what the harness's commands share, which is one-line errors and exit statuses.

Bad settings end in one line on stderr and exit status 2, before any work
starts, as the ``knight`` command does; an interrupt ends in 130.
"""

import contextlib
import functools
import io
import os
import sys

from knight import InvalidArgument
from knight.harness_api import exit_status, validate

# the statuses and the one-line parser are the knight command's own, kept
# once in knight.exit_status; bench's commands take them from here
EXIT_INTERRUPTED = exit_status.EXIT_INTERRUPTED
Parser = exit_status.OneLineParser

# interleaved timing rounds of the speed tools: more is hours, not rigour
MAX_ROUNDS = 1000


def rounds(text):
    """``--rounds`` of bench.guard.speed_check and bench.commits.compare: an int in 1..MAX_ROUNDS."""
    return validate.integer_text(text, "rounds", minimum=1, maximum=MAX_ROUNDS)


def threshold(text):
    """``--threshold``: a fraction strictly between 0 and 1 (0.25 = 25%)."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0 < value < 1:
        raise InvalidArgument(f"threshold must be a fraction between 0 and 1 (0.25 = 25%), got {validate.shown(text)}")
    return value


def ends_in_one_line(main):
    """``main(argv)`` ending as the ``knight`` command does (knight's
    ``exit_status.run_command``): a bad option, an unknown revision, a full
    disk, a closed pipe or a Ctrl-C is one line and its exit status."""

    @functools.wraps(main)
    def wrapped(argv=None):
        settle_streams()
        return exit_status.run_command("bench", lambda: main(argv))

    return wrapped


def settle_streams():
    """Make the standard streams safe to write before any work.

    A closed or missing stderr (``2>&-``) becomes a null sink, so that a
    message meant for it is dropped rather than printed on stdout (where
    ``print(file=None)`` would put it) or failing. Stdout writes a name
    that is not UTF-8 as the bytes it came from, whatever the locale.

    Returns
    -------
    None

    Examples
    --------
    >>> settle_streams()
    """
    if sys.stderr is None or _closed(sys.stderr):
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 -- it lives as long as the process
    with contextlib.suppress(AttributeError, ValueError, io.UnsupportedOperation):
        sys.stdout.reconfigure(errors="surrogateescape")


def _closed(stream):
    try:
        return stream.closed or stream.fileno() < 0
    except (ValueError, OSError, AttributeError, io.UnsupportedOperation):
        return not hasattr(stream, "write")


def parse_boards(text):
    """``6x6,8x8`` as ``[(6, 6), (8, 8)]``."""
    boards = []
    for item in text.split(","):
        sides = item.strip().lower().split("x")
        if len(sides) != 2:
            raise InvalidArgument(f"a board is ROWSxCOLS, like 6x8, got {item.strip()!r}")
        boards.append(validate.board(*(validate.integer_text(side, "board side") for side in sides)))
    return boards
