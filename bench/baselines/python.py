"""This module holds the plain-Python reference searches.

One implementation serves as the tests' reference and as the benchmark's
"plain Python" column.

Recursive, the way the classic programs do it, and deliberately naive: no
neighbour table, no incremental degrees. They define the answers the
compiled kernels must reproduce node for node. Budget semantics match the
library: a search never places more than ``budget`` nodes; it gives up
when it is about to place one more.
"""

import sys

MOVES = ((-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1))


class _OutOfBudget(Exception):
    pass


def moves_from(rows, cols, row, col):
    for dr, dc in MOVES:
        r, c = row + dr, col + dc
        if 0 <= r < rows and 0 <= c < cols:
            yield r, c


def is_move(a, b):
    return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]


class _Search:
    def __init__(self, rows, cols, start, closed, budget, tiebreak="first"):
        self.rows, self.cols = rows, cols
        self.tiebreak = tiebreak
        self.start = start
        self.closed = closed
        self.budget = budget
        self.nodes = 0
        self.tours = 0
        self.path = []
        self.visited = set()

    def place(self, cell):
        if self.nodes == self.budget:
            raise _OutOfBudget
        self.nodes += 1
        self.path.append(cell)
        self.visited.add(cell)

    def unplace(self):
        self.visited.discard(self.path.pop())

    def complete(self):
        if len(self.path) < self.rows * self.cols:
            return False
        return not self.closed or is_move(self.path[-1], self.start)

    def onward_degree(self, cell):
        return sum(1 for other in moves_from(self.rows, self.cols, *cell) if other not in self.visited)

    def warnsdorff_key(self, cell):
        """Fewest onward squares first; under Roth's rule, then farthest
        from the board's centre point; Python's stable sort and min() keep
        move order among what is still equal."""
        if self.tiebreak == "first":
            return self.onward_degree(cell)
        centre_row, centre_col = (self.rows - 1) / 2, (self.cols - 1) / 2
        distance = (cell[0] - centre_row) ** 2 + (cell[1] - centre_col) ** 2
        return (self.onward_degree(cell), -distance)

    def candidates(self, cell):
        return [other for other in moves_from(self.rows, self.cols, *cell) if other not in self.visited]


def _dfs(search, cell, order, first_only):
    search.place(cell)
    if search.complete():
        search.tours += 1
        if first_only:
            return True
    for other in order(search, cell):
        if _dfs(search, other, order, first_only):
            return True
    search.unplace()
    return False


def _move_order(search, cell):
    return search.candidates(cell)


def _warnsdorff_order(search, cell):
    return sorted(search.candidates(cell), key=search.warnsdorff_key)


def _run(rows, cols, start, closed, budget, order, first_only, tiebreak="first"):
    search = _Search(rows, cols, start, closed, budget, tiebreak)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, rows * cols + 100))
    try:
        found = _dfs(search, start, order, first_only)
        status = "found" if found or search.tours else "none"
    except _OutOfBudget:
        status = "budget"
    finally:
        sys.setrecursionlimit(limit)
    return search, status


def backtrack(rows, cols, start, closed=False, budget=10**9):
    """First tour in move order: ``(status, nodes, tour or None)``."""
    search, status = _run(rows, cols, start, closed, budget, _move_order, True)
    return status, search.nodes, list(search.path) if status == "found" else None


def warnsdorff(rows, cols, start, closed=False, budget=10**9, tiebreak="first"):
    """First tour, candidates by fewest unvisited onward squares."""
    search, status = _run(rows, cols, start, closed, budget, _warnsdorff_order, True, tiebreak)
    return status, search.nodes, list(search.path) if status == "found" else None


def count(rows, cols, start, closed=False, budget=10**9):
    """Every tour from ``start``: ``(status, tours, nodes)``."""
    search, status = _run(rows, cols, start, closed, budget, _move_order, False)
    return status, search.tours, search.nodes


def greedy(rows, cols, start, closed=False, budget=10**9, tiebreak="first"):
    """Warnsdorff's walk without backtracking: ``(status, nodes, path)``."""
    search = _Search(rows, cols, start, closed, budget, tiebreak)
    cell = start
    try:
        search.place(cell)
        while len(search.path) < rows * cols:
            options = search.candidates(cell)
            if not options:
                return "dead-end", search.nodes, search.path
            cell = min(options, key=search.warnsdorff_key)
            search.place(cell)
    except _OutOfBudget:
        return "budget", search.nodes, search.path
    if closed and not is_move(cell, start):
        return "dead-end", search.nodes, search.path
    return "found", search.nodes, search.path
