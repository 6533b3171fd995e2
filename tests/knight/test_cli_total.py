"""`knight count --total` (knight/cli/total.py): what its help and its
refusal say it takes is what it takes (the help once left out --memory,
then --method), and the README's form says the same; a board it refuses
is one line, with no projection printed first (it was two lines, and a
traceback past the projection's floats)."""

import contextlib
import io
import json
import re

import pytest
from test_cli_options import MODES
from test_cli_synopsis import README

from knight import cli, count_total, exit_status
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


def _every_width_help():
    commands = next(action for action in cli.build_parser()._actions if action.choices)
    return next(
        action.help for action in commands.choices["count"]._actions if "--every-width" in action.option_strings
    )


def test_the_every_width_help_and_refusal_name_what_it_takes():
    takes = MODES["count --total --every-width"][1] - {"--total", "--every-width"}
    assert _named(total.TAKES_EVERY_WIDTH) == takes
    assert _named(_every_width_help()) == takes | {"--total"}


def test_every_width_prints_a_line_per_width(capsys):
    assert cli.main(["count", "5", "6", "--total", "--every-width"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in lines] == [
        ["5x1", "0"],
        ["5x2", "0"],
        ["5x3", "0"],
        ["5x4", "164"],
        ["5x5", "1728"],
        ["5x6", "37568"],
    ]
    assert all(line.endswith("directed open tours from every start together") for line in lines)


def test_every_width_as_json_is_a_list(capsys):
    assert cli.main(["count", "4", "3", "--total", "--every-width", "--closed", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert [(item["rows"], item["cols"], item["tours"]) for item in record] == [
        (1, 3, 0),
        (2, 3, 0),
        (3, 3, 0),
        (4, 3, 0),
    ]
    # every width a theorem rules out says so, as --total --json does
    assert all(item["method"] == "theory" and item["ruled_out"] for item in record)
    assert cli.main(["count", "3", "4", "--total", "--every-width", "--json"]) == 0
    last = json.loads(capsys.readouterr().out)[-1]
    assert last == {"rows": 3, "cols": 4, "closed": False, "method": "dp", "tours": 16}


def test_total_resume_keeps_its_checkpoint_and_answers_from_it(tmp_path, capsys):
    """``--total --resume F``: the total, saved as it runs; F then holds it
    finished, and a second run answers from it; ``--every-width`` keeps no
    checkpoint and refuses it in one line."""
    path = tmp_path / "5x6.npz"
    for _ in range(2):
        assert cli.main(["count", "5", "6", "--total", "--resume", str(path), "--json"]) == 0
        record = json.loads(capsys.readouterr().out)
        assert record["tours"] == count_total(5, 6).tours and path.is_file()
    assert record["transitions"] == 0  # the second: from the file
    assert cli.main(["count", "5", "6", "--total", "--every-width", "--resume", str(path)]) == exit_status.EXIT_USAGE
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "not --resume" in error
