"""The command line: output, JSON, and one-line errors with exit status 2."""

import io
import json
import subprocess
import sys

import pytest

import knight
from bench.baselines import python as naive
from knight import cli, exit_status, is_tour, machine, validate


def run(*argv):
    out = io.StringIO()
    status = cli.main(list(argv), out=out)
    return status, out.getvalue()


def run_json(*argv):
    status, text = run(*argv, "--json")
    assert status == 0
    return json.loads(text)


def test_solve_prints_aligned_board_and_summary():
    status, text = run("solve", "5", "5")
    assert status == 0
    lines = text.splitlines()
    board = [line.split() for line in lines[:5]]
    assert sorted(int(step) for row in board for step in row) == list(range(1, 26))
    assert len({len(line) for line in lines[:5]}) == 1
    assert lines[0].split()[0] == "1"
    assert "status   found" in text and "nodes    25" in text


def test_solve_json_tour_is_one_based():
    record = run_json("solve", "6", "6", "--start", "2,3", "--method", "backtrack")
    assert record["status"] == "found"
    assert record["tour"][0] == [2, 3]
    assert is_tour(6, 6, [(r - 1, c - 1) for r, c in record["tour"]])
    assert record["nodes"] >= 36 and record["seconds"] >= 0


def test_solve_json_without_tour():
    record = run_json("solve", "4", "4", "--method", "backtrack", "--budget", "50")
    assert record["status"] == "budget" and record["nodes"] == 50 and record["tour"] is None


def test_greedy_dead_end_and_closed():
    record = run_json("solve", "5", "5", "--method", "greedy", "--start", "1,2")
    assert record["status"] == "dead-end"
    record = run_json("solve", "6", "6", "--closed", "--method", "greedy")
    status, nodes, _ = naive.greedy(6, 6, (0, 0), closed=True)
    assert record["closed"] is True and (record["status"], record["nodes"]) == (status, nodes)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1,1", (0, 0)), ("8,8", (7, 7)), (" 2 , 3 ", (1, 2)), ("a1", (7, 0)), ("e4", (4, 4)), ("H8", (0, 7))],
)
def test_start_notation(text, expected):
    assert validate.start_text(text, 8, 8) == expected


def test_chess_notation_counts_ranks_from_the_last_row():
    record = run_json("solve", "5", "5", "--start", "a1")
    assert record["tour"][0] == [5, 1]


def test_count_one_start_and_grid():
    record = run_json("count", "3", "4", "--start", "1,1")
    assert (record["tours"], record["start"]) == (2, [1, 1])
    record = run_json("count", "3", "4")
    assert record["grid"] == [[2, 0, 0, 2], [4, 0, 0, 4], [2, 0, 0, 2]]
    assert record["tours"] == 16 and record["complete"] is True
    status, text = run("count", "3", "4")
    assert status == 0 and "16 directed open tours" in text


def test_exists():
    assert run_json("exists", "3", "4")["exists"] is True
    assert run_json("exists", "3", "4", "--closed")["exists"] is False
    status, text = run("exists", "5", "5")
    assert status == 0 and text.startswith("yes") and "parity" in text


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


def test_long_counts_print_a_projection_first(monkeypatch, capsys):
    # 7x7 and up take long; shrink the threshold to see it on 3x4
    monkeypatch.setattr(cli, "PROJECT_COUNTS_ABOVE", 0)
    assert run("count", "3", "4")[0] == 0
    err = capsys.readouterr().err
    assert err.startswith("knight: about ") and "Knuth's estimate" in err


def test_count_memory_estimate_covers_each_concurrent_unit(monkeypatch):
    needed = {}
    for cores in (1, 8):
        monkeypatch.setattr(machine.os, "sched_getaffinity", lambda pid, cores=cores: set(range(cores)), raising=False)
        needed[cores] = validate.memory_needed(100, 100, "count")
    assert needed[8] > needed[1] > validate.memory_needed(100, 100, "greedy")


class _Sink(io.TextIOBase):
    """Output that is counted and dropped: what the CLI holds is then its own."""

    def __init__(self):
        self.characters = 0

    def write(self, text):
        self.characters += len(text)
        return len(text)


def test_item_9_the_json_tour_holds_little_beyond_the_search():
    """Issue 13, item 9: the CLI turned the whole tour into Python lists (about
    150 bytes a square) although the search needs 5. Traced (NumPy arrays
    included), the CLI's peak must stay within 1.5x of the API's; the real
    process's resident peak on 10^8 squares is bench/experiments/cli_memory.py's."""
    import tracemalloc

    argv = ["solve", "600", "600", "--method", "greedy", "--start", "301,301", "--tiebreak", "roth", "--json"]
    knight.solve(600, 600, (300, 300), "greedy", tiebreak="roth")  # compile first
    tracemalloc.start()
    try:
        result = knight.solve(600, 600, (300, 300), "greedy", tiebreak="roth")
        api = tracemalloc.get_traced_memory()[1]
        del result
        tracemalloc.reset_peak()
        sink = _Sink()
        assert cli.main(argv, out=sink) == 0
        command = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert sink.characters > 600 * 600 * 8
    assert command <= 1.5 * api, (command, api)


def test_the_streamed_json_tour_is_the_tour():
    out = io.StringIO()
    assert cli.main(["solve", "90", "100", "--method", "greedy", "--json"], out=out) == 0
    record = json.loads(out.getvalue())
    assert record["status"] == "found" and len(record["tour"]) == 9000
    assert is_tour(90, 100, [(r - 1, c - 1) for r, c in record["tour"]])


def test_the_memory_check_counts_the_json_buffer(monkeypatch, capsys):
    """Item 9: what the CLI holds besides the search is in the check."""
    from knight.search import solver as search

    needed = validate.memory_needed(300, 300, "greedy")
    monkeypatch.setattr(machine, "available_memory", lambda: needed + 1)
    # small boards skip the memory check altogether: make this one count
    monkeypatch.setattr(validate, "_SURELY_FITS", 0)
    assert search.solve(300, 300, method="greedy").nodes > 0  # the API alone fits
    assert run("solve", "300", "300", "--method", "greedy")[0] == 0
    assert run("solve", "300", "300", "--method", "greedy", "--json")[0] == exit_status.EXIT_USAGE
    assert "needs about" in capsys.readouterr().err


@pytest.mark.parametrize("workers", [0, 1, 2, 64])
def test_the_dp_progress_line_is_one_line_at_any_number_of_workers(workers):
    rates = {f"tcp://10.0.0.{n}:40000": 1.5e6 + 1e4 * n for n in range(workers)}
    line = cli.progress_text(1_234_567, 2_048, rates or None)
    assert "\n" not in line and line.startswith("1,234,567 states, peak memory 2,048 MiB")
    if workers == 1:
        assert line.endswith(", 1 worker at 1.5M transitions/s")
    elif workers:
        assert f"{workers} workers at 1.5M-" in line and len(line) < 80
    else:
        assert "worker" not in line
