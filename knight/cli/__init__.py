"""This package is the ``knight`` command line.

Squares are numbered from 1 at this edge and from 0 inside the library.

One module per command (``solve``, ``count`` and its ``--total``,
``estimate``, ``exists``), each adding its subparser and running it;
``parser`` puts them together, and ``options``, ``printing``,
``svg_option``, ``projection`` and ``progress_bar`` hold what several
share. Every count goes through ``knight.counting.driver``: its checks,
its memory budget and its projections. Errors in what the user typed end
in one line on stderr and exit status 2. Numba is imported only by the
commands that search, so ``knight exists`` and ``--help`` answer at once.
"""

import sys

from knight.cli.parser import build_parser
from knight.cli.progress_bar import progress_text
from knight.exit_status import run_command

__all__ = ["build_parser", "main", "progress_text"]


def main(argv=None, out=None):
    def body():
        # read here, once run_command has given a closed stdout its stand-in
        args = build_parser().parse_args(argv)
        return args.run(args, sys.stdout if out is None else out)

    return run_command("knight", body)
