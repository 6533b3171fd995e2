"""This module groups start squares into classes by the dihedral symmetries of the board.

A rectangle has 4 symmetries (identity, two mirror flips, the half turn); a
square has 8 (those, the quarter turns and the two diagonal mirrors). A
symmetry maps every knight's tour to a knight's tour, so start squares in
one class have the same tour count and the same answer to "does a tour
start here?". An exhaustive search also places the same number of nodes
from each (it visits every partial path, whatever the order).

What a symmetry does NOT preserve is the move order (``board.MOVES``): a
search that stops at its first tour generally places a different number of
nodes from each square of a class. Sampling one start per class is a fair
way to shorten a timing sweep, not a way to predict each square's timing.

Pure Python, no NumPy: cheap to import.
"""


def symmetries(rows, cols):
    """The board's symmetries as functions ``(row, col) -> (row, col)``;
    the identity first. 8 on a square board, 4 otherwise."""
    last_row, last_col = rows - 1, cols - 1
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (last_row - r, c),
        lambda r, c: (r, last_col - c),
        lambda r, c: (last_row - r, last_col - c),
    ]
    if rows == cols:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (last_col - c, r),
            lambda r, c: (c, last_row - r),
            lambda r, c: (last_col - c, last_row - r),
        ]
    return maps


def symmetry_class(rows, cols, square):
    """Return the squares that the board's symmetries map a square to.

    A rectangle has four symmetries: the identity, two mirror flips and the
    half turn. A square board has four more: the quarter turns and the two
    diagonal mirrors. A symmetry maps every tour to a tour, so the squares
    of one class have the same number of tours.

    Parameters
    ----------
    rows, cols : int
        The board's number of rows and columns, each at least 1.
    square : tuple of int
        A 0-based ``(row, col)`` pair on the board.

    Returns
    -------
    list of tuple of int
        Every square of the class as a ``(row, col)`` pair, ``square``
        itself included, sorted.

    Raises
    ------
    InvalidArgument
        If the board is out of range or the square is off it.

    Examples
    --------
    >>> import knight
    >>> knight.symmetry_class(5, 5, (0, 0))
    [(0, 0), (0, 4), (4, 0), (4, 4)]
    >>> knight.symmetry_class(3, 4, (0, 1))
    [(0, 1), (0, 2), (2, 1), (2, 2)]
    >>> knight.symmetry_class(5, 5, (2, 2))
    [(2, 2)]
    """
    from knight import validate

    rows, cols = validate.board(rows, cols)
    row, col = validate.start(rows, cols, square, name="square")
    return _class(rows, cols, row, col)


def _class(rows, cols, row, col):
    return sorted({move(row, col) for move in symmetries(rows, cols)})


def symmetry_classes(rows, cols, starts):
    """Group ``starts`` (0-based square indices) into the classes the
    board's symmetries map onto each other: ``{representative: members}``,
    members ascending, the smallest square of a class its representative.
    A square whose class's smallest square is not among ``starts`` forms a
    class of its own. A symmetry maps the tours from one start one-to-one
    onto the tours from its image, so every member has the
    representative's count."""
    wanted = {int(s) for s in starts}
    classes = {}
    for square in sorted(wanted):
        row, col = divmod(square, cols)
        images = {r * cols + c for r, c in _class(rows, cols, row, col)}
        representative = min(images)
        if representative not in wanted:
            # only part of a class was asked for: search this square itself
            representative = square
        classes.setdefault(representative, []).append(square)
    return classes


def representatives(rows, cols):
    """Return one start square for each symmetry class, with the squares of its class.

    Parameters
    ----------
    rows, cols : int
        The board's number of rows and columns, each at least 1. They are
        not checked.

    Returns
    -------
    dict of tuple of int to list of tuple of int
        Maps the first square of each class in reading order to every
        square of that class, all as 0-based ``(row, col)`` pairs. The keys
        come in reading order.

    See Also
    --------
    knight.symmetry_class : The class of one square, with its arguments checked.

    Examples
    --------
    >>> from knight.harness_api import representatives
    >>> representatives(3, 3)
    {(0, 0): [(0, 0), (0, 2), (2, 0), (2, 2)], (0, 1): [(0, 1), (1, 0), (1, 2), (2, 1)], (1, 1): [(1, 1)]}
    """
    return {
        divmod(first, cols): [divmod(square, cols) for square in members]
        for first, members in symmetry_classes(rows, cols, range(rows * cols)).items()
    }
