"""Board geometry: the move order, neighbour tables and square numbering.

This module is the single source of truth for two definitions the whole
suite depends on (and the README quotes):

* the knight's eight moves, tried in ``MOVES`` order, as (row, col) offsets;
* a square's index, ``row * cols + col``, 0-based.

It imports NumPy only, never Numba, so that cheap commands stay cheap.
"""

import functools

import numpy as np

MOVES = ((-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1))

MOVE_ROWS = np.array([dr for dr, _ in MOVES], dtype=np.int64)
MOVE_COLS = np.array([dc for _, dc in MOVES], dtype=np.int64)

# boards up to this many squares keep their neighbour table (at most 2 MiB
# each) for the next search on the same board; a larger one is rebuilt, so
# that a huge board's table does not outlive its search
CACHED_SQUARES = 1 << 16


def coordinates(cols, squares):
    """``(row, col)`` pairs, as an ``(n, 2)`` array, of an array of squares."""
    squares = np.asarray(squares, dtype=np.int64)
    return np.stack(np.divmod(squares, cols), axis=-1)


def neighbour_table(rows, cols):
    """For each square, the squares one knight's move away, in move order.

    Returns a read-only ``(rows * cols, 8)`` int32 array. Row ``s`` lists
    the on-board neighbours of square ``s`` first, in ``MOVES`` order, then
    pads with -1, so a kernel can stop scanning at the first -1. Built once
    per board (up to ``CACHED_SQUARES``) and shared by every search on it.
    """
    if rows * cols <= CACHED_SQUARES:
        return _cached_table(rows, cols)
    return _table(rows, cols)


@functools.lru_cache(maxsize=16)
def _cached_table(rows, cols):
    return _table(rows, cols)


def _table(rows, cols):
    # compiled: built with NumPy, the table cost 4x the search it served on
    # large boards (imported here, so that importing board stays cheap)
    from knight.kernels import fill_neighbour_table

    table = np.empty((rows * cols, 8), dtype=np.int32)
    fill_neighbour_table(rows, cols, table)
    table.setflags(write=False)
    return table
