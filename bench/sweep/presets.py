"""This module defines the named sweeps ``default`` (make bench) and ``quick`` (make bench-quick).

Sized by measurement on the project's 2-core machine, so that the default
run takes minutes and the quick one seconds (journal: "make bench and
make bench-quick"). Budgets are what makes that
possible: plain backtracking from a bad start square
of an 8x8 board would run for years.
"""

from bench.sweep.plan import Part, Sweep

# greedy runs in linear time, so the sweep can afford every size up to 400
# (it first fails from the corner at 41 with move-order ties and at 248 with
# Roth's) and a sample of sizes beyond
GREEDY_SIZES = tuple(range(5, 401)) + tuple(range(420, 2001, 20))

RECTANGLES = ((3, 4), (3, 5), (3, 7), (3, 8), (3, 10), (4, 4), (4, 5), (4, 6), (4, 8), (5, 6), (5, 7), (6, 8), (7, 8))


def squares(sizes):
    return tuple((n, n) for n in sizes)


def _span(sizes):
    """Square boards named as a part's title names them: ``5x5 to 8x8``."""
    sizes = sorted(sizes)
    first, last = f"{sizes[0]}x{sizes[0]}", f"{sizes[-1]}x{sizes[-1]}"
    if len(sizes) == 1:
        return first
    return f"{first} and {last}" if len(sizes) == 2 else f"{first} to {last}"


def _sweep(backtrack, every_start, corners, greedy, rectangles, closed, budget, closed_backtrack=()):
    """A preset's parts, in the order the report shows them, at its sizes.
    The searches that can run long get ``budget`` nodes, backtracking ten
    times that; greedy always gets 10^8, since it runs in linear time."""
    both = ("first", "roth")
    parts = [
        Part(
            f"backtrack from every start, {_span(backtrack)}",
            squares(backtrack),
            ("backtrack",),
            "all",
            budget=10 * budget,
        ),
        Part(
            f"warnsdorff and greedy from every start, {_span(every_start)}, both tie rules",
            squares(every_start),
            ("warnsdorff", "greedy"),
            "all",
            budget=budget,
            tiebreaks=both,
        ),
        Part(
            f"warnsdorff from the four corners, {_span(corners)}",
            squares(corners),
            ("warnsdorff",),
            "corners",
            budget=budget,
        ),
        Part(
            f"greedy from the corner, {_span(greedy)}, both tie rules",
            squares(greedy),
            ("greedy",),
            "1,1",
            budget=10**8,
            tiebreaks=both,
        ),
        Part(
            "rectangles from every start, every method",
            rectangles,
            ("backtrack", "warnsdorff", "greedy"),
            "all",
            budget=budget,
        ),
    ]
    if closed_backtrack:
        parts.append(
            Part(
                f"closed tours from every start, backtrack on {_span(closed_backtrack)}",
                squares(closed_backtrack),
                ("backtrack",),
                "all",
                (True,),
                budget=10 * budget,
            )
        )
    parts.append(
        Part(
            f"closed tours from every start, warnsdorff, {_span(closed)}",
            squares(closed),
            ("warnsdorff",),
            "all",
            (True,),
            budget=budget,
        )
    )
    return Sweep(parts=tuple(parts), repeats=3)


def default():
    return _sweep(
        range(5, 9),
        range(5, 31),
        range(31, 201),
        GREEDY_SIZES,
        RECTANGLES,
        (6, 8, 10, 12),
        10**6,
        closed_backtrack=(6,),
    )


def quick():
    return _sweep((5, 6), range(5, 11), range(11, 61), range(5, 301), ((3, 4), (4, 4), (4, 5), (5, 6)), (6,), 10**5)


PRESETS = {"default": default, "quick": quick}
