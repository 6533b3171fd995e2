"""This module checks tours independently of the search kernels.

Written apart from the kernels on purpose: it shares no code with
``board.py`` or ``kernels.py`` (it does not even use the move table), so a
bug there cannot hide here. Plain Python, so it reads as the definition.

A square is an integer (Python's or NumPy's; not a bool, not a float, even
3.0) or a ``(row, col)`` pair of integers, held in a sequence (a set's
order is not the caller's: ``validate.ordered_pair``). A tour holding anything else is
not a tour: the checker says why and ``is_tour`` answers False, never
raising. Only arguments that are not a board, a flag or an iterable at all,
and a tour with no order (a set, a dict), raise ``InvalidArgument``, as
``solve`` does.
"""

import operator

from knight import validate
from knight.errors import InvalidArgument


def tour_problem(rows, cols, tour, closed=False):
    """The first reason ``tour`` is not a knight's tour of ``rows x cols``,
    or None when it is one.

    ``tour`` lists squares in visit order, either as 0-based indices
    ``row * cols + col`` or as 0-based ``(row, col)`` pairs. ``closed`` also
    asks that the last square be a knight's move from the first.
    """
    rows, cols = validate.board(rows, cols)
    closed = validate.flag(closed, "closed")
    if validate.unordered(tour):
        # a set of squares has no visiting order to check
        raise InvalidArgument(f"tour must list its squares in visit order, got {validate.shown(tour)}")
    try:
        items = iter(tour)
    except TypeError:
        raise InvalidArgument(f"tour must be an iterable of squares, got {validate.shown(tour)}") from None
    cells = []
    for step, item in enumerate(items):
        if step == rows * cols:
            # stop reading: the tour is already too long (it may never end)
            return f"the tour has more than {rows * cols} squares, the board {rows * cols}"
        cell = _cell(item, cols)
        if isinstance(cell, str):
            return f"step {step}: {cell}"
        cells.append(cell)
    if len(cells) != rows * cols:
        return f"the tour has {len(cells)} squares, the board {rows * cols}"
    seen = set()
    for step, (row, col) in enumerate(cells):
        if not (0 <= row < rows and 0 <= col < cols):
            return f"step {step} at ({row}, {col}) is off the board"
        if (row, col) in seen:
            return f"step {step} revisits ({row}, {col})"
        seen.add((row, col))
    for step in range(1, len(cells)):
        if not _knight_move(cells[step - 1], cells[step]):
            return f"step {step} from {cells[step - 1]} to {cells[step]} is not a knight's move"
    if closed and not (len(cells) > 1 and _knight_move(cells[-1], cells[0])):
        return "the last square is not a knight's move from the first"
    return None


def _integer(value):
    """``value`` as an int when it is one (not a bool), else None."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _cell(item, cols):
    """``(row, col)`` of one square of a tour, or why ``item`` is not one."""
    square = _integer(item)
    if square is not None:
        if square < 0:
            return f"square {square} is negative"
        return divmod(square, cols)
    if validate.ordered_pair(item):
        try:
            pair = [_integer(value) for value in item] if len(item) == 2 else None
        except TypeError:  # no len() or not iterable
            pair = None
        if pair is not None and None not in pair:
            return tuple(pair)
    return f"{validate.shown(item)} is not a square (an integer or a (row, col) pair of integers)"


def _knight_move(a, b):
    return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]


def is_tour(rows, cols, tour, closed=False):
    """Return whether a sequence of squares is a knight's tour of a board.

    The check shares no code with the search kernels, so that a bug in a
    kernel cannot hide here. A tour that holds something other than squares
    is not a tour, and the answer is False rather than an error.

    Parameters
    ----------
    rows, cols : int
        The board's number of rows and columns, each at least 1.
    tour : iterable
        The squares in visit order. Each square is either a 0-based index
        ``row * cols + col`` (an integer, not a bool or a float) or a
        0-based ``(row, col)`` pair of integers.
    closed : bool, default False
        Whether the last square must also be a knight's move from the first.

    Returns
    -------
    bool
        True when ``tour`` visits every square exactly once, each step a
        knight's move.

    Raises
    ------
    InvalidArgument
        If the board is out of range, ``closed`` is not a bool, or ``tour``
        is not iterable.

    See Also
    --------
    solve : Search for a tour.

    Examples
    --------
    >>> import knight
    >>> tour = [0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4]
    >>> knight.is_tour(3, 4, tour)
    True
    >>> knight.is_tour(3, 4, tour, closed=True)
    False
    >>> knight.is_tour(3, 4, [(0, 0), (1, 2), (2, 0)])
    False
    >>> knight.is_tour(3, 4, ["a", "b"])
    False
    """
    return tour_problem(rows, cols, tour, closed) is None
