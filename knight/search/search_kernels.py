"""This module compiles the search kernels, iterative depth-first searches over arrays.

Kernels trust their arguments: ``solver.py`` validates and builds the arrays.
Each kernel but the bitboard one (whose scratch is a few hundred bytes)
takes its scratch arrays from the caller (``*_scratch`` makes them), so
that a timed call touches no fresh memory; concurrent calls (threads, since
kernels release the GIL) each need their own.

Shared conventions
------------------
* ``neighbours`` is ``neighbours.neighbour_table``: valid targets first, in move
  order, padded with -1.
* A node is one placement of the knight: the start square counts 1, every
  forward move adds 1, a step back adds nothing. A search never places more
  than ``budget`` nodes.
* Kernels return the integer status codes of ``knight.runtime.status``, which also
  holds their words.
"""

import numpy as np

from knight.geometry.board import MOVE_COLS, MOVE_ROWS
from knight.runtime._bits import popcount
from knight.runtime._jit import _u, jit
from knight.runtime.status import BUDGET, DEAD_END, FOUND, NONE

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


def touched(size, dtype):
    """A NumPy array of ``size`` items with every page already written.

    Scratch comes from NumPy, not from inside a kernel: NumPy asks Linux for
    huge pages on large arrays, and touching 144 MB took 24 ms that way
    against 85 ms through Numba's allocator. Writing it now, before any
    clock starts, keeps page faults out of timed calls.
    """
    array = np.empty(size, dtype=dtype)
    array.fill(0)
    return array


def tie_keys(rows, cols, tiebreak):
    """``_tie_key`` of every square, for the table-driven searches."""
    keys = np.empty(rows * cols, dtype=np.int64)
    _fill_tie_keys(rows, cols, tiebreak, keys)
    return keys


@jit
def _fill_tie_keys(rows, cols, tiebreak, keys):
    for row in range(rows):
        for col in range(cols):
            keys[row * cols + col] = _tie_key(row, col, rows, cols, tiebreak)


@jit
def _mark_closing_squares(neighbours, start, closes):
    """Zero ``closes``, then 1 on each square from which one move returns
    to ``start``."""
    closes[:] = 0
    for k in range(8):
        target = neighbours[start, k]
        if target < 0:
            break
        closes[target] = 1


def backtrack_scratch(n):
    """``backtrack``'s scratch for ``n`` squares, touched: closes, visited
    and the next move to try at each depth (the stack that replaces
    recursion)."""
    return touched(n, np.uint8), touched(n, np.uint8), touched(n, np.int64)


@jit
def backtrack(neighbours, start, closed, budget, first_only, path, closes, visited, move_index):
    """Unordered depth-first search: candidates in move order.

    With ``first_only`` it stops at the first tour, left in ``path``;
    without, it enumerates every tour from ``start``. The last three
    arguments are ``backtrack_scratch``'s arrays, any contents.
    Returns ``(status, tours, nodes)``.
    """
    n = neighbours.shape[0]
    last = n - 1
    _mark_closing_squares(neighbours, start, closes)
    visited[:] = 0
    path[0] = start
    nodes = 1
    tours = 0
    if last == 0:
        # a lone square is an open tour; it cannot close (no move returns)
        return (NONE, 0, nodes) if closed else (FOUND, 1, nodes)
    visited[start] = 1
    # The square and its next move live in registers. A step forward
    # starts the new square at move 0 without reading back what it just
    # stored; only a step back reads the stack.
    depth = 0
    square = start
    k = 0
    while True:
        target = -1
        while k < 8:
            candidate = neighbours[_u(square), _u(k)]
            k += 1
            if candidate < 0:
                break
            if visited[_u(candidate)] == 0:
                target = candidate
                break
        if target < 0:
            visited[_u(square)] = 0
            depth -= 1
            if depth < 0:
                break
            square = path[_u(depth)]
            k = move_index[_u(depth)]
            continue
        if nodes == budget:
            return BUDGET, tours, nodes
        nodes += 1
        if depth + 1 == last:
            path[_u(last)] = target
            if not closed or closes[_u(target)]:
                tours += 1
                if first_only:
                    return FOUND, tours, nodes
            # a leaf: never marked visited, so the search goes on with
            # this square's next move
            continue
        move_index[_u(depth)] = k
        depth += 1
        path[_u(depth)] = target
        visited[_u(target)] = 1
        square = target
        k = 0
    return (FOUND if tours > 0 else NONE), tours, nodes


def warnsdorff_scratch(n):
    """``warnsdorff``'s scratch for ``n`` squares, touched: closes, degree,
    the ordered candidates of each depth (8 per depth), and
    per depth their number and the next one to try."""
    return (
        touched(n, np.uint8),
        touched(n, np.int8),
        touched(8 * n, np.int32),
        touched(n, np.int8),
        touched(n, np.int8),
    )


@jit
def warnsdorff(neighbours, keys, start, closed, budget, path, closes, degree, candidates, n_candidates, next_candidate):
    """Depth-first search trying candidates fewest onward moves first.

    The onward degree of a candidate counts only unvisited squares, kept up
    to date incrementally as the knight moves and steps back. A candidate
    with no onward square is tried like any other: it ends the tour when it
    is the last square, and is a dead end (one node, then a step back)
    otherwise. Ties go to the lower ``keys`` entry, then to move order.
    The last five arguments are ``warnsdorff_scratch``'s arrays, any
    contents. Returns ``(status, nodes)``; a found tour is in ``path``.
    """
    n = neighbours.shape[0]
    last = n - 1
    _mark_closing_squares(neighbours, start, closes)
    # degree[s]: unvisited neighbours of s; -1 marks a visited square
    for square in range(n):
        count = 0
        for k in range(8):
            if neighbours[square, k] < 0:
                break
            count += 1
        degree[square] = count
    # the ordered candidates of depth d sit at candidates[8 * d:8 * d + 8]
    path[0] = start
    nodes = 1
    if last == 0:
        return (NONE, nodes) if closed else (FOUND, nodes)
    # The step-in and step-back code is written out here rather than in
    # helper functions: a helper taking arrays makes Numba wrap every call in
    # reference-count updates, which tripled the instructions per node.
    depth = 0
    entering = True
    while True:
        if entering:
            # take path[depth]: each unvisited neighbour loses one onward
            # square, and with its final degree is insertion-sorted into this
            # depth's candidates (strict comparisons keep move order on ties)
            square = path[_u(depth)]
            degree[_u(square)] = -1
            first = 8 * depth
            count = 0
            for k in range(8):
                candidate = neighbours[_u(square), k]
                if candidate < 0:
                    break
                if degree[_u(candidate)] < 0:
                    continue
                candidate_degree = degree[_u(candidate)] - 1
                degree[_u(candidate)] = candidate_degree
                candidate_key = keys[_u(candidate)]
                slot = first + count
                while slot > first:
                    before = candidates[_u(slot - 1)]
                    before_degree = degree[_u(before)]
                    if before_degree < candidate_degree:
                        break
                    if before_degree == candidate_degree and keys[_u(before)] <= candidate_key:
                        break
                    candidates[_u(slot)] = before
                    slot -= 1
                candidates[_u(slot)] = candidate
                count += 1
            n_candidates[_u(depth)] = count
            next_candidate[_u(depth)] = 0
            entering = False
        i = next_candidate[_u(depth)]
        if i == n_candidates[_u(depth)]:
            # step back from path[depth]: its neighbours regain it, and its
            # own degree is recounted from scratch
            square = path[_u(depth)]
            count = 0
            for k in range(8):
                other = neighbours[_u(square), k]
                if other < 0:
                    break
                if degree[_u(other)] >= 0:
                    degree[_u(other)] += 1
                    count += 1
            degree[_u(square)] = count
            depth -= 1
            if depth < 0:
                return NONE, nodes
            continue
        target = candidates[_u(8 * depth + i)]
        next_candidate[_u(depth)] = i + 1
        if nodes == budget:
            return BUDGET, nodes
        nodes += 1
        depth += 1
        path[_u(depth)] = target
        if depth == last:
            if not closed or closes[_u(target)]:
                return FOUND, nodes
            depth -= 1
            continue
        entering = True


@jit
def _is_knight_move(a, b, cols):
    dr = abs(a // cols - b // cols)
    dc = abs(a % cols - b % cols)
    return (dr == 1 and dc == 2) or (dr == 2 and dc == 1)


def greedy_scratch(n):
    """``greedy``'s scratch for ``n`` squares, touched: onward degrees."""
    return touched(n, np.uint8)


@jit
def greedy(rows, cols, start, tiebreak, closed, budget, path, degree):
    """Warnsdorff's rule with no backtracking: one candidate per step.

    Works from coordinates instead of a neighbour table so that a board of
    10^8 squares needs only ``path`` plus one byte per square (``degree``,
    ``greedy_scratch``'s array, any contents). Each step costs O(1): onward
    degrees are updated as squares are taken.
    Returns ``(status, nodes)``; ``path[:nodes]`` is the walk.
    """
    n = rows * cols
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
    # the walk keeps its square's row and column, taken from the chosen
    # move, so that no step divides
    row, col = divmod(start, cols)
    path[0] = start
    nodes = 1
    for depth in range(1, n + 1):
        # the scan keeps the best move's number, not its square and
        # coordinates: three fewer values to hold in registers
        best_move = -1
        best_degree = 9
        best_key = 0
        # take the square, lowering its unvisited neighbours' degrees, and
        # pick the next one in the same scan
        degree[_u(square)] = _VISITED
        for k in range(8):
            to_row = row + MOVE_ROWS[k]
            to_col = col + MOVE_COLS[k]
            # one unsigned comparison per axis: a negative coordinate
            # wraps to a huge one
            if _u(to_row) >= _u(rows) or _u(to_col) >= _u(cols):
                continue
            # the move's offset is the same on every step: no multiply here
            target = square + MOVE_ROWS[k] * cols + MOVE_COLS[k]
            if degree[_u(target)] == _VISITED:
                continue
            degree[_u(target)] -= 1
            onward = np.int64(degree[_u(target)])
            key = _tie_key(to_row, to_col, rows, cols, tiebreak)
            if onward < best_degree or (onward == best_degree and key < best_key):
                best_move = k
                best_degree = onward
                best_key = key
        if depth == n:
            break
        if best_move < 0:
            return DEAD_END, nodes
        if nodes == budget:
            return BUDGET, nodes
        nodes += 1
        row += MOVE_ROWS[_u(best_move)]
        col += MOVE_COLS[_u(best_move)]
        square = row * cols + col
        path[depth] = square
    if closed and not _is_knight_move(square, start, cols):
        return DEAD_END, nodes
    return FOUND, nodes


# ---------------------------------------------------------------------------
# Bitboard kernel, for boards of at most 64 squares: the visited set is one
# uint64 held in a register. It tries moves in the same order as the array
# kernel, so statuses, node counts and tours are identical. (A bitboard
# backtrack was tried too and measured no faster than the array one: the
# unordered search does too little per node for the register to pay.)

_ONE = np.uint64(1)


@jit
def _neighbour_masks(neighbours):
    masks = np.zeros(neighbours.shape[0], dtype=np.uint64)
    for square in range(neighbours.shape[0]):
        for k in range(8):
            target = neighbours[square, k]
            if target < 0:
                break
            masks[square] |= _ONE << np.uint64(target)
    return masks


@jit
def warnsdorff_bits(neighbours, keys, start, closed, budget, path):
    """``warnsdorff`` on a bitboard; same arguments and returns.

    An onward degree is one popcount of the candidate's neighbour mask less
    the visited set, so nothing is updated when the knight moves or steps
    back: the array kernel's degree bookkeeping disappears.
    """
    n = neighbours.shape[0]
    last = n - 1
    masks = _neighbour_masks(neighbours)
    closes = masks[start]
    candidates = np.empty(8 * n, dtype=np.int32)
    n_candidates = np.zeros(n, dtype=np.int64)
    next_candidate = np.zeros(n, dtype=np.int64)
    path[0] = start
    nodes = 1
    if last == 0:
        return (NONE, nodes) if closed else (FOUND, nodes)
    visited = _ONE << np.uint64(start)
    depth = 0
    square = start
    # Each pass of the outer loop enters ``square`` at ``depth`` and sorts
    # its candidates; the inner loop tries them, stepping back as needed,
    # until a move forward. The next candidate and their number stay in
    # registers: the stack is written on a move forward, read on a step back.
    while True:
        first = 8 * depth
        count = 0
        for k in range(8):
            candidate = neighbours[_u(square), k]
            if candidate < 0:
                break
            if (visited >> np.uint64(candidate)) & _ONE:
                continue
            degree = np.int64(popcount(masks[_u(candidate)] & ~visited))
            key = keys[_u(candidate)]
            # insertion sort, strict comparisons: move order among equals;
            # a placed candidate's degree is one popcount again, not a second
            # array, which leaves the loop fewer pointers to keep in registers
            slot = first + count
            while slot > first:
                before = candidates[_u(slot - 1)]
                before_degree = np.int64(popcount(masks[_u(before)] & ~visited))
                if before_degree < degree:
                    break
                if before_degree == degree and keys[_u(before)] <= key:
                    break
                candidates[_u(slot)] = before
                slot -= 1
            candidates[_u(slot)] = candidate
            count += 1
        i = 0
        while True:
            if i == count:
                visited ^= _ONE << np.uint64(path[_u(depth)])
                depth -= 1
                if depth < 0:
                    return NONE, nodes
                i = next_candidate[_u(depth)]
                count = n_candidates[_u(depth)]
                continue
            target = candidates[_u(8 * depth + i)]
            i += 1
            if nodes == budget:
                return BUDGET, nodes
            nodes += 1
            path[_u(depth + 1)] = target
            if depth + 1 == last:
                if not closed or (closes >> np.uint64(target)) & _ONE:
                    return FOUND, nodes
                continue
            next_candidate[_u(depth)] = i
            n_candidates[_u(depth)] = count
            depth += 1
            visited |= _ONE << np.uint64(target)
            square = target
            break
