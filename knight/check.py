"""The independent tour checker.

Written apart from the kernels on purpose: it shares no code with
``board.py`` or ``kernels.py`` (it does not even use the move table), so a
bug there cannot hide here. Plain Python, so it reads as the definition.
"""


def tour_problem(rows, cols, tour, closed=False):
    """The first reason ``tour`` is not a knight's tour of ``rows x cols``,
    or None when it is one.

    ``tour`` lists squares in visit order, either as 0-based indices
    ``row * cols + col`` or as 0-based ``(row, col)`` pairs. ``closed`` also
    asks that the last square be a knight's move from the first.
    """
    cells = []
    for item in tour:
        if hasattr(item, "__len__"):
            row, col = (int(value) for value in item)
        elif int(item) < 0:
            return f"square {int(item)} is negative"
        else:
            row, col = divmod(int(item), cols)
        cells.append((row, col))
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


def _knight_move(a, b):
    return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]


def is_tour(rows, cols, tour, closed=False):
    """True when ``tour`` visits every square once by knight's moves."""
    return tour_problem(rows, cols, tour, closed) is None
