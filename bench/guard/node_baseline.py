"""Check the status and node count of a fixed matrix of searches, the exact layer of the speed guard.

Node counts are deterministic and machine-independent, so unlike times they
may be compared with numbers recorded on another day: any difference means a
kernel now does different work, which is either a bug or a deliberate change
to record with ``make baseline``.

The matrix is append-only, like asv benchmarks: add cases at the end of
``matrix()`` and never edit or drop one, since the committed baseline is
keyed by each search's ``key``. Random choices use a fixed seed.

    python -m bench.guard.node_baseline            compare with the baseline, list changes
    python -m bench.guard.node_baseline --record   rewrite the baseline, print the diff
"""

import json
import random
import sys

from bench import command, repo_paths
from bench.command import Parser
from bench.run_folder import record
from bench.timing.named_search import Search

BASELINE = repo_paths.BASELINE / "nodes.json"

# Budgets are part of each key. They are sized so the whole matrix runs in
# seconds: large enough for deep searches with many backtracks, small enough
# that the searches which exhaust them stay cheap.
SMALL_BOARD_BUDGET = 100_000
CORNER_BUDGET = 20_000
COUNT_BUDGET = 10**7
LARGE_BOARD_BUDGET = 10**6  # a greedy walk of 1000x1000 places at most 10^6
SEED = 4

DFS_SEARCHES = (("backtrack", "first"), ("warnsdorff", "first"), ("warnsdorff", "roth"))
GREEDY_SEARCHES = (("greedy", "first"), ("greedy", "roth"))
RECTANGLES = ((3, 4), (3, 7), (3, 8), (3, 10), (4, 5), (4, 7), (5, 6), (5, 7), (6, 7), (7, 8), (6, 9))


def _every_start(rows, cols):
    return [(row, col) for row in range(rows) for col in range(cols)]


def _corners(n):
    return [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)]


def _searches(searches, boards, budget, shapes=(False, True)):
    """Every search of ``searches`` on every (rows, cols, starts) of ``boards``."""
    return [
        Search(method, rows, cols, start, closed, budget, tiebreak)
        for rows, cols, starts in boards
        for start in starts
        for closed in shapes
        for method, tiebreak in searches
    ]


def _seeded_rectangles(count):
    rng = random.Random(SEED)
    boards = []
    for _ in range(count):
        rows, cols = rng.randint(5, 60), rng.randint(5, 60)
        boards.append((rows, cols, [(rng.randrange(rows), rng.randrange(cols))]))
    return boards


def matrix():
    """Every search, in a fixed order; append only."""
    squares = [(n, n, _every_start(n, n)) for n in range(5, 9)]
    rectangles = [(rows, cols, _every_start(rows, cols)) for rows, cols in RECTANGLES]
    warnsdorff = [s for s in DFS_SEARCHES if s[0] == "warnsdorff"]
    return (
        _searches(DFS_SEARCHES + GREEDY_SEARCHES, squares, SMALL_BOARD_BUDGET)
        + _searches(DFS_SEARCHES + GREEDY_SEARCHES, rectangles, SMALL_BOARD_BUDGET)
        + _searches((("count", "first"),), [(5, 5, _every_start(5, 5))], COUNT_BUDGET, (False,))
        + _searches((("count", "first"),), [(3, 4, _every_start(3, 4)), (4, 5, _every_start(4, 5))], COUNT_BUDGET)
        + _searches(warnsdorff, [(n, n, _corners(n)) for n in range(9, 101)], CORNER_BUDGET)
        + _searches(GREEDY_SEARCHES, [(n, n, _corners(n)) for n in range(9, 101)], SMALL_BOARD_BUDGET)
        + _searches(GREEDY_SEARCHES, [(n, n, _corners(n)) for n in range(150, 1001, 50)], LARGE_BOARD_BUDGET, (False,))
        + _searches(warnsdorff + list(GREEDY_SEARCHES), _seeded_rectangles(40), CORNER_BUDGET)
    )


def outcome(search):
    """What the baseline records of one search: exact, never a time."""
    done = search.run()
    fields = {"status": done.status, "nodes": done.nodes}
    return fields if done.tours is None else {**fields, "tours": done.tours}


def compute(searches=None):
    """``{key: outcome}`` of every search, in matrix order."""
    return {search.key: outcome(search) for search in (matrix() if searches is None else searches)}


def load(path=BASELINE):
    return record.read_json(path) if path.exists() else {}


def save(outcomes, path=BASELINE):
    """One entry a line, in matrix order, so that a diff reads entry by entry."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in outcomes.items()]
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n")


def differences(old, new):
    """One line per changed, added or removed entry, with old and new values."""
    lines = []
    for key, value in new.items():
        if key not in old:
            lines.append(f"added    {key}: {_describe(value)}")
        elif old[key] != value:
            lines.append(f"changed  {key}: {_describe(old[key])} -> {_describe(value)}")
    lines += [f"removed  {key}: {_describe(old[key])}" for key in old if key not in new]
    return lines


def _describe(outcome):
    return " ".join(f"{field}={value}" for field, value in outcome.items())


@command.ends_in_one_line
def main(argv=None):
    parser = Parser(prog="python -m bench.guard.node_baseline", description=__doc__.split("\n")[0])
    parser.add_argument("--record", action="store_true", help="rewrite the baseline with today's counts")
    args = parser.parse_args(argv)
    old, new = load(), compute()
    lines = differences(old, new)
    print("\n".join(lines) if lines else f"no differences in {len(new)} entries")
    if args.record:
        save(new)
        print(f"wrote {BASELINE} ({len(new)} entries, {len(lines)} differences)")
        return 0
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
