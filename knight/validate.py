"""Argument checks shared by the Python API and the command line.

Light on purpose (no NumPy, no Numba): the CLI runs these before it pays for
importing the kernels.
"""

import operator
import os
import re

from knight.errors import InvalidArgument

METHODS = ("backtrack", "warnsdorff", "greedy")
TIEBREAKS = ("first", "roth")

# node budgets when none is given: of one solve, and of each work unit of
# a count
DEFAULT_BUDGET = 100_000_000
DEFAULT_COUNT_BUDGET = 10**12

# Squares are stored as int32 inside the kernels.
MAX_SQUARES = 2**31 - 1

# Bytes each search holds per square (arrays in knight.kernels, the
# neighbour table and the temporaries that build it), for refusing a board
# before allocating it rather than dying half-way.
_BYTES_PER_SQUARE = {
    "backtrack": 32 + 4 + 1 + 8 + 1 + 48,
    "warnsdorff": 32 + 4 + 1 + 32 + 2 + 8 + 1 + 48,
    "greedy": 4 + 1,
}
# counting: the neighbour table and its temporaries once, then the scratch
# arrays of knight.count_kernels.count_subtree for every unit running at once
_COUNT_TABLE_BYTES = 32 + 48
_COUNT_SCRATCH_BYTES = 4 + 1 + 4 + 1 + 5 * 8


def integer(value, name, minimum=None, maximum=None):
    """``value`` as an int, or InvalidArgument naming ``name`` and its range."""
    try:
        number = operator.index(value)
    except TypeError:
        raise InvalidArgument(f"{name} must be an integer, got {value!r}") from None
    if isinstance(value, bool):
        raise InvalidArgument(f"{name} must be an integer, got {value!r}")
    too_small = minimum is not None and number < minimum
    too_large = maximum is not None and number > maximum
    if too_small or too_large:
        if maximum is None:
            valid = f">= {minimum}"
        elif minimum is None:
            valid = f"<= {maximum}"
        else:
            valid = f"in {minimum}..{maximum}"
        raise InvalidArgument(f"{name} must be {valid}, got {number}")
    return number


def board(rows, cols):
    """Checked ``(rows, cols)``: each side >= 1, squares within int32."""
    rows = integer(rows, "rows", minimum=1)
    cols = integer(cols, "cols", minimum=1)
    if rows * cols > MAX_SQUARES:
        raise InvalidArgument(
            f"board {rows}x{cols} has {rows * cols} squares; at most {MAX_SQUARES} are supported"
        )
    return rows, cols


def start(rows, cols, start):
    """Checked 0-based ``(row, col)`` start square."""
    try:
        row, col = start
    except (TypeError, ValueError):
        raise InvalidArgument(f"start must be a (row, col) pair, got {start!r}") from None
    row = integer(row, "start row", minimum=0, maximum=rows - 1)
    col = integer(col, "start col", minimum=0, maximum=cols - 1)
    return row, col


def choice(value, name, options):
    if value not in options:
        raise InvalidArgument(f"unknown {name} {value!r}; choose one of {', '.join(options)}")
    return value


def budget(value, default):
    """Checked node budget; ``None`` means ``default``."""
    if value is None:
        return default
    return integer(value, "budget", minimum=1)


def available_memory():
    """Bytes this process can still allocate without swapping, best guess."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def memory_needed(rows, cols, method):
    """Estimated peak bytes of one search of ``method`` on ``rows x cols``
    (``count``: on every core this process may use)."""
    if method == "count":
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        return rows * cols * (_COUNT_TABLE_BYTES + workers * _COUNT_SCRATCH_BYTES)
    return rows * cols * _BYTES_PER_SQUARE[method]


def fits_in_memory(rows, cols, method):
    """Refuse, before allocating, a board the search could not hold."""
    needed = memory_needed(rows, cols, method)
    available = available_memory()
    if needed > available:
        raise InvalidArgument(
            f"board {rows}x{cols} needs about {needed / 2**30:.1f} GiB for {method}, "
            f"but only {available / 2**30:.1f} GiB of memory is available"
        )


def integer_text(text, name, minimum=1):
    """An integer typed on the command line, checked like ``integer``."""
    try:
        number = int(text.strip())
    except ValueError:
        raise InvalidArgument(f"{name} must be an integer >= {minimum}, got {text!r}") from None
    return integer(number, name, minimum=minimum)


def start_text(text, rows, cols):
    """A start square typed by the user, as a 0-based ``(row, col)``.

    ``R,C`` is 1-based (row 1 is the first row printed). Chess notation such
    as ``e4`` names the column by letter and counts ranks from the last
    row printed, on boards of at most 26 columns.
    """
    text = text.strip()
    pair = re.fullmatch(r"(-?\d+)\s*,\s*(-?\d+)", text)
    if pair:
        row, col = int(pair[1]), int(pair[2])
        integer(row, "start row", minimum=1, maximum=rows)
        integer(col, "start col", minimum=1, maximum=cols)
        return row - 1, col - 1
    chess = re.fullmatch(r"([a-zA-Z])(\d+)", text)
    if chess:
        if cols > 26:
            raise InvalidArgument(f"chess notation needs at most 26 columns, the board has {cols}; use R,C")
        file = ord(chess[1].lower()) - ord("a") + 1
        rank = int(chess[2])
        last_file = chr(ord("a") + cols - 1)
        if file > cols or not 1 <= rank <= rows:
            raise InvalidArgument(f"start {text!r} is off the board: files a-{last_file}, ranks 1-{rows}")
        return rows - rank, file - 1
    raise InvalidArgument(f"start must be R,C (1-based, e.g. 1,1) or chess notation (e.g. e4), got {text!r}")
