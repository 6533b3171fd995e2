"""This module answers what is known without searching, by the existence theorems and colour parity.

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
    """Return whether a board has a knight's tour, by the existence theorems.

    No search is made. Open tours exist on the 1 x 1 board, on 3 x 4, on
    3 x n for n >= 7, on 4 x n for n >= 5, and on every board whose sides
    are both at least 5 (Conrad et al., 1994). Closed tours exist on every
    m x n board with m <= n, except where m and n are both odd, where m is
    1, 2 or 4, and where m is 3 and n is 4, 6 or 8 (Schwenk, 1991).

    Parameters
    ----------
    rows, cols : int
        The board's number of rows and columns, each at least 1.
    closed : bool, default False
        Whether to ask about closed tours instead of open ones.

    Returns
    -------
    bool
        True when the board has at least one tour of the kind asked.

    Raises
    ------
    InvalidArgument
        If a side is not an integer of at least 1, or ``closed`` is not a bool.

    See Also
    --------
    start_possible : Ask the same question about one start square.

    Examples
    --------
    >>> import knight
    >>> knight.tour_exists(3, 4)
    True
    >>> knight.tour_exists(3, 4, closed=True)
    False
    >>> knight.tour_exists(6, 6, closed=True)
    True
    """
    from knight import validate

    rows, cols = validate.board(rows, cols)
    closed = validate.flag(closed, "closed")
    short, long = sorted((rows, cols))
    return _closed_exists(short, long) if closed else _open_exists(short, long)


def start_possible(rows, cols, start, closed=False):
    """Return whether the theorems leave a tour from a start square possible, and why not.

    A start is ruled out when the board has no tour of the kind asked (see
    ``tour_exists``), or by colour parity. A knight changes colour at every
    move, so on a board with an odd number of squares a tour starts on the
    colour of the corners. A True answer means only that nothing known
    rules the start out. Only a search can tell whether a tour really
    starts there.

    Parameters
    ----------
    rows, cols : int
        The board's number of rows and columns, each at least 1.
    start : tuple of int
        The start square as a 0-based ``(row, col)`` pair.
    closed : bool, default False
        Whether to ask about closed tours instead of open ones.

    Returns
    -------
    possible : bool
        False when a theorem or colour parity rules the start out.
    reason : str
        Why the start is ruled out, or ``""`` when it is not.

    Raises
    ------
    InvalidArgument
        If the board or the start square is out of range.

    See Also
    --------
    tour_exists : Say whether the board has a tour from any start.
    solve : Search for a tour from the start.

    Examples
    --------
    >>> import knight
    >>> knight.start_possible(5, 5, (0, 0))
    (True, '')
    >>> possible, reason = knight.start_possible(5, 5, (0, 1))
    >>> possible
    False
    >>> reason
    'colour parity: on a board with an odd number of squares a tour starts on the corner colour'
    >>> knight.start_possible(4, 4, (0, 0))
    (False, 'no open tour exists on a 4x4 board (Conrad et al. 1994)')
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
