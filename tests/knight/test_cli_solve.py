"""`knight solve` (knight/cli/solve.py): the board and its summary, the
JSON tour, streamed in chunks and held to little beyond the search."""

import io
import json
import subprocess
import sys

from cli_run import run, run_json

from bench.baselines import python as naive
from knight import cli, exit_status, is_tour, validate
from knight.runtime import machine


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


def test_chess_notation_counts_ranks_from_the_last_row():
    record = run_json("solve", "5", "5", "--start", "a1")
    assert record["tour"][0] == [5, 1]


# Run in a fresh process: tracemalloc counts every thread's allocations, and
# a pytest worker may hold threads of earlier tests (a Dask cluster's, say)
# that allocate while the CLI is traced.
_TRACED_PEAKS = """
import io, tracemalloc
import knight
from knight import cli


class Sink(io.TextIOBase):
    # output that is counted and dropped: what the CLI holds is then its own
    def __init__(self):
        self.characters = 0

    def write(self, text):
        self.characters += len(text)
        return len(text)


argv = ["solve", "600", "600", "--method", "greedy", "--start", "301,301", "--tiebreak", "roth", "--json"]
knight.solve(600, 600, (300, 300), "greedy", tiebreak="roth")  # compile first
# and import what the command's road imports on first use
assert cli.main(argv, out=Sink()) == 0
tracemalloc.start()
result = knight.solve(600, 600, (300, 300), "greedy", tiebreak="roth")
api = tracemalloc.get_traced_memory()[1]
del result
tracemalloc.reset_peak()
sink = Sink()
assert cli.main(argv, out=sink) == 0
command = tracemalloc.get_traced_memory()[1]
print(api, command, sink.characters)
"""


def test_item_9_the_json_tour_holds_little_beyond_the_search():
    """Issue 13, item 9: the CLI turned the whole tour into Python lists (about
    150 bytes a square) although the search needs 5. Traced (NumPy arrays
    included), the CLI's peak must stay within 1.5x of the API's; the real
    process's resident peak on 10^8 squares is bench/by_hand/cli_memory.py's."""
    done = subprocess.run([sys.executable, "-c", _TRACED_PEAKS], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    api, command, characters = (int(word) for word in done.stdout.split())
    assert characters > 600 * 600 * 8
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
