"""Existence theorems and colour parity against exhaustive search."""

import pytest

from knight import count_tours, solve, start_possible, tour_exists
from knight.geometry.theory import parity_excludes

SMALL = [(rows, cols) for rows in range(1, 7) for cols in range(1, 7)]
# the rectangles where the theorems change their answer, past 6 on a side
EDGES = [(3, 7), (7, 3), (3, 8), (4, 7), (3, 9), (3, 10)]


def _open_tour_found(rows, cols):
    # a search that exhausts its space proves "none"; a found tour proves "yes"
    for row in range(rows):
        for col in range(cols):
            result = solve(rows, cols, (row, col), method="warnsdorff", budget=10**9)
            assert result.status != "budget"
            if result.found:
                return True
    return False


def _closed_tour_found(rows, cols):
    # a closed tour passes through every square: searching from one suffices
    result = solve(rows, cols, (0, 0), method="warnsdorff", closed=True, budget=10**9)
    assert result.status != "budget"
    return result.found


@pytest.mark.parametrize(("rows", "cols"), SMALL + EDGES)
def test_open_existence_matches_search(rows, cols):
    assert tour_exists(rows, cols) == _open_tour_found(rows, cols)


# 4 x 8 and 3 x 12 take seconds each: EDGES already holds a 4-row and a 3-row edge
LARGER = [pytest.param(4, 8, marks=pytest.mark.slow), pytest.param(3, 12, marks=pytest.mark.slow)]


@pytest.mark.parametrize(("rows", "cols"), SMALL + EDGES + LARGER)
def test_closed_existence_matches_search(rows, cols):
    assert tour_exists(rows, cols, closed=True) == _closed_tour_found(rows, cols)


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (3, 7), (5, 5), (5, 7)])
def test_parity_rules_out_exactly_the_minority_colour(rows, cols):
    # the plain search, which does not apply the rule, must find no tour
    # where it rules one out
    grid = count_tours(rows, cols, pruned=False).tours if rows * cols <= 25 else None
    for row in range(rows):
        for col in range(cols):
            possible, reason = start_possible(rows, cols, (row, col))
            assert possible == ((row + col) % 2 == 0)
            assert parity_excludes(rows, cols, row * cols + col) == (not possible)
            assert possible or "parity" in reason
            if grid is not None and not possible:
                assert grid[row, col] == 0


@pytest.mark.parametrize(("rows", "cols"), [(4, 5), (6, 6), (3, 8)])
def test_parity_excludes_nothing_on_an_even_board(rows, cols):
    assert not any(parity_excludes(rows, cols, square) for square in range(rows * cols))


def test_parity_reason_on_searched_board():
    # 3x7 from (0, 1): parity forbids it and the whole search agrees
    assert solve(3, 7, (0, 1), method="backtrack", budget=10**9).status == "none"


def test_board_without_tours_rules_out_every_start():
    possible, reason = start_possible(4, 4, (1, 1))
    assert not possible
    assert "Conrad" in reason
    possible, reason = start_possible(5, 5, (0, 0), closed=True)
    assert not possible
    assert "Schwenk" in reason


def test_large_boards_follow_the_theorems():
    assert tour_exists(1000, 3)
    assert not tour_exists(1000, 4, closed=True)
    assert not tour_exists(1001, 999, closed=True)
    assert tour_exists(1000, 999, closed=True)
    assert not tour_exists(2, 1000)
