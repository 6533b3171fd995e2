"""What is known without searching: existence theorems and colour parity.

Pure Python, no NumPy or Numba: ``knight exists`` answers instantly.
"""

OPEN_SOURCE = "Conrad et al. 1994"
CLOSED_SOURCE = "Schwenk 1991"


def _open_exists(short, long):
    if short == 1:
        return long == 1
    if short == 2:
        return False
    if short == 3:
        return long == 4 or long >= 7
    if short == 4:
        return long >= 5
    return True


def _closed_exists(short, long):
    if short % 2 == 1 and long % 2 == 1:
        return False
    if short in (1, 2, 4):
        return False
    return not (short == 3 and long in (4, 6, 8))


def tour_exists(rows, cols, closed=False):
    """Whether the ``rows x cols`` board has an open (or closed) knight's tour.

    Open tours: Conrad et al. (1994) -- 1x1, 3x4, 3xn for n >= 7, 4xn for
    n >= 5, and every board with both sides >= 5. Closed tours: Schwenk
    (1991) -- all m x n with m <= n except when m and n are both odd, m is
    1, 2 or 4, or m = 3 and n is 4, 6 or 8.
    """
    from knight import validate

    rows, cols = validate.board(rows, cols)
    closed = validate.flag(closed, "closed")
    short, long = sorted((rows, cols))
    return _closed_exists(short, long) if closed else _open_exists(short, long)


def start_possible(rows, cols, start, closed=False):
    """Whether theory leaves a tour from ``start`` (0-based) possible.

    Returns ``(possible, reason)``; ``reason`` says why not, else is "".
    A True answer only means nothing known rules the start out: whether a
    tour really starts there is for a search to tell.
    """
    from knight import validate

    rows, cols = validate.board(rows, cols)
    row, col = validate.start(rows, cols, start)
    closed = validate.flag(closed, "closed")
    reason = no_tour_reason(rows, cols, closed)
    if reason:
        return False, reason
    if parity_excludes(rows, cols, row * cols + col):
        return False, "colour parity: on a board with an odd number of squares a tour starts on the corner colour"
    return True, ""


def no_tour_reason(rows, cols, closed):
    """Why the theorems leave no tour (open, or ``closed``) on the
    ``rows x cols`` board (checked sides), citing the theorem; "" when they
    leave some. Every count on such a board is 0, from every start: a
    count is answered by it before any work (``knight.counting.driver``)."""
    short, long = sorted((rows, cols))
    if (_closed_exists if closed else _open_exists)(short, long):
        return ""
    kind, source = ("closed", CLOSED_SOURCE) if closed else ("open", OPEN_SOURCE)
    return f"no {kind} tour exists on a {rows}x{cols} board ({source})"


def parity_restricts(rows, cols):
    """Whether colour parity rules out some starts: a knight changes colour
    every move, so a tour of an odd number of squares starts and ends on
    the colour that has one square more, the corner's colour."""
    return (rows * cols) % 2 == 1


def parity_excludes(rows, cols, square):
    """Whether colour parity rules out a tour from ``square`` (0-based
    index, no checks): on a board of an odd number of squares, one off the
    corner's colour."""
    row, col = divmod(square, cols)
    return parity_restricts(rows, cols) and (row + col) % 2 == 1
