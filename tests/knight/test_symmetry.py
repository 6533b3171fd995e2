"""Symmetry classes of start squares, and what a symmetry does and does not
preserve: checked by running the searches on both squares of each pair."""

import numpy as np
import pytest

import knight
from knight.geometry.neighbours import neighbour_table
from knight.geometry.symmetry import representatives, symmetries, symmetry_class, symmetry_classes

BOARDS = [(3, 4), (4, 5), (5, 5), (6, 6), (1, 1), (2, 3)]


def _images(rows, cols):
    """Each symmetry as a permutation of square indices."""
    return [
        np.array([r * cols + c for r, c in (move(s // cols, s % cols) for s in range(rows * cols))])
        for move in symmetries(rows, cols)
    ]


@pytest.mark.parametrize("rows, cols, expected", [(8, 8, 8), (5, 5, 8), (4, 5, 4), (3, 8, 4)])
def test_square_boards_have_eight_symmetries_rectangles_four(rows, cols, expected):
    assert len(symmetries(rows, cols)) == expected


@pytest.mark.parametrize("rows, cols", BOARDS)
def test_every_symmetry_maps_knight_moves_to_knight_moves(rows, cols):
    table = neighbour_table(rows, cols)
    moves = {(s, int(t)) for s in range(rows * cols) for t in table[s] if t >= 0}
    for image in _images(rows, cols):
        assert sorted(image) == list(range(rows * cols))
        assert {(int(image[s]), int(image[t])) for s, t in moves} == moves


@pytest.mark.parametrize("rows, cols, classes", [(8, 8, 10), (5, 5, 6), (6, 6, 6), (4, 5, 6), (3, 4, 4), (1, 1, 1)])
def test_classes_partition_the_board(rows, cols, classes):
    found = representatives(rows, cols)
    assert len(found) == classes
    members = [square for squares in found.values() for square in squares]
    assert sorted(members) == [(r, c) for r in range(rows) for c in range(cols)]
    for representative, squares in found.items():
        assert representative == squares[0]
        assert all(symmetry_class(rows, cols, square) == squares for square in squares)


@pytest.mark.parametrize(
    ("rows", "cols", "sizes"), [(6, 6, [4, 4, 4, 8, 8, 8]), (4, 5, [4] * 4 + [2] * 2), (3, 3, [1, 4, 4])]
)
def test_symmetry_classes_of_square_indices(rows, cols, sizes):
    classes = symmetry_classes(rows, cols, range(rows * cols))
    assert sorted(len(members) for members in classes.values()) == sorted(sizes)
    assert sorted(s for members in classes.values() for s in members) == list(range(rows * cols))
    for representative, members in classes.items():
        assert representative == min(members)
        assert [divmod(s, cols) for s in members] == symmetry_class(rows, cols, divmod(representative, cols))


def test_part_of_a_class_is_searched_square_by_square():
    # the corners of 5x5 are 0, 4, 20, 24: without 0, its image, each
    # asked-for corner stands for itself alone
    assert symmetry_classes(5, 5, [4, 20, 0]) == {0: [0, 4, 20]}
    assert symmetry_classes(5, 5, [4, 20]) == {4: [4], 20: [20]}


@pytest.mark.parametrize("pruned", [False, True], ids=["plain", "pruned"])
@pytest.mark.parametrize("rows, cols", [(3, 4), (4, 5), (5, 5)])
def test_exhaustive_search_is_the_same_across_a_class(rows, cols, pruned):
    # a symmetry maps the tree of partial paths onto itself: the same tours,
    # and the same number of nodes when the whole tree is searched (every
    # square searched here, not one per class)
    counted = knight.count_tours(rows, cols, pruned=pruned, symmetry=False)
    for squares in representatives(rows, cols).values():
        assert len({int(counted.tours[square]) for square in squares}) == 1
        assert len({int(counted.nodes[square]) for square in squares}) == 1


@pytest.mark.parametrize("rows, cols", [(4, 5), (5, 5), (6, 6), (3, 7)])
@pytest.mark.parametrize("closed", [False, True])
def test_theory_gives_one_answer_per_class(rows, cols, closed):
    for squares in representatives(rows, cols).values():
        assert len({knight.start_possible(rows, cols, square, closed) for square in squares}) == 1


def test_first_tour_searches_are_not_symmetric():
    # the move order is not symmetric, so the node count until the first
    # tour differs from square to square of a class: why the harness only
    # samples one start per class and says so
    corners = symmetry_class(5, 5, (0, 0))
    nodes = [knight.solve(5, 5, corner, "backtrack").nodes for corner in corners]
    assert nodes == [41, 288, 8840, 14009]
    statuses = {knight.solve(5, 5, corner, "backtrack").status for corner in corners}
    assert statuses == {"found"}


@pytest.mark.parametrize(
    ("square", "message"),
    [((9, 9), "square row must be in 0..4"), ((0, -1), "square col must be in 0..4"), ("12", "pair"), (None, "pair")],
)
def test_item_12_a_square_off_the_board_is_refused(square, message):
    """Issue 13, item 12: symmetry_class(5, 5, (9, 9)) returned squares off the board."""
    with pytest.raises(knight.InvalidArgument, match=message):
        knight.symmetry_class(5, 5, square)
    with pytest.raises(knight.InvalidArgument, match="rows must be >= 1"):
        knight.symmetry_class(0, 5, (0, 0))
