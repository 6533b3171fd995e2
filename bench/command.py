"""What the harness's commands share: one-line errors and exit statuses.

Bad settings end in one line on stderr and exit status 2, before any work
starts, as the ``knight`` command does; an interrupt ends in 130.
"""

import argparse
import sys

from knight import validate
from knight.errors import InvalidArgument

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class Parser(argparse.ArgumentParser):
    def error(self, message):
        # argparse would print its whole usage block; one line is the promise
        raise InvalidArgument(f"{message} (see '{self.prog} --help')")


def fail(error):
    print(f"bench: error: {validate.one_line(error)}", file=sys.stderr)
    return EXIT_USAGE


def parse_boards(text):
    """``6x6,8x8`` as ``[(6, 6), (8, 8)]``."""
    boards = []
    for item in text.split(","):
        sides = item.strip().lower().split("x")
        if len(sides) != 2:
            raise InvalidArgument(f"a board is ROWSxCOLS, like 6x8, got {item.strip()!r}")
        boards.append(validate.board(*(validate.integer_text(side, "board side") for side in sides)))
    return boards
