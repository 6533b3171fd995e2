"""This module builds the neighbour table that every search and count reads, with its compiled filler.

One module for both, above ``board`` (the move order) and below every
kernel's caller: ``board`` stays NumPy only, and nothing here imports a
search. Importing it loads Numba.
"""

import functools

import numpy as np

from knight.geometry.board import MOVE_COLS, MOVE_ROWS
from knight.runtime._jit import _u, jit

# boards up to this many squares keep their neighbour table (at most 2 MiB
# each) for the next search on the same board; a larger one is rebuilt, so
# that a huge board's table does not outlive its search
CACHED_SQUARES = 1 << 16


def neighbour_table(rows, cols):
    """Return the squares one knight's move from each square, in move order.

    Row ``s`` of the table lists the neighbours of square ``s`` on the board,
    in the order of ``knight.geometry.board.MOVES``, then pads with -1, so
    that a kernel can stop at the first -1. A table of up to
    ``CACHED_SQUARES`` squares is built once and shared by every search on
    that board.

    Parameters
    ----------
    rows, cols : int
        The board's number of rows and columns. They are not checked.

    Returns
    -------
    numpy.ndarray
        A read-only int32 array of shape ``(rows * cols, 8)``. Squares are
        0-based indices ``row * cols + col``.

    Examples
    --------
    >>> from knight.harness_api import neighbour_table
    >>> table = neighbour_table(3, 4)
    >>> table.shape
    (12, 8)
    >>> table[0]
    array([ 6,  9, -1, -1, -1, -1, -1, -1], dtype=int32)
    """
    if rows * cols <= CACHED_SQUARES:
        return _cached_table(rows, cols)
    return _table(rows, cols)


@functools.lru_cache(maxsize=16)
def _cached_table(rows, cols):
    return _table(rows, cols)


def _table(rows, cols):
    # compiled: built with NumPy, the table cost 4x the search it served on
    # large boards
    table = np.empty((rows * cols, 8), dtype=np.int32)
    fill_neighbour_table(rows, cols, table)
    table.setflags(write=False)
    return table


@jit
def fill_neighbour_table(rows, cols, table):
    """Write ``neighbour_table(rows, cols)`` into ``table``, an
    ``(rows * cols, 8)`` int32 array, every entry (so that its pages are
    touched here, once). Built with NumPy, the table cost 4x the search it
    served on large boards; this takes about 1/5 of a Warnsdorff search."""
    offsets = np.empty(8, dtype=np.int64)
    for k in range(8):
        offsets[k] = MOVE_ROWS[k] * cols + MOVE_COLS[k]
    for row in range(rows):
        inner_row = 2 <= row < rows - 2
        for col in range(cols):
            square = row * cols + col
            if inner_row and 2 <= col < cols - 2:
                # two squares from every edge: all eight moves land on the board
                for k in range(8):
                    table[_u(square), k] = square + offsets[k]
                continue
            filled = 0
            for k in range(8):
                to_row = row + MOVE_ROWS[k]
                to_col = col + MOVE_COLS[k]
                if 0 <= to_row < rows and 0 <= to_col < cols:
                    table[_u(square), filled] = to_row * cols + to_col
                    filled += 1
            for k in range(filled, 8):
                table[_u(square), k] = -1
