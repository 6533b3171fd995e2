"""This module defines what a sweep is and expands it into the list of its runs.

A sweep is a list of parts; a part is every combination of its board shapes,
start squares, methods, tour kinds (open, closed) and tie rules, under one
node budget. The default sweep needs several parts (every start on small
boards, corners only on big ones); a sweep typed on the command line is one.
A sweep is plain data that round-trips through meta.json, which is how
``--resume`` knows what is left to do.
"""

from dataclasses import dataclass

from knight import InvalidArgument
from knight.harness_api import representatives, validate

START_KINDS = ("all", "symmetry", "corners")
TOURS = {"open": (False,), "closed": (True,), "both": (False, True)}
# timed repeats of one search: more is a typo (the median settles long before)
MAX_REPEATS = 1000


@dataclass(frozen=True)
class Part:
    """``starts`` is ``all``, ``symmetry`` (one start per symmetry class),
    ``corners``, or 1-based squares as typed on the command line:
    ``"1,1 2,3"``."""

    title: str
    shapes: tuple
    methods: tuple
    starts: str = "all"
    closed: tuple = (False,)
    budget: int = 10**6
    tiebreaks: tuple = ("first",)

    def to_json(self):
        return {
            "title": self.title,
            "shapes": [f"{rows}x{cols}" for rows, cols in self.shapes],
            "methods": list(self.methods),
            "starts": self.starts,
            "tours": ["closed" if closed else "open" for closed in self.closed],
            "budget": self.budget,
            "tiebreaks": list(self.tiebreaks),
        }

    @classmethod
    def from_json(cls, data):
        return cls(
            title=str(data["title"]),
            shapes=tuple(tuple(int(side) for side in shape.split("x")) for shape in data["shapes"]),
            methods=tuple(data["methods"]),
            starts=str(data["starts"]),
            closed=tuple(tour == "closed" for tour in data["tours"]),
            budget=data["budget"],
            tiebreaks=tuple(data["tiebreaks"]),
        )


@dataclass(frozen=True)
class Sweep:
    parts: tuple
    repeats: int = 3
    search_impossible: bool = False

    def to_json(self):
        return {
            "repeats": self.repeats,
            "search_impossible": self.search_impossible,
            "parts": [part.to_json() for part in self.parts],
        }

    @classmethod
    def from_json(cls, data):
        """The sweep meta.json describes; InvalidArgument if it is malformed."""
        try:
            return cls(
                parts=tuple(Part.from_json(part) for part in data["parts"]),
                repeats=data["repeats"],
                search_impossible=bool(data["search_impossible"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise InvalidArgument(f"the sweep in meta.json is malformed ({error!r})") from None


@dataclass(frozen=True)
class Run:
    """One planned search. ``start`` is 0-based; ``represents`` counts the
    start squares it stands for (its symmetry class, or just itself)."""

    rows: int
    cols: int
    start: tuple
    method: str
    tiebreak: str
    closed: bool
    budget: int
    represents: int

    @property
    def key(self):
        """Matches ``RunRecord.key``: 1-based start."""
        return (self.rows, self.cols, self.start[0] + 1, self.start[1] + 1, self.method, self.tiebreak, self.closed)


def corners(rows, cols):
    """The distinct corner squares (fewer than 4 on a board 1 square wide)."""
    return sorted({(0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)})


def start_squares(rows, cols, starts):
    """``[(square, represents), ...]`` for a part's ``starts`` on one board."""
    if starts == "all":
        return [((row, col), 1) for row in range(rows) for col in range(cols)]
    if starts == "symmetry":
        return [(square, len(members)) for square, members in representatives(rows, cols).items()]
    if starts == "corners":
        return [(square, 1) for square in corners(rows, cols)]
    squares = []
    for text in starts.split():
        try:
            square = validate.start_text(text, rows, cols)
        except InvalidArgument as error:
            raise InvalidArgument(f"on the {rows}x{cols} board: {error}") from None
        if square not in dict(squares):
            squares.append((square, 1))
    return squares


def tiebreaks_for(method, tiebreaks):
    # backtrack tries moves in a fixed order and has no tie rule
    return ("",) if method == "backtrack" else tiebreaks


def runs(sweep):
    """Every run of ``sweep`` in order, each key once (the first part that
    plans a key decides its budget)."""
    planned = {}
    for part in sweep.parts:
        for rows, cols in part.shapes:
            for square, represents in start_squares(rows, cols, part.starts):
                for method in part.methods:
                    for tiebreak in tiebreaks_for(method, part.tiebreaks):
                        for closed in part.closed:
                            run = Run(rows, cols, square, method, tiebreak, closed, part.budget, represents)
                            planned.setdefault(run.key, run)
    return list(planned.values())


def check(sweep):
    """Raise InvalidArgument for anything wrong with ``sweep``, before any
    work starts; return its runs."""
    validate.integer(sweep.repeats, "repeats", minimum=1, maximum=MAX_REPEATS)
    if not sweep.parts:
        raise InvalidArgument("the sweep has no parts")
    for part in sweep.parts:
        _check_part(part)
    planned = runs(sweep)
    if not planned:
        raise InvalidArgument("the sweep plans no runs")
    return planned


def _check_part(part):
    if not part.shapes:
        raise InvalidArgument(f"{part.title}: no board sizes or shapes")
    if not part.methods:
        raise InvalidArgument(f"{part.title}: no methods")
    if not part.closed:
        raise InvalidArgument(f"{part.title}: no tour kind (open, closed)")
    validate.budget(part.budget, None)
    for method in part.methods:
        validate.choice(method, "method", validate.METHODS)
    if not part.tiebreaks:
        raise InvalidArgument(f"{part.title}: no tiebreak (first, roth)")
    for tiebreak in part.tiebreaks:
        validate.choice(tiebreak, "tiebreak", validate.TIEBREAKS)
    if part.starts not in START_KINDS and not part.starts.split():
        raise InvalidArgument(f"starts must be {'|'.join(START_KINDS)} or a list of R,C squares")
    for rows, cols in part.shapes:
        validate.board(rows, cols)
        for method in part.methods:
            validate.fits_in_memory(rows, cols, method)
        if part.starts not in START_KINDS:
            start_squares(rows, cols, part.starts)
