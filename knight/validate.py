"""This module holds the argument checks that the Python API and the command line share.

Light on purpose (no NumPy, no Numba): the CLI runs these before it pays for
importing the kernels.
"""

import operator
import re
from collections.abc import Mapping, Sequence, Set

from knight.errors import InvalidArgument
from knight.runtime import machine

METHODS = ("backtrack", "warnsdorff", "greedy")
TIEBREAKS = ("first", "roth")

# node budgets when none is given: of one solve, and of each work unit of
# a count
DEFAULT_BUDGET = 100_000_000
DEFAULT_COUNT_BUDGET = 10**12

# Squares are stored as int32 inside the kernels.
MAX_SQUARES = 2**31 - 1
# Node budgets, probe counts and node tallies are int64 inside the kernels.
MAX_INT64 = 2**63 - 1
# np.random.seed (NumPy's and Numba's) takes an unsigned 32-bit seed.
MAX_SEED = 2**32 - 1
# More local threads than this is a typo, not a machine (each is an OS thread).
MAX_WORKERS = 1024
# An argument echoed back in an error message is cut to this many characters,
# so that a pasted megabyte still gives a one-line error.
_SHOWN_CHARACTERS = 40

# Bytes each search holds per square (the neighbour table, built in place
# with no temporaries, the path, and the scratch of knight.search.search_kernels'
# *_scratch), for refusing a board before allocating it rather than dying
# half-way.
_BYTES_PER_SQUARE = {
    "backtrack": 32 + 4 + 1 + 1 + 8,
    "warnsdorff": 32 + 4 + 8 + 1 + 1 + 32 + 1 + 1,
    "greedy": 4 + 1,
}
# counting: the neighbour table once, then the scratch
# arrays of knight.counting.dfs.dfs_kernels.count_subtree for every unit running at once
_COUNT_TABLE_BYTES = 32
_COUNT_SCRATCH_BYTES = 4 + 1 + 4 + 1 + 5 * 8


def shown(value):
    """``repr(value)``, cut short: for error messages."""
    try:
        text = repr(value)
    except Exception:  # a hostile object's __repr__ must not replace our error
        text = f"<{type(value).__name__}>"
    if len(text) > _SHOWN_CHARACTERS:
        text = text[: _SHOWN_CHARACTERS - 3] + "..."
    return text


def one_line(message):
    """``message`` with its control characters (a newline typed into an
    argument, a path holding one) escaped: an error stays one line."""
    text = str(message)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def _valid_range(minimum, maximum):
    if maximum is None:
        return f">= {minimum}"
    if minimum is None:
        return f"<= {maximum}"
    return f"in {minimum}..{maximum}"


def integer(value, name, minimum=None, maximum=None):
    """``value`` as an int, or InvalidArgument naming ``name`` and its range."""
    valid = "" if minimum is None and maximum is None else " " + _valid_range(minimum, maximum)
    try:
        number = operator.index(value)
    except TypeError:
        raise InvalidArgument(f"{name} must be an integer{valid}, got {shown(value)}") from None
    if isinstance(value, bool):
        raise InvalidArgument(f"{name} must be an integer{valid}, got {value!r}")
    too_small = minimum is not None and number < minimum
    too_large = maximum is not None and number > maximum
    if too_small or too_large:
        raise InvalidArgument(f"{name} must be{valid}, got {shown(number)}")
    return number


def flag(value, name):
    """``value`` as a bool: True, False (or 1, 0, NumPy's bools)."""
    try:
        if value is True or value is False or value in (0, 1):
            return bool(value)
    except (TypeError, ValueError):  # arrays and other things that do not compare to a bool
        pass
    raise InvalidArgument(f"{name} must be True or False, got {shown(value)}")


def board(rows, cols):
    """Checked ``(rows, cols)``: each side >= 1, squares within int32."""
    rows = integer(rows, "rows", minimum=1)
    cols = integer(cols, "cols", minimum=1)
    if rows * cols > MAX_SQUARES:
        raise InvalidArgument(f"board {rows}x{cols} has {rows * cols} squares; at most {MAX_SQUARES} are supported")
    return rows, cols


def ordered_pair(value):
    """Whether ``value`` can be a square: a sequence (tuple, list, range,
    deque) or a one-dimensional NumPy array, which keep their items in one
    order however often they are read.

    A set has no order (``{4, 1}`` unpacks as ``(1, 4)``), a dict's order
    is its keys', and a generator or iterator is read once: each would
    answer for a square the caller did not mean. A string or bytes is a
    sequence too, of characters or of bytes, and is refused ("12" would
    unpack to ``("1", "2")``).

    Parameters
    ----------
    value : object
        What the caller gave as a square.

    Returns
    -------
    bool
        True for a sequence or a one-dimensional NumPy array.

    Examples
    --------
    >>> ordered_pair((4, 1)), ordered_pair({4, 1}), ordered_pair(iter((4, 1)))
    (True, False, False)
    """
    if isinstance(value, (str, bytes, bytearray, Set, Mapping)):
        return False
    if isinstance(value, Sequence):
        return True
    return type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 1


def unordered(value):
    """Whether ``value`` is a collection with no order of its own.

    Parameters
    ----------
    value : object
        What the caller gave as a tour.

    Returns
    -------
    bool
        True for a set, a frozenset, a dict or its view of keys or items.

    Examples
    --------
    >>> unordered({0, 1}), unordered([0, 1])
    (True, False)
    """
    return isinstance(value, (Set, Mapping))


def start(rows, cols, start, name="start"):
    """Checked 0-based ``(row, col)`` square (``name`` says which, in errors).

    Parameters
    ----------
    rows, cols : int
        The checked board.
    start : sequence of two integers
        The square; see ``ordered_pair`` for what is taken as a sequence.
    name : str
        What the square is called in an error.

    Returns
    -------
    tuple of int
        ``(row, col)``, on the board.

    Raises
    ------
    InvalidArgument
        For anything but a sequence of two integers on the board.

    Examples
    --------
    >>> start(5, 5, [4, 1])
    (4, 1)
    """
    if not ordered_pair(start):
        raise InvalidArgument(
            f"{name} must be a (row, col) pair: a tuple, a list or an array, not a set, a dict or an iterator; "
            f"got {shown(start)}"
        )
    try:
        row, col = start
    except (TypeError, ValueError):
        raise InvalidArgument(f"{name} must be a (row, col) pair, got {shown(start)}") from None
    row = integer(row, f"{name} row", minimum=0, maximum=rows - 1)
    col = integer(col, f"{name} col", minimum=0, maximum=cols - 1)
    return row, col


def choice(value, name, options):
    if not isinstance(value, str) or value not in options:
        raise InvalidArgument(f"unknown {name} {shown(value)}; choose one of {', '.join(options)}")
    return value


def choices(values, name, options):
    """A non-empty collection of ``choice``s, as a tuple."""
    if isinstance(values, str):
        values = (values,)
    try:
        values = tuple(values)
    except TypeError:
        raise InvalidArgument(f"{name}s must be a list of {', '.join(options)}, got {shown(values)}") from None
    if not values:
        raise InvalidArgument(f"no {name} given; choose from {', '.join(options)}")
    return tuple(choice(value, name, options) for value in values)


def budget(value, default):
    """Checked node budget (it must fit the kernels' int64); ``None`` means ``default``."""
    if value is None:
        return default
    return integer(value, "budget", minimum=1, maximum=MAX_INT64)


def workers(value):
    """Checked number of local threads; ``None`` means every core."""
    return None if value is None else integer(value, "workers", minimum=1, maximum=MAX_WORKERS)


def probes(value):
    """Checked number of Knuth probes per start (an int64 in the kernel)."""
    return integer(value, "probes", minimum=1, maximum=MAX_INT64)


def seed(value):
    """Checked random seed: what np.random.seed takes."""
    return integer(value, "seed", minimum=0, maximum=MAX_SEED)


def memory_needed(rows, cols, method):
    """Estimated peak bytes of one search of ``method`` on ``rows x cols``
    (``count``: on every core this process may use)."""
    if method == "count":
        return rows * cols * (_COUNT_TABLE_BYTES + machine.usable_cores() * _COUNT_SCRATCH_BYTES)
    return rows * cols * _BYTES_PER_SQUARE[method]


# below this many bytes a search is let through without reading
# /proc/meminfo, which took 30 us: 40% of the whole call on small boards,
# where a sweep makes tens of thousands of calls
_SURELY_FITS = 64 * 2**20


def fits_in_memory(rows, cols, method, held=0):
    """Refuse, before allocating, a board the search could not hold;
    ``held``: bytes the caller needs besides (the CLI's output buffer)."""
    needed = memory_needed(rows, cols, method) + held
    if needed <= _SURELY_FITS:
        return
    available = machine.available_memory()
    if needed > available:
        raise InvalidArgument(
            f"board {rows}x{cols} needs about {needed / 2**30:.1f} GiB for {method}, "
            f"but only {available / 2**30:.1f} GiB of memory is available"
        )


def integer_text(text, name, minimum=1, maximum=None):
    """An integer typed on the command line, checked like ``integer``."""
    try:
        number = int(text.strip())
    except ValueError:  # not digits, or more digits than Python converts
        raise InvalidArgument(
            f"{name} must be an integer {_valid_range(minimum, maximum)}, got {shown(text)}"
        ) from None
    return integer(number, name, minimum=minimum, maximum=maximum)


# a memory budget (``--memory``): binary multiples with or without "iB"
# ("8G", "8GiB"), decimal ones with "B" alone ("8GB"), a plain number of
# bytes. Below MIN_MEMORY no run of the DP fits: the interpreter, NumPy and
# Numba hold about 200 MB before its first table
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:([kmgt])(i?b)?|(b))?", re.IGNORECASE)
_SIZE_POWERS = {"k": 1, "m": 2, "g": 3, "t": 4}
MIN_MEMORY = 256 << 20
MAX_MEMORY = 1 << 60
# decimals of a size read: 10^-20 of a TiB (2^40) is below a byte
_FRACTION_DIGITS = 20


def memory(value, name="memory"):
    """A memory budget in bytes (an int, or None for no budget): at least
    MIN_MEMORY."""
    if value is None:
        return None
    value = integer(value, name)
    if not MIN_MEMORY <= value <= MAX_MEMORY:
        raise InvalidArgument(
            f"{name} must be {MIN_MEMORY >> 20} MiB to {MAX_MEMORY >> 40} TiB (the dp's interpreter alone holds "
            f"about 200 MB), got {value} bytes"
        )
    return value


def disk(value, name="disk"):
    """A disk budget in bytes (an int, or None for no budget of its own):
    up to MAX_MEMORY, 0 allowed (no disk: a run must fit in memory)."""
    if value is None:
        return None
    return integer(value, name, minimum=0, maximum=MAX_MEMORY)


def memory_text(text, name="--memory"):
    """A memory budget typed on the command line (``8GiB``, ``500M``,
    ``16GB``, bytes), in bytes, checked like ``memory``."""
    return memory(size_text(text, name), name)


def disk_text(text, name="--disk"):
    """A disk budget typed as ``memory_text`` reads one, checked like ``disk``."""
    return disk(size_text(text, name), name)


def size_text(text, name):
    """A size typed on the command line (``8GiB``, ``500M``, ``16GB``,
    bytes), in bytes, at most MAX_MEMORY."""
    found = _SIZE.fullmatch(text.strip())
    if not found:
        raise InvalidArgument(f"{name} must be a size such as 8GiB, 500M or 16GB, got {shown(text)}")
    number, prefix, binary, _ = found.groups()
    base = 1000 if prefix and binary and binary.lower() == "b" else 1024
    scale = base ** _SIZE_POWERS[prefix.lower()] if prefix else 1
    whole, _, fraction = number.partition(".")
    whole = whole.lstrip("0")  # leading zeros are the same number
    if len(whole) > len(str(MAX_MEMORY)):  # surely past MAX_MEMORY: refused before int() meets the digits
        raise InvalidArgument(f"{name} must be at most {MAX_MEMORY >> 40} TiB, got {shown(text)}")
    # exact, never through a float: the maximum itself is taken, one byte more is not.
    # Digits of a fraction past _FRACTION_DIGITS are worth less than a byte
    fraction = fraction[:_FRACTION_DIGITS]
    return int(whole + fraction or "0") * scale // 10 ** len(fraction)


# digits past this are no square on any board (a side is below 2**31): they
# are refused before int() is asked to convert thousands of them
_START_DIGITS = 12


def _start_number(digits, name, maximum):
    if len(digits.lstrip("-")) > _START_DIGITS:
        raise InvalidArgument(f"{name} must be in 1..{maximum}, got {shown(digits)}")
    return integer(int(digits), name, minimum=1, maximum=maximum)


def start_text(text, rows, cols):
    """A start square typed by the user, as a 0-based ``(row, col)``.

    ``R,C`` is 1-based (row 1 is the first row printed). Chess notation such
    as ``e4`` names the column by letter and counts ranks from the last
    row printed, on boards of at most 26 columns.
    """
    text = text.strip()
    pair = re.fullmatch(r"(-?\d+)\s*,\s*(-?\d+)", text)
    if pair:
        row = _start_number(pair[1], "start row", rows)
        col = _start_number(pair[2], "start col", cols)
        return row - 1, col - 1
    chess = re.fullmatch(r"([a-zA-Z])(\d+)", text)
    if chess:
        if cols > 26:
            raise InvalidArgument(f"chess notation needs at most 26 columns, the board has {cols}; use R,C")
        file = ord(chess[1].lower()) - ord("a") + 1
        rank = int(chess[2]) if len(chess[2]) <= _START_DIGITS else rows + 1
        last_file = chr(ord("a") + cols - 1)
        if file > cols or not 1 <= rank <= rows:
            raise InvalidArgument(f"start {shown(text)} is off the board: files a-{last_file}, ranks 1-{rows}")
        return rows - rank, file - 1
    raise InvalidArgument(f"start must be R,C (1-based, e.g. 1,1) or chess notation (e.g. e4), got {shown(text)}")
