"""Frozen reference kernels for the speed guard: NEVER EDIT THIS FILE.

A verbatim copy of the functions of knight/kernels.py as of commit 125a638,
with the jit policy of knight/_jit.py and the move table of knight/board.py
of that commit copied in beside them, so that nothing here moves when the
project's code does.

`make bench-check` times knight's kernels against these in the same run and
compares the throughput ratio with the committed one. The ratio cancels the
machine (its speed, its load today) but not the project's code: that is the
whole point, and it holds only while this file stays as it is. If the
kernels' arguments change, adapt the runners in bench/references.py, not
this file. A numba or llvmlite upgrade moves both sides alike; a reference
outside Numba (the C baselines) is what catches that.
"""

import functools

import numba
import numpy as np

# knight/_jit.py's policy at 125a638
jit = functools.partial(
    numba.njit,
    cache=True,
    nogil=True,
    error_model="numpy",
    fastmath=False,
    boundscheck=False,
)

# knight/board.py's move order at 125a638
MOVES = ((-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1))
MOVE_ROWS = np.array([dr for dr, _ in MOVES], dtype=np.int64)
MOVE_COLS = np.array([dc for _, dc in MOVES], dtype=np.int64)


def neighbour_table(rows, cols):
    """knight/board.py's neighbour_table at 125a638."""
    n = rows * cols
    table = np.full((n, 8), -1, dtype=np.int32)
    filled = np.zeros(n, dtype=np.int64)
    row, col = np.divmod(np.arange(n, dtype=np.int64), cols)
    for dr, dc in MOVES:
        to_row = row + dr
        to_col = col + dc
        valid = np.flatnonzero((to_row >= 0) & (to_row < rows) & (to_col >= 0) & (to_col < cols))
        table[valid, filled[valid]] = to_row[valid] * cols + to_col[valid]
        filled[valid] += 1
    return table


FOUND = 0
NONE = 1
BUDGET = 2
DEAD_END = 3

TIEBREAK_FIRST = 0
TIEBREAK_ROTH = 1

# degree value that marks a visited square in the greedy walk, which keeps
# one byte per square instead of a degree array plus a visited array
_VISITED = 255


@jit
def _tie_key(row, col, rows, cols, tiebreak):
    """Secondary sort key among candidates of equal onward degree; lower wins.

    ``first`` gives every square the same key, so ties fall to move order.
    ``roth`` prefers the square farthest from the board's centre point; the
    squared distance is doubled on both axes so that it stays an integer.
    """
    if tiebreak == TIEBREAK_FIRST:
        return 0
    dr = 2 * row - (rows - 1)
    dc = 2 * col - (cols - 1)
    return -(dr * dr + dc * dc)


@jit
def tie_keys(rows, cols, tiebreak):
    """``_tie_key`` of every square, for the table-driven searches."""
    keys = np.empty(rows * cols, dtype=np.int64)
    for row in range(rows):
        for col in range(cols):
            keys[row * cols + col] = _tie_key(row, col, rows, cols, tiebreak)
    return keys


@jit
def _closing_squares(neighbours, start):
    """1 on each square from which one move returns to ``start``."""
    closes = np.zeros(neighbours.shape[0], dtype=np.uint8)
    for k in range(8):
        target = neighbours[start, k]
        if target < 0:
            break
        closes[target] = 1
    return closes


@jit
def backtrack(neighbours, start, closed, budget, first_only, path):
    """Unordered depth-first search: candidates in move order.

    With ``first_only`` it stops at the first tour, left in ``path``;
    without, it enumerates every tour from ``start``.
    Returns ``(status, tours, nodes)``.
    """
    n = neighbours.shape[0]
    last = n - 1
    closes = _closing_squares(neighbours, start)
    visited = np.zeros(n, dtype=np.uint8)
    # next move to try at each depth: the explicit stack that replaces recursion
    move_index = np.zeros(n, dtype=np.int64)
    path[0] = start
    nodes = 1
    tours = 0
    if last == 0:
        # a lone square is an open tour; it cannot close (no move returns)
        return (NONE, 0, nodes) if closed else (FOUND, 1, nodes)
    visited[start] = 1
    depth = 0
    while depth >= 0:
        square = path[depth]
        k = move_index[depth]
        target = -1
        while k < 8:
            candidate = neighbours[square, k]
            k += 1
            if candidate < 0:
                break
            if visited[candidate] == 0:
                target = candidate
                break
        if target < 0:
            visited[square] = 0
            depth -= 1
            continue
        move_index[depth] = k
        if nodes == budget:
            return BUDGET, tours, nodes
        nodes += 1
        depth += 1
        path[depth] = target
        if depth == last:
            if not closed or closes[target]:
                tours += 1
                if first_only:
                    return FOUND, tours, nodes
            # a leaf: step back at once, it was never marked visited
            depth -= 1
            continue
        visited[target] = 1
        move_index[depth] = 0
    return (FOUND if tours > 0 else NONE), tours, nodes


@jit
def _order_candidates(neighbours, degree, keys, square, out):
    """Write the unvisited neighbours of ``square`` into ``out`` sorted by
    (onward degree, tie key), keeping move order among equals; return how many.

    ``degree`` counts unvisited neighbours and is -1 on visited squares.
    """
    count = 0
    for k in range(8):
        candidate = neighbours[square, k]
        if candidate < 0:
            break
        if degree[candidate] < 0:
            continue
        # insertion sort: at most 8 items, and strict comparison keeps it stable
        slot = count
        while slot > 0:
            before = out[slot - 1]
            if degree[before] < degree[candidate]:
                break
            if degree[before] == degree[candidate] and keys[before] <= keys[candidate]:
                break
            out[slot] = before
            slot -= 1
        out[slot] = candidate
        count += 1
    return count


@jit
def _occupy(neighbours, degree, square):
    degree[square] = -1
    for k in range(8):
        target = neighbours[square, k]
        if target < 0:
            break
        if degree[target] >= 0:
            degree[target] -= 1


@jit
def _vacate(neighbours, degree, square):
    # the degree of a square is the count of its unvisited neighbours; on
    # vacating, recount it rather than track it while visited
    count = 0
    for k in range(8):
        target = neighbours[square, k]
        if target < 0:
            break
        if degree[target] >= 0:
            degree[target] += 1
            count += 1
    degree[square] = count


@jit
def warnsdorff(neighbours, keys, start, closed, budget, path):
    """Depth-first search trying candidates fewest onward moves first.

    The onward degree of a candidate counts only unvisited squares, kept up
    to date incrementally as the knight moves and steps back. A candidate
    with no onward square is tried like any other: it ends the tour when it
    is the last square, and is a dead end (one node, then a step back)
    otherwise. Returns ``(status, nodes)``; a found tour is in ``path``.
    """
    n = neighbours.shape[0]
    last = n - 1
    closes = _closing_squares(neighbours, start)
    degree = np.zeros(n, dtype=np.int8)
    for square in range(n):
        for k in range(8):
            if neighbours[square, k] < 0:
                break
            degree[square] += 1
    candidates = np.empty((n, 8), dtype=np.int32)
    n_candidates = np.zeros(n, dtype=np.int8)
    next_candidate = np.zeros(n, dtype=np.int8)
    path[0] = start
    nodes = 1
    if last == 0:
        return (NONE, nodes) if closed else (FOUND, nodes)
    _occupy(neighbours, degree, start)
    n_candidates[0] = _order_candidates(neighbours, degree, keys, start, candidates[0])
    depth = 0
    while depth >= 0:
        i = next_candidate[depth]
        if i == n_candidates[depth]:
            _vacate(neighbours, degree, path[depth])
            depth -= 1
            continue
        target = candidates[depth, i]
        next_candidate[depth] = i + 1
        if nodes == budget:
            return BUDGET, nodes
        nodes += 1
        depth += 1
        path[depth] = target
        if depth == last:
            if not closed or closes[target]:
                return FOUND, nodes
            depth -= 1
            continue
        _occupy(neighbours, degree, target)
        n_candidates[depth] = _order_candidates(
            neighbours, degree, keys, target, candidates[depth]
        )
        next_candidate[depth] = 0
    return NONE, nodes


@jit
def _is_knight_move(a, b, cols):
    dr = abs(a // cols - b // cols)
    dc = abs(a % cols - b % cols)
    return (dr == 1 and dc == 2) or (dr == 2 and dc == 1)


@jit
def greedy(rows, cols, start, tiebreak, closed, budget, path):
    """Warnsdorff's rule with no backtracking: one candidate per step.

    Works from coordinates instead of a neighbour table so that a board of
    10^8 squares needs only ``path`` plus one byte per square. Each step
    costs O(1): onward degrees are updated as squares are taken.
    Returns ``(status, nodes)``; ``path[:nodes]`` is the walk.
    """
    n = rows * cols
    degree = np.zeros(n, dtype=np.uint8)
    for row in range(rows):
        for col in range(cols):
            count = 0
            for k in range(8):
                to_row = row + MOVE_ROWS[k]
                to_col = col + MOVE_COLS[k]
                if 0 <= to_row < rows and 0 <= to_col < cols:
                    count += 1
            degree[row * cols + col] = count
    square = start
    path[0] = start
    nodes = 1
    for depth in range(1, n + 1):
        row, col = divmod(square, cols)
        best = -1
        best_degree = 9
        best_key = 0
        # take the square, lowering its unvisited neighbours' degrees, and
        # pick the next one in the same scan
        degree[square] = _VISITED
        for k in range(8):
            to_row = row + MOVE_ROWS[k]
            to_col = col + MOVE_COLS[k]
            if not (0 <= to_row < rows and 0 <= to_col < cols):
                continue
            target = to_row * cols + to_col
            if degree[target] == _VISITED:
                continue
            degree[target] -= 1
            onward = np.int64(degree[target])
            key = _tie_key(to_row, to_col, rows, cols, tiebreak)
            if onward < best_degree or (onward == best_degree and key < best_key):
                best = target
                best_degree = onward
                best_key = key
        if depth == n:
            break
        if best < 0:
            return DEAD_END, nodes
        if nodes == budget:
            return BUDGET, nodes
        nodes += 1
        path[depth] = best
        square = best
    if closed and not _is_knight_move(square, start, cols):
        return DEAD_END, nodes
    return FOUND, nodes
