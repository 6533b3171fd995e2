"""The command line as a whole (knight/cli/__init__.py and parser.py):
one-line errors with exit status 2 in every command, interrupts, the
console script, no Numba for the commands that do not search."""

import subprocess
import sys

import pytest
from cli_run import run

from knight import exit_status, validate
from knight.runtime import machine
from tests import python_source


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1,1", (0, 0)), ("8,8", (7, 7)), (" 2 , 3 ", (1, 2)), ("a1", (7, 0)), ("e4", (4, 4)), ("H8", (0, 7))],
)
def test_start_notation(text, expected):
    assert validate.start_text(text, 8, 8) == expected


ERRORS = [
    (["solve", "0", "5"], "rows must be >= 1"),
    (["solve", "5", "-3"], "cols must be >= 1"),
    (["solve", "x", "5"], "rows must be an integer"),
    (["solve", "5.5", "5"], "rows must be an integer"),
    (["solve", "5", "5", "--start", "6,1"], "start row must be in 1..5"),
    (["solve", "5", "5", "--start", "1,0"], "start col must be in 1..5"),
    (["solve", "5", "5", "--start", "1;1"], "start must be R,C"),
    (["solve", "5", "5", "--start", "f1"], "off the board"),
    (["solve", "5", "30", "--start", "a1"], "at most 26 columns"),
    (["solve", "5", "5", "--method", "dfs"], "unknown method 'dfs'"),
    (["solve", "5", "5", "--tiebreak", "last"], "unknown tiebreak"),
    (["solve", "5", "5", "--budget", "0"], "budget must be in 1..9223372036854775807"),
    (["solve", "5", "5", "--budget", "lots"], "budget must be an integer"),
    (["solve", "50000", "50000"], "at most 2147483647"),
    (["count", "5", "5", "--start", "0,0"], "start row must be in 1..5"),
    (["exists", "0", "1"], "rows must be >= 1"),
    (["fly", "5", "5"], "invalid choice"),
    (["solve", "5"], "required"),
    # found by the property tests: a newline typed into an argument split the error
    (["solve", "5", "5", "x\ny"], "unrecognized arguments: x\\ny"),
    # item 1 of issue 13: past 64 bits, where the kernels' int64 overflowed
    (["solve", "5", "5", "--budget", "9223372036854775808"], "budget must be in 1..9223372036854775807"),
    (["count", "5", "5", "--budget", str(2**64)], "budget must be in 1..9223372036854775807"),
    (["count", "5", "5", "--workers", "9" * 30], "workers must be in 1..1024"),
    (["count", "5", "5", "--depth", "9" * 30], "depth must be in 0..24"),
    (["solve", "9" * 30, "5"], "at most 2147483647"),
    (["solve", "5", "5", "--start", "1," + "9" * 30], "start col must be in 1..5"),
    (["solve", "5", "5", "--budget", "9" * 5000], "budget must be an integer in 1..9223372036854775807"),
    # item 2: a Numba typing error before
    (["estimate", "5", "5", "--seed", "99999999999999999999999"], "seed must be in 0..4294967295"),
    (["estimate", "5", "5", "--seed", "-1"], "seed must be in 0..4294967295"),
    (["estimate", "5", "5", "--probes", "10000000000000000000000"], "probes must be in 1..9223372036854775807"),
]


@pytest.mark.parametrize(("argv", "message"), ERRORS, ids=[" ".join(a)[:60] for a, _ in ERRORS])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    status, text = run(*argv)
    err = capsys.readouterr().err
    assert status == exit_status.EXIT_USAGE
    assert text == ""
    assert err.count("\n") == 1 and err.startswith("knight: error: ")
    assert message in err


def test_board_too_large_for_memory_is_refused_before_allocating(monkeypatch, capsys):
    monkeypatch.setattr(machine, "available_memory", lambda: 2**20)
    status, _ = run("solve", "1000", "1000")
    assert status == 2
    assert "needs about" in capsys.readouterr().err


def test_small_boards_skip_the_memory_reading(monkeypatch):
    # reading /proc/meminfo was 40% of a small solve; under 64 MiB it is skipped
    def unreadable():
        raise AssertionError("available_memory read for a small board")

    monkeypatch.setattr(machine, "available_memory", unreadable)
    validate.fits_in_memory(100, 100, "warnsdorff")
    with pytest.raises(AssertionError):
        validate.fits_in_memory(1000, 1000, "warnsdorff")


def test_interrupt_exits_cleanly(monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("knight.search.solver.solve", interrupted)
    assert run("solve", "5", "5")[0] == exit_status.EXIT_INTERRUPTED
    assert capsys.readouterr().err == "knight: interrupted\n"


@pytest.mark.parametrize("argv", [["exists", "8", "8"], ["--help"], ["solve", "--help"]])
def test_commands_without_search_do_not_import_numba(argv):
    code = (
        "import sys\nfrom knight.cli import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        "assert 'numba' not in sys.modules, 'numba was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_console_script_runs():
    done = subprocess.run(
        [sys.executable, "-m", "knight", "solve", "5", "5", "--start", "6,6"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_the_driver_is_the_command_lines_only_door_into_counting():
    """No module of knight/cli/ imports past ``knight.counting.driver``
    (the projection once read ``dp_memory`` and ``tree_estimate`` itself)."""
    from test_import_graph import MODULES, imported_names

    for name, path in MODULES.items():
        if name == "knight.cli" or name.startswith("knight.cli."):
            tree = python_source.parse_file(path)
            reached = {n for n in imported_names(tree) if n.startswith("knight.counting")}
            assert reached <= {"knight.counting.driver"}, (name, reached)
