"""The independent checker accepts tours and rejects every kind of broken one."""

import pytest

from knight.errors import InvalidArgument
from knight.geometry.tour_check import is_tour, tour_problem


def _valid_3x4():
    # an open tour of 3x4, step numbers by row:  1 4 7 10 / 12 9 2 5 / 3 6 11 8
    board = [[1, 4, 7, 10], [12, 9, 2, 5], [3, 6, 11, 8]]
    cells = sorted(((r, c) for r in range(3) for c in range(4)), key=lambda rc: board[rc[0]][rc[1]])
    return cells


def test_accepts_a_valid_open_tour_in_both_forms():
    cells = _valid_3x4()
    assert is_tour(3, 4, cells)
    assert is_tour(3, 4, [r * 4 + c for r, c in cells])
    assert is_tour(3, 4, cells[::-1])


def test_single_square():
    assert is_tour(1, 1, [0])
    assert not is_tour(1, 1, [0], closed=True)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda t: t[:-1], "squares"),
        (lambda t: [*t, t[0]], "squares"),
        (lambda t: [t[0], *t[:-1]], "revisits"),
        (lambda t: [*t[:5], t[6], t[5], *t[7:]], "knight's move"),
        (lambda t: [*t[:-1], (3, 0)], "off the board"),
        (lambda t: [*t[:-1], (0, -1)], "off the board"),
    ],
    ids=["short", "long", "revisit", "swap", "row-off", "col-off"],
)
def test_rejects_broken_tours(mutate, message):
    problem = tour_problem(3, 4, mutate(_valid_3x4()))
    assert problem is not None and message in problem


def test_rejects_negative_square():
    assert "negative" in tour_problem(1, 2, [0, -1])


def test_closed_needs_last_move_back():
    assert "last square" in tour_problem(3, 4, _valid_3x4(), closed=True)


def test_closed_tour_stays_closed_when_rotated_or_reversed():
    # a closed tour of 6x6, step numbers by row
    board = [
        [1, 28, 21, 12, 3, 34],
        [20, 11, 2, 35, 22, 13],
        [27, 36, 29, 14, 33, 4],
        [10, 19, 8, 23, 30, 15],
        [7, 26, 17, 32, 5, 24],
        [18, 9, 6, 25, 16, 31],
    ]
    cells = sorted(((r, c) for r in range(6) for c in range(6)), key=lambda rc: board[rc[0]][rc[1]])
    assert is_tour(6, 6, cells, closed=True)
    assert is_tour(6, 6, cells[10:] + cells[:10], closed=True)
    assert is_tour(6, 6, cells[::-1], closed=True)
    swapped = cells[:]
    swapped[0], swapped[35] = swapped[35], swapped[0]
    assert not is_tour(6, 6, swapped, closed=True)


def test_item_11_squares_with_fractions_are_no_squares():
    """Issue 13, item 11: int() truncated 0.9 away, so this was a tour."""
    squares = [r * 4 + c for r, c in _valid_3x4()]
    assert not is_tour(3, 4, [square + 0.9 for square in squares])
    assert "is not a square" in tour_problem(3, 4, [square + 0.9 for square in squares])
    assert not is_tour(3, 4, [float(square) for square in squares])


@pytest.mark.parametrize("bad", ["7", None, (1, 2, 3), (1.5, 2), True, [0], b"\x01", (None, 1)])
def test_item_11_items_that_are_not_squares_give_false(bad):
    """Strings, None and tuples raised TypeError or ValueError before."""
    cells = _valid_3x4()
    assert not is_tour(3, 4, [*cells[:-1], bad])
    assert "is not a square" in tour_problem(3, 4, [*cells[:-1], bad])


def test_numpy_squares_are_squares():
    import numpy as np

    cells = _valid_3x4()
    assert is_tour(3, 4, np.array(cells))
    assert is_tour(3, 4, np.array([r * 4 + c for r, c in cells], dtype=np.int32))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((3, 4, None), "tour must be an iterable"),
        ((0, 4, []), "rows"),
        ((3, 4, [], "yes"), "closed must be True or False"),
    ],
)
def test_arguments_that_are_not_a_board_or_a_container_are_invalid(args, message):
    with pytest.raises(InvalidArgument, match=message):
        is_tour(*args)


def test_an_endless_tour_is_read_only_as_far_as_the_board():
    import itertools

    assert "more than 12 squares" in tour_problem(3, 4, itertools.count())
