"""Exhaustive counts against published values.

Directed open tours on n x n: OEIS A165134. Rectangles 3x4 and 4x5: OEIS
A118067 / A079137 (undirected counts doubled). Closed tours (undirected):
3x10: 16 (OEIS A070030), 5x6: 8, 6x6: 9862 (OEIS A001230); a closed tour
passes through every square, so from one fixed start the directed count
is twice the undirected one.
"""

import pytest

from knight import count_tours


@pytest.mark.parametrize(
    ("rows", "cols", "tours"),
    [(1, 1, 1), (2, 2, 0), (3, 3, 0), (4, 4, 0), (3, 4, 16), (4, 3, 16), (4, 5, 164), (5, 4, 164), (5, 5, 1728)],
)
def test_open_tour_totals(rows, cols, tours):
    counted = count_tours(rows, cols)
    assert counted.complete
    assert counted.total_tours == tours


def test_count_grid_is_symmetric_on_5x5():
    grid = count_tours(5, 5).tours
    assert (grid == grid.T).all()
    assert (grid == grid[::-1]).all()
    assert grid[0, 0] == 304


@pytest.mark.parametrize(("rows", "cols", "undirected"), [(3, 10, 16), (5, 6, 8)])
def test_closed_tours_from_one_start(rows, cols, undirected):
    assert count_tours(rows, cols, (0, 0), closed=True).tours == 2 * undirected


def test_open_tours_6x6():
    assert count_tours(6, 6).total_tours == 6_637_920


def test_closed_tours_6x6():
    assert count_tours(6, 6, (0, 0), closed=True).tours == 2 * 9862
