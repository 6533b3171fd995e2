"""The named sweeps: ``default`` (make bench) and ``quick`` (make bench-quick).

Sized by measurement on the project's 2-core machine: the default sweep
takes about 4 minutes there, the quick one about 10 seconds. Budgets
are what makes that possible: plain backtracking from a bad start square
of an 8x8 board would run for years.
"""

from bench.plan import Part, Sweep

# greedy runs in linear time, so the sweep can afford every size up to 400
# (it first fails from the corner at 41 with move-order ties and at 248 with
# Roth's) and a sample of sizes beyond
GREEDY_SIZES = tuple(range(5, 401)) + tuple(range(420, 2001, 20))

RECTANGLES = ((3, 4), (3, 5), (3, 7), (3, 8), (3, 10), (4, 4), (4, 5), (4, 6), (4, 8), (5, 6), (5, 7), (6, 8), (7, 8))


def squares(sizes):
    return tuple((n, n) for n in sizes)


def default():
    return Sweep(
        parts=(
            Part("backtrack from every start, 5x5 to 8x8", squares(range(5, 9)), ("backtrack",), "all", budget=10**7),
            Part(
                "warnsdorff and greedy from every start, 5x5 to 30x30, both tie rules",
                squares(range(5, 31)),
                ("warnsdorff", "greedy"),
                "all",
                budget=10**6,
                tiebreaks=("first", "roth"),
            ),
            Part(
                "warnsdorff from the four corners, 31x31 to 200x200",
                squares(range(31, 201)),
                ("warnsdorff",),
                "corners",
                budget=10**6,
            ),
            Part(
                "greedy from the corner, 5x5 to 2000x2000, both tie rules",
                squares(GREEDY_SIZES),
                ("greedy",),
                "1,1",
                budget=10**8,
                tiebreaks=("first", "roth"),
            ),
            Part(
                "rectangles from every start, every method",
                RECTANGLES,
                ("backtrack", "warnsdorff", "greedy"),
                "all",
                budget=10**6,
            ),
            Part(
                "closed tours from every start, backtrack on 6x6",
                squares((6,)),
                ("backtrack",),
                "all",
                (True,),
                budget=10**7,
            ),
            Part(
                "closed tours from every start, warnsdorff, 6x6 to 12x12",
                squares((6, 8, 10, 12)),
                ("warnsdorff",),
                "all",
                (True,),
                budget=10**6,
            ),
        ),
        repeats=3,
    )


def quick():
    return Sweep(
        parts=(
            Part("backtrack from every start, 5x5 and 6x6", squares((5, 6)), ("backtrack",), "all", budget=10**6),
            Part(
                "warnsdorff and greedy from every start, 5x5 to 10x10, both tie rules",
                squares(range(5, 11)),
                ("warnsdorff", "greedy"),
                "all",
                budget=10**5,
                tiebreaks=("first", "roth"),
            ),
            Part(
                "warnsdorff from the four corners, 11x11 to 60x60",
                squares(range(11, 61)),
                ("warnsdorff",),
                "corners",
                budget=10**5,
            ),
            Part(
                "greedy from the corner, 5x5 to 300x300, both tie rules",
                squares(range(5, 301)),
                ("greedy",),
                "1,1",
                budget=10**8,
                tiebreaks=("first", "roth"),
            ),
            Part(
                "rectangles from every start, every method",
                ((3, 4), (4, 4), (4, 5), (5, 6)),
                ("backtrack", "warnsdorff", "greedy"),
                "all",
                budget=10**5,
            ),
            Part(
                "closed tours from every start, warnsdorff, 6x6",
                squares((6,)),
                ("warnsdorff",),
                "all",
                (True,),
                budget=10**5,
            ),
        ),
        repeats=3,
    )


PRESETS = {"default": default, "quick": quick}
