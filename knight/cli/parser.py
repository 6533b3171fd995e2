"""This module builds the ``knight`` parser, with one subparser for each command.

Each command's own module adds its subparser and also runs it
(``args.run``)."""

from knight.cli import count, estimate, exists, solve
from knight.exit_status import OneLineParser

# in the order ``knight --help`` lists them
COMMANDS = (solve, count, estimate, exists)


def build_parser():
    parser = OneLineParser(prog="knight", description="Knight's tours: search, count, and what theory says.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    for command in COMMANDS:
        command.add_parser(commands).set_defaults(run=command.run)
    return parser
