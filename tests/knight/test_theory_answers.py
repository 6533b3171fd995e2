"""Counts the theorems answer before any work (issue 29, item 6): on a
board with no tour (Conrad et al. 1994 for open tours, Schwenk 1991 for
closed ones) every count is 0, given at once by no engine, as ``knight
exists`` says "no" at once; a grid of every start too large to print is
refused in one line naming its size. The answers are checked against the
plain search, which does not use the theorems."""

import contextlib
import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knight import cli, count_total, count_tours, exit_status, tour_exists
from knight.counting import driver, jobs
from knight.counting.dp import engine

SMALL = [(rows, cols) for rows in range(1, 5) for cols in range(1, 6)] + [(3, 5), (3, 6), (4, 4), (2, 9)]
# the small boards (open, closed) the theorems leave no tour on
RULED_OUT = [
    (rows, cols, closed) for rows, cols in SMALL for closed in (False, True) if not tour_exists(rows, cols, closed)
]


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = cli.main(argv, out=out)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def no_work(monkeypatch):
    """Every engine and the start planner fail if called: an answer must
    come from the theorems alone."""

    def refuse(*args, **kwargs):
        raise AssertionError("work was done for a count the theorems answer")

    monkeypatch.setattr(driver, "ENGINES", {"dfs": refuse, "dp": refuse})
    monkeypatch.setattr(driver, "plan_starts", refuse)
    monkeypatch.setattr(engine, "one_run", refuse)
    monkeypatch.setattr(jobs, "symmetry_classes", refuse)


@pytest.mark.parametrize(("rows", "cols", "closed"), RULED_OUT)
def test_a_ruled_out_count_is_the_plain_searchs_answer(rows, cols, closed):
    answered = count_tours(rows, cols, closed=closed)
    searched = count_tours(rows, cols, closed=closed, pruned=False)  # searches, theorems unused
    assert answered.ruled_out and not searched.ruled_out
    assert (answered.tours == searched.tours).all() and answered.total_tours == 0
    assert answered.total_nodes == 0 and answered.complete
    assert count_total(rows, cols, closed).tours == 0 == count_tours(rows, cols, closed=closed, method="dp").total_tours


# the fixture's patches hold for every example alike
@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1, 10**7), st.integers(1, 200), st.booleans())
def test_count_answers_at_once_where_exists_says_no(no_work, long, short, closed):
    """Every board ``exists`` says "no" to, however large, is counted as 0
    from a start and in total with no work (the fixture fails any)."""
    rows, cols = short, min(long, 2**31 // short - 1)
    if tour_exists(rows, cols, closed):
        return
    counted = count_tours(rows, cols, start=(0, 0), closed=closed)
    assert counted.tours == 0 and counted.nodes == 0 and "exists" in counted.ruled_out
    assert count_total(rows, cols, closed).tours == 0


def test_the_probes_boards_answer_or_refuse_before_the_work(no_work):
    for board in (["1", "10000000"], ["2", "100000"]):
        status, out, err = _run(["count", *board])
        assert status == exit_status.EXIT_USAGE and out == "" and err.count("\n") == 1, err
        assert "squares, too large to print (at most 10000)" in err and "so every count is 0" in err
        for mode in (["--start", "1,1"], ["--total"], ["--total", "--closed"], ["--start", "1,1", "--method", "dp"]):
            status, out, err = _run(["count", *board, *mode, "--json"])
            record = json.loads(out)
            assert status == 0 and record["tours"] == 0 and record["method"] == "theory", err
            assert "Conrad et al. 1994" in record["ruled_out"] or "Schwenk 1991" in record["ruled_out"]


def test_a_ruled_out_grid_prints_its_zeros_and_the_theorem(no_work):
    status, out, _ = _run(["count", "3", "6", "--closed"])
    assert status == 0
    assert out.splitlines()[:3] == ["0 0 0 0 0 0"] * 3
    assert "theory   no closed tour exists on a 3x6 board (Schwenk 1991): nothing searched" in out
    status, out, _ = _run(["count", "5", "5", "--closed", "--total"])
    assert status == 0 and "no closed tour exists on a 5x5 board (Schwenk 1991)" in out  # odd area: parity


def test_a_grid_too_large_to_print_is_refused_whatever_the_board(no_work):
    status, out, err = _run(["count", "3", "4000"])
    assert status == exit_status.EXIT_USAGE and out == "" and err.count("\n") == 1
    assert "3x4000 is 12000 squares, too large to print" in err and "every count is 0" not in err


def test_the_plain_search_is_still_run_node_by_node():
    counted = count_tours(3, 3, pruned=False)
    assert not counted.ruled_out and counted.total_nodes > 0


def test_the_estimate_still_estimates_the_search_trees_of_a_board_without_tours():
    """``knight estimate`` is of the DFS's trees, which the theorems do not
    shrink: 4 x 4 has no tour, and its plain and pruned trees have nodes."""
    status, out, err = _run(["estimate", "4", "4", "--probes", "50", "--json"])
    record = json.loads(out)
    assert status == 0 and record["plain_nodes"] > record["pruned_nodes"] > 0 and record["tours"] == 0, err
