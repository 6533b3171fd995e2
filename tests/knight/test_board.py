"""Geometry: the neighbour table against a direct scan of the move list."""

import numpy as np
import pytest

from bench.baselines import python as naive
from knight.geometry.board import MOVES, coordinates
from knight.geometry.neighbours import neighbour_table


def test_move_order_is_the_documented_one():
    assert MOVES == naive.MOVES


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 5), (3, 4), (4, 3), (8, 8), (5, 11)])
def test_neighbour_table(rows, cols):
    table = neighbour_table(rows, cols)
    assert table.dtype == np.int32 and table.shape == (rows * cols, 8)
    for row in range(rows):
        for col in range(cols):
            expected = [r * cols + c for r, c in naive.moves_from(rows, cols, row, col)]
            line = table[row * cols + col].tolist()
            assert line == expected + [-1] * (8 - len(expected))


def test_coordinates_round_trip():
    squares = np.arange(12)
    pairs = coordinates(4, squares)
    assert (pairs[:, 0] * 4 + pairs[:, 1] == squares).all()
