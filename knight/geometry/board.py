"""This module defines the board's move order and square numbering.

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
