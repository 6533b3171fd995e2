"""The command line and the public API under random hostile input (Hypothesis).

Properties, whatever the arguments: the command exits 0 or 2 (never 1, the
status of an unhandled exception), prints no traceback, says what is wrong
in one line, prints strict JSON when asked for JSON, and changes no file
but its own resume file or drawing. Every public function of ``knight`` returns or
raises ``InvalidArgument``, nothing else. Boards and budgets are kept small
so that each example takes milliseconds.
"""

import contextlib
import io
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import knight
from knight import cli
from knight.errors import InvalidArgument

# no example database (it would be a folder in the repository), no deadline
# (the first example of a kind pays for loading Numba's cache)
HOSTILE = settings(max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

HUGE = [2**31, 2**32, 2**63 - 1, 2**63, 2**64, 10**30, -(2**63), -(10**30)]

# integers as a user types them, and things that are not integers
hostile_integer_text = st.one_of(
    st.integers(-3, 8).map(str),
    st.sampled_from(HUGE).map(str),
    st.sampled_from(["", " ", "1.5", "1e3", "0x10", "1_0", " 7 ", "--1", "٣", "9" * 5000, "nan", "inf", "-0"]),
    st.text(max_size=6),
)


def _mostly(valid, hostile):
    """``valid`` nine times in ten: then most examples carry one or two
    hostile values and get past the others to the code behind them."""
    return st.integers(0, 9).flatmap(lambda n: hostile if n == 0 else valid)


def _option(name, values, present=3):
    """``[name, value]`` in ``present`` examples of 4, else nothing."""
    return st.integers(0, 3).flatmap(lambda n: values.map(lambda value: [name, value]) if n < present else st.just([]))


def _flag(name):
    return st.sampled_from([[], [name]])


def _argv(command, *parts):
    return st.tuples(*parts).map(lambda groups: [command] + [token for group in groups for token in group])


def _board(max_squares):
    """Two side texts, mostly small: under ``max_squares`` squares."""
    small = st.integers(1, 6).flatmap(
        lambda rows: st.tuples(st.just(rows), st.integers(1, max(1, max_squares // rows)))
    )
    return _mostly(
        small.map(lambda sides: [str(sides[0]), str(sides[1])]),
        st.tuples(hostile_integer_text, hostile_integer_text).map(list),
    )


start_text = _mostly(
    st.tuples(st.integers(1, 4), st.integers(1, 4)).map(lambda rc: f"{rc[0]},{rc[1]}"),
    st.one_of(
        st.tuples(st.integers(-1, 7), st.integers(-1, 7)).map(lambda rc: f"{rc[0]},{rc[1]}"),
        st.sampled_from(["a1", "e4", "z9", "1,", ",1", "1;1", "a0", f"1,{2**64}", "", "A99999999999999999999"]),
        st.text(max_size=6),
    ),
)


def _long_running(text):
    """A valid but huge budget or probe count: a search of minutes, not a
    hostile input (the range check itself is what the other values test)."""
    try:
        return 10**5 < int(text) <= 2**63 - 1
    except ValueError:
        return False


hostile_count_text = hostile_integer_text.filter(lambda text: not _long_running(text))
budget_text = _mostly(st.integers(1, 20_000).map(str), hostile_count_text)
JUNK = st.lists(st.sampled_from(["--frobnicate", "--json", "--closed", "-x", "extra", "--", "--budget"]), max_size=1)
junk = st.integers(0, 9).flatmap(lambda n: JUNK if n == 0 else st.just([]))
# --svg: a new file, standard output, or a path that cannot hold a drawing
svg_target = _option(
    "--svg", st.sampled_from(["DRAWING", "DRAWING", "-", "", "NOTES", "FOLDER", "MISSING", "DEVNULL"]), present=1
)

solve_argv = _argv(
    "solve",
    _board(64),
    _option("--start", start_text),
    _option(
        "--method",
        _mostly(st.sampled_from(["backtrack", "warnsdorff", "greedy"]), st.sampled_from(["dfs", "", "GREEDY"])),
    ),
    _option("--tiebreak", _mostly(st.sampled_from(["first", "roth"]), st.sampled_from(["last", "", "Roth"]))),
    _option("--budget", budget_text, present=4),
    _flag("--closed"),
    _flag("--json"),
    svg_target,
    junk,
)


def _long_count(argv):
    """A valid board past 36 squares with no budget: an exact count of
    minutes (the DP's 7x8 grid) and gigabytes, not a hostile input."""
    try:
        rows, cols = int(argv[1]), int(argv[2])
    except ValueError:
        return False
    return rows >= 1 and cols >= 1 and rows * cols > 36 and "--budget" not in argv


count_argv = _argv(
    "count",
    _board(20),
    _option("--start", start_text),
    _option("--budget", budget_text),
    _flag("--closed"),
    _flag("--plain"),
    _option("--depth", _mostly(st.integers(0, 4).map(str), hostile_integer_text)),
    _option("--workers", _mostly(st.integers(1, 3).map(str), hostile_integer_text)),
    _option(
        "--scheduler",
        st.sampled_from(["no-port", "http://127.0.0.1:80", "tcp://127.0.0.1:0", "tcp://:1", ""]),
        present=0.2,
    ),
    _option("--resume", _mostly(st.just("NEW"), st.sampled_from(["NOTES", "FOLDER", "MISSING", "DEVNULL"]))),
    _flag("--json"),
    svg_target,
    junk,
).filter(lambda argv: not _long_count(argv))
estimate_argv = _argv(
    "estimate",
    _board(25),
    _option("--start", start_text),
    _flag("--closed"),
    _option("--probes", _mostly(st.integers(1, 300).map(str), hostile_count_text), present=4),
    _option("--seed", _mostly(st.sampled_from(["0", "7", str(2**32 - 1)]), hostile_integer_text)),
    _flag("--json"),
)
exists_argv = _argv(
    "exists", st.tuples(hostile_integer_text, hostile_integer_text).map(list), _flag("--closed"), _flag("--json")
)


def _strict_json(text):
    def refuse(constant):
        raise AssertionError(f"not strict JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def _run_cli(argv):
    """``(status, stdout, stderr)`` of the command run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            status = cli.main(argv, out=out)
        except SystemExit as done:  # --help, from argparse
            status = done.code
    return status, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def _sandbox():
    """A folder holding a file of the user's notes and a sub-folder; yields
    the map from the resume placeholders to paths in it."""
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        (folder / "notes.txt").write_text("my notes")
        (folder / "folder").mkdir()
        yield (
            folder,
            {
                "NOTES": str(folder / "notes.txt"),
                "NEW": str(folder / "units.jsonl"),
                "FOLDER": str(folder / "folder"),
                "MISSING": str(folder / "missing" / "units.jsonl"),
                "DRAWING": str(folder / "drawing.svg"),
                "DEVNULL": os.devnull,
            },
        )


def _snapshot(folder):
    return {path.relative_to(folder): path.read_bytes() if path.is_file() else None for path in folder.rglob("*")}


def _check_command(argv):
    with _sandbox() as (folder, paths):
        argv = [paths.get(token, token) for token in argv]
        before = _snapshot(folder)
        status, out, err = _run_cli(argv)
        after = _snapshot(folder)
    event(f"exit {status}")  # --hypothesis-show-statistics: how many got past the checks
    assert status in (0, 2), (argv, status, err)
    assert "Traceback" not in err, argv
    if status == 2:
        assert err.startswith("knight: error: ") and err.count("\n") == 1, (argv, err)
        assert out == ""
    elif "--json" in argv and "--help" not in argv:
        _strict_json(out)
    # nothing changed but the command's own resume file or drawing
    changed = {name for name in before.keys() | after.keys() if before.get(name, 0) != after.get(name, 0)}
    assert changed <= {Path("units.jsonl"), Path("drawing.svg")}, (argv, changed)


@HOSTILE
@given(solve_argv)
def test_solve_with_hostile_arguments(argv):
    _check_command(argv)


@HOSTILE
@given(count_argv)
def test_count_with_hostile_arguments(argv):
    _check_command(argv)


@settings(HOSTILE, max_examples=30)
@given(estimate_argv)
def test_estimate_with_hostile_arguments(argv):
    _check_command(argv)


@HOSTILE
@given(exists_argv)
def test_exists_with_hostile_arguments(argv):
    _check_command(argv)


@HOSTILE
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["solve", "count", "estimate", "exists", "3", "4", "--json", "\n", "a\rb"]),
            st.text(max_size=8),
        ),
        max_size=5,
    )
)
def test_any_tokens_at_all(argv):
    if argv[:1] in (["count"], ["estimate"]) and argv[1:3] == ["4", "4"]:
        argv = argv[:1]  # keep it quick: no 4x4 count without a budget
    _check_command(argv)


# --- the public API ---------------------------------------------------------

anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 8),
    st.sampled_from(HUGE),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.tuples(st.integers(-2, 9), st.integers(-2, 9)),
    st.lists(st.integers(-2, 9), max_size=3),
    st.just(np.int64(5)),
    st.just(np.array([1, 2])),
    st.just(object()),
)
side = st.one_of(st.integers(1, 6), anything)
square = st.one_of(st.tuples(st.integers(-1, 6), st.integers(-1, 6)), anything)


def _returns_or_refuses(function, *args, **kwargs):
    try:
        return function(*args, **kwargs)
    except InvalidArgument as error:
        message = str(error)
        assert message and "\n" not in message
        return None


def _small(rows, cols, limit):
    return not (isinstance(rows, int) and isinstance(cols, int) and rows * cols > limit and max(rows, cols) < 2**31)


@HOSTILE
@given(
    side,
    side,
    square,
    st.one_of(st.sampled_from(["backtrack", "warnsdorff", "greedy"]), anything),
    st.one_of(st.integers(1, 5000), anything),
    anything,
    st.one_of(st.sampled_from(["first", "roth"]), anything),
)
def test_solve_returns_or_refuses(rows, cols, start, method, budget, closed, tiebreak):
    if (budget is None and not _small(rows, cols, 25)) or (isinstance(budget, int) and 10**5 < budget < 2**63):
        budget = 5000  # a valid budget of minutes of search is no hostile input
    _returns_or_refuses(knight.solve, rows, cols, start, method, budget, closed, tiebreak)


@HOSTILE
@given(
    side,
    side,
    st.one_of(st.none(), square),
    anything,
    st.one_of(st.integers(1, 5000), anything),
    st.one_of(st.none(), anything),
    anything,
    anything,
    st.one_of(st.integers(0, 3), anything),
    st.one_of(st.integers(1, 3), anything),
    st.sampled_from([None, "no-port", 5, "tcp://x:0"]),
)
def test_count_tours_returns_or_refuses(
    rows, cols, start, closed, budget, progress, pruned, symmetry, depth, workers, scheduler
):
    if not _small(rows, cols, 20):
        return
    if progress is not None:
        progress = progress if not isinstance(progress, bool) else (lambda now: None)
    _returns_or_refuses(
        knight.count_tours,
        rows,
        cols,
        start,
        closed,
        budget,
        progress,
        pruned=pruned,
        symmetry=symmetry,
        depth=depth,
        workers=workers,
        scheduler=scheduler,
    )


tour_item = st.one_of(
    st.integers(-1, 30),
    st.floats(),
    st.text(max_size=2),
    st.none(),
    st.booleans(),
    st.tuples(st.integers(-1, 5), st.integers(-1, 5)),
    st.tuples(st.integers(), st.integers(), st.integers()),
    st.tuples(st.floats(), st.floats()),
    st.just(np.int32(3)),
    st.just(np.float64(2.5)),
)


@HOSTILE
@given(side, side, anything, st.one_of(st.none(), anything))
def test_count_total_returns_or_refuses(rows, cols, closed, progress):
    if not _small(rows, cols, 20):
        return
    if progress is not None:
        progress = progress if not isinstance(progress, bool) else (lambda now: None)
    total = _returns_or_refuses(knight.count_total, rows, cols, closed, progress)
    assert total is None or (isinstance(total, knight.Total) and total.tours >= 0)


@HOSTILE
@given(side, side, anything, st.one_of(st.none(), anything))
def test_count_every_width_returns_or_refuses(rows, cols, closed, progress):
    if not _small(rows, cols, 20):
        return
    if progress is not None:
        progress = progress if not isinstance(progress, bool) else (lambda now: None)
    totals = _returns_or_refuses(knight.count_every_width, rows, cols, closed, progress)
    assert totals is None or (isinstance(totals, knight.WidthTotals) and all(w.tours >= 0 for w in totals.widths))


@HOSTILE
@given(side, side, st.one_of(st.lists(tour_item, max_size=30), anything), anything)
def test_is_tour_answers_or_refuses_the_container(rows, cols, tour, closed):
    answer = _returns_or_refuses(knight.is_tour, rows, cols, tour, closed)
    assert answer in (True, False, None)


@HOSTILE
@given(st.lists(st.integers(0, 63), min_size=64, max_size=64), st.sampled_from([0.9, 0.5, 1e-9]))
def test_is_tour_refuses_squares_with_fractions(noise, fraction):
    tour = knight.solve(8, 8).tour.tolist()
    assert knight.is_tour(8, 8, tour)
    assert not knight.is_tour(8, 8, [square + fraction for square in tour])


@HOSTILE
@given(side, side, square)
def test_symmetry_class_stays_on_the_board(rows, cols, start):
    members = _returns_or_refuses(knight.symmetry_class, rows, cols, start)
    if members is not None:
        assert all(0 <= r < rows and 0 <= c < cols for r, c in members)
        assert tuple(start) in members


@HOSTILE
@given(side, side, square, anything)
def test_theory_returns_or_refuses(rows, cols, start, closed):
    _returns_or_refuses(knight.tour_exists, rows, cols, closed)
    _returns_or_refuses(knight.start_possible, rows, cols, start, closed)


@HOSTILE
@given(st.one_of(st.lists(st.sampled_from(["greedy", "warnsdorff", "nope", ""]), max_size=2), anything))
def test_compile_kernels_returns_or_refuses(methods):
    _returns_or_refuses(knight.compile_kernels, methods)


# each public function of knight and the property test that throws random values at it
PROPERTIES = {
    "compile_kernels": test_compile_kernels_returns_or_refuses,
    "count_every_width": test_count_every_width_returns_or_refuses,
    "count_total": test_count_total_returns_or_refuses,
    "count_tours": test_count_tours_returns_or_refuses,
    "is_tour": test_is_tour_answers_or_refuses_the_container,
    "solve": test_solve_returns_or_refuses,
    "start_possible": test_theory_returns_or_refuses,
    "symmetry_class": test_symmetry_class_stays_on_the_board,
    "tour_exists": test_theory_returns_or_refuses,
}


def test_every_public_function_has_a_property_test():
    public = {name for name in knight.__all__ if not isinstance(getattr(knight, name), type)}
    assert public == set(PROPERTIES)


# --- a few real processes, as a user runs them ------------------------------

REAL = [
    ["solve", "5", "5", "--budget", "9223372036854775808"],
    ["count", "3", "4", "--budget", "99999999999999999999"],
    ["estimate", "5", "5", "--seed", "99999999999999999999999"],
    ["estimate", "5", "5", "--probes", "10000000000000000000000"],
    ["count", "3", "4", "--scheduler", "not an address"],
    ["count", "3", "4", "--resume", "/"],
    ["solve", "8", "8", "--svg", "/"],
    ["solve", "2001", "2000", "--method", "greedy", "--svg", "/no/such/folder/tour.svg"],
]


@pytest.mark.parametrize("value", ["0", "-1", "abc", ""])
@pytest.mark.parametrize("command", [["knight", "count", "3", "4"], ["bench", "--sizes", "5", "--out", "OUT"]])
def test_a_numba_thread_setting_numba_fails_on_is_one_line(tmp_path, command, value):
    """Issue 29, item 8: NUMBA_NUM_THREADS=0 was a traceback from ``import
    numba``; checked before Numba is imported, by either command."""
    module, *argv = (str(tmp_path / "out") if item == "OUT" else item for item in command)
    environment = {**os.environ, "NUMBA_NUM_THREADS": value}
    done = subprocess.run(
        [sys.executable, "-m", module, *argv], capture_output=True, text=True, timeout=120, env=environment
    )
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr == f"{module}: error: NUMBA_NUM_THREADS must be an integer >= 1 (or unset), got {value!r}\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", REAL, ids=[" ".join(argv[-2:]) for argv in REAL])
def test_real_processes_fail_in_one_line(argv):
    done = subprocess.run([sys.executable, "-m", "knight", *argv], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_real_json_is_strict():
    done = subprocess.run(
        [sys.executable, "-m", "knight", "estimate", "3", "3", "--start", "1,2", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    record = _strict_json(done.stdout)
    assert record["rate"] is None and not math.isnan(record["seconds"])


# --- one value in many types: refused, or the answer of its plain type --------


def _enum_member(value):
    import enum

    return enum.IntEnum("Side", {"VALUE": value}).VALUE


# integers as Python's, NumPy's and other types hold them: an exact
# integer type must give the answer of the int; the rest must be refused
# or give that answer, never another
INTEGER_FORMS = {
    "int": (int, "answer"),
    "numpy int64": (np.int64, "answer"),
    "numpy uint8": (np.uint8, "answer"),
    "IntEnum": (_enum_member, "answer"),
    "bool": (lambda value: bool(value), "either"),
    "float": (float, "either"),
    "numpy float": (np.float64, "either"),
    "text": (str, "either"),
    "Fraction": (lambda value: __import__("fractions").Fraction(value), "either"),
    "one-item list": (lambda value: [value], "either"),
}
FLAG_FORMS = {
    "bool": (bool, "answer"),
    "numpy bool": (np.bool_, "answer"),
    "int": (int, "answer"),
    "text": (lambda value: "yes" if value else "", "either"),
    "None": (lambda value: None, "either"),
    "list": (lambda value: [value], "either"),
}
# a square: sequences keep their order and are taken; a set, a dict, a
# generator and an iterator are refused, whatever they hold
SQUARE_FORMS = {
    "tuple": (tuple, "answer"),
    "list": (list, "answer"),
    "numpy array": (np.array, "answer"),
    "int32 array": (lambda square: np.array(square, dtype=np.int32), "answer"),
    "deque": (lambda square: __import__("collections").deque(square), "answer"),
    "set": (set, "refuse"),
    "frozenset": (frozenset, "refuse"),
    "dict": (lambda square: {square[0]: square[1]}, "refuse"),
    "dict keys": (lambda square: dict.fromkeys(square).keys(), "refuse"),
    "generator": (lambda square: (value for value in square), "refuse"),
    "iterator": (iter, "refuse"),
    "reversed": (lambda square: reversed(list(square)), "refuse"),
    "map": (lambda square: map(int, square), "refuse"),
    "text": (lambda square: f"{square[0]},{square[1]}", "refuse"),
    "bytes": (bytes, "refuse"),
}
# a whole tour: read in its order once (an iterator too), but never a set or a dict
TOUR_FORMS = {
    "list": (list, "answer"),
    "tuple": (tuple, "answer"),
    "numpy array": (np.array, "answer"),
    "generator": (lambda tour: (square for square in tour), "answer"),
    "set": (set, "refuse"),
    "frozenset": (frozenset, "refuse"),
    "dict": (dict.fromkeys, "refuse"),
}


def _formed(forms):
    """``(name, form, rule)`` drawn from ``forms``."""
    return st.sampled_from(sorted(forms)).map(lambda name: (name, *forms[name]))


def _same(one, other):
    """Whether two answers of a public function are the same answer."""
    if isinstance(one, knight.Result):
        return (one.status, one.nodes, one.start) == (other.status, other.nodes, other.start) and np.array_equal(
            one.tour, other.tour
        )
    if isinstance(one, knight.Count):
        return one.total_tours == other.total_tours and np.array_equal(one.tours, other.tours)
    return one == other


def _check_forms(call, plain, formed):
    """``call(*formed values)`` is refused in one line, or gives the answer
    of ``call(*plain)``; a rule of "answer" must answer, one of "refuse"
    must be refused."""
    expected = call(*plain)
    values = [form(value) for value, (_, form, _) in zip(plain, formed, strict=True)]
    rules = {rule for _, _, rule in formed}
    try:
        answer = call(*values)
    except InvalidArgument as error:
        assert "\n" not in str(error) and str(error)
        assert rules != {"answer"}, f"{[name for name, _, _ in formed]} refused: {error}"
        return
    assert "refuse" not in rules, f"{[name for name, _, _ in formed]} answered {answer!r}"
    assert _same(answer, expected), f"{[name for name, _, _ in formed]}: {answer!r}, not {expected!r}"


def _small_board(max_squares):
    return st.integers(1, 5).flatmap(lambda rows: st.tuples(st.just(rows), st.integers(1, max_squares // rows)))


def _board_and_square(max_squares):
    return _small_board(max_squares).flatmap(
        lambda board: st.tuples(st.just(board), st.tuples(st.integers(0, board[0] - 1), st.integers(0, board[1] - 1)))
    )


TYPES = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
integer_form, flag_form, square_form = _formed(INTEGER_FORMS), _formed(FLAG_FORMS), _formed(SQUARE_FORMS)


def _answer(name, closed):
    """The public function ``name`` called as the property calls it."""
    calls = {
        "solve": lambda rows, cols, start, closed: knight.solve(rows, cols, start, budget=20_000, closed=closed),
        "count_tours": lambda rows, cols, start, closed: knight.count_tours(rows, cols, start, closed, method="dfs"),
        "start_possible": knight.start_possible,
        "symmetry_class": lambda rows, cols, start, closed: knight.symmetry_class(rows, cols, start),
    }
    return calls[name]


@TYPES
@given(
    st.sampled_from(["solve", "count_tours", "start_possible", "symmetry_class"]),
    _board_and_square(20),
    st.booleans(),
    st.tuples(integer_form, integer_form, square_form, flag_form),
)
def test_a_square_in_any_type_is_refused_or_answered_right(name, board_square, closed, formed):
    """Issue 57: ``count_tours(5, 6, start={4, 1})`` counted from (1, 4).
    A square with no order of its own is refused; one in a sequence of any
    kind gets the answer of its tuple; so do the board's sides and the flag."""
    (rows, cols), start = board_square
    _check_forms(_answer(name, closed), (rows, cols, start, closed), formed)


@TYPES
@given(_small_board(20), st.booleans(), st.tuples(integer_form, integer_form, flag_form))
def test_a_board_in_any_type_is_refused_or_answered_right(board, closed, formed):
    """``tour_exists``, ``count_total`` and ``count_every_width``, which take no square: their
    board and flag, as the property above takes them."""
    rows, cols = board
    _check_forms(knight.tour_exists, (rows, cols, closed), formed)
    _check_forms(lambda rows, cols, closed: knight.count_total(rows, cols, closed).tours, (rows, cols, closed), formed)
    _check_forms(
        lambda rows, cols, closed: [w.tours for w in knight.count_every_width(rows, cols, closed).widths],
        (rows, cols, closed),
        formed,
    )


@TYPES
@given(_board_and_square(30), st.integers(0, 2), _formed(TOUR_FORMS), square_form)
def test_a_tour_in_any_type_is_refused_or_answered_right(board_square, swaps, tour_form, square_form):
    """``is_tour``: a tour in a set or a dict is refused (it has no visiting
    order); a square in it held with no order of its own is no square, so
    such a tour is not one."""
    (rows, cols), start = board_square
    found = knight.solve(rows, cols, start, budget=20_000).tour
    squares = [divmod(int(square), cols) for square in (found if found is not None else range(rows * cols))]
    for swap in range(min(swaps, len(squares) // 2)):
        squares[swap], squares[-1 - swap] = squares[-1 - swap], squares[swap]
    name, form, rule = square_form
    if rule == "answer":
        _check_forms(lambda tour: knight.is_tour(rows, cols, tour), (squares,), [tour_form])
        return
    try:
        tour = tour_form[1]([form(square) for square in squares])
    except TypeError:  # a set of sets cannot be made: there is no such tour to try
        return
    try:
        answer = knight.is_tour(rows, cols, tour)
    except InvalidArgument:
        assert tour_form[2] == "refuse"
    else:
        assert tour_form[2] != "refuse" and answer is False, f"{name} squares in a {tour_form[0]}: {answer}"


SQUARE_PROPERTIES = {
    "count_every_width": test_a_board_in_any_type_is_refused_or_answered_right,
    "count_total": test_a_board_in_any_type_is_refused_or_answered_right,
    "count_tours": test_a_square_in_any_type_is_refused_or_answered_right,
    "is_tour": test_a_tour_in_any_type_is_refused_or_answered_right,
    "solve": test_a_square_in_any_type_is_refused_or_answered_right,
    "start_possible": test_a_square_in_any_type_is_refused_or_answered_right,
    "symmetry_class": test_a_square_in_any_type_is_refused_or_answered_right,
    "tour_exists": test_a_board_in_any_type_is_refused_or_answered_right,
}


def test_every_public_function_has_an_argument_type_property():
    assert set(SQUARE_PROPERTIES) == set(PROPERTIES) - {"compile_kernels"}
