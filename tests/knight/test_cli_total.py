"""`knight count --total` (knight/cli/total.py): what its help and its
refusal say it takes is what it takes (the help once left out --memory,
then --method), and the README's form says the same; a board it refuses
is one line, with no projection printed first (it was two lines, and a
traceback past the projection's floats)."""

import contextlib
import io
import re

import pytest
from test_cli_options import MODES
from test_cli_synopsis import README

from knight import cli, exit_status
from knight.cli import projection, total

TAKES = MODES["count --total"][1]


def _named(text):
    return set(re.findall(r"--[a-z][a-z-]*", text))


def _total_help():
    commands = next(action for action in cli.build_parser()._actions if action.choices)
    return next(action.help for action in commands.choices["count"]._actions if "--total" in action.option_strings)


def test_the_help_names_every_option_total_takes():
    assert _named(_total_help()) == TAKES - {"--total"}
    assert _named(total.TAKES) == TAKES - {"--total"}


def test_the_readme_form_of_total_names_the_same():
    form = re.search(r"`(--total [^`]*)`", README).group(1)
    assert _named(form) == TAKES


def test_every_scheduler_address_in_the_readme_reads_the_same():
    forms = re.findall(r"\[--scheduler ([^\]\s]*\][^\]\s]*)\]", README)
    assert len(forms) >= 2 and set(forms) == {"[tcp|tls|ws|wss://]HOST:PORT"}
    assert "[--scheduler ADDRESS]" not in README


def test_the_refusal_names_what_total_takes(capsys):
    assert cli.main(["count", "3", "4", "--total", "--svg", "x.svg"]) == exit_status.EXIT_USAGE
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"it takes {total.TAKES}, not --svg" in error


@pytest.mark.parametrize("board", [["17", "17"], ["40", "400"]])
def test_a_board_total_refuses_is_one_line_with_no_projection(monkeypatch, board):
    monkeypatch.setattr(projection, "PROJECT_DP_STATES_FROM", 0)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli.main(["count", *board, "--total"], out=io.StringIO())
    assert status == exit_status.EXIT_USAGE
    assert err.getvalue().count("\n") == 1 and err.getvalue().startswith("knight: error: board ")
