"""Board geometry: the move order, neighbour tables and square numbering.

This module is the single source of truth for two definitions the whole
suite depends on (and the README quotes):

* the knight's eight moves, tried in ``MOVES`` order, as (row, col) offsets;
* a square's index, ``row * cols + col``, 0-based.

It imports NumPy only, never Numba, so that cheap commands stay cheap.
"""

import numpy as np

MOVES = ((-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1))

MOVE_ROWS = np.array([dr for dr, _ in MOVES], dtype=np.int64)
MOVE_COLS = np.array([dc for _, dc in MOVES], dtype=np.int64)

def coordinates(cols, squares):
    """``(row, col)`` pairs, as an ``(n, 2)`` array, of an array of squares."""
    squares = np.asarray(squares, dtype=np.int64)
    return np.stack(np.divmod(squares, cols), axis=-1)


def neighbour_table(rows, cols):
    """For each square, the squares one knight's move away, in move order.

    Returns an ``(rows * cols, 8)`` int32 array. Row ``s`` lists the
    on-board neighbours of square ``s`` first, in ``MOVES`` order, then pads
    with -1, so a kernel can stop scanning at the first -1.
    """
    # compiled: built with NumPy, the table cost 4x the search it served
    # on large boards (imported here, so that importing board stays cheap)
    from knight.kernels import fill_neighbour_table

    table = np.empty((rows * cols, 8), dtype=np.int32)
    fill_neighbour_table(rows, cols, table)
    return table
