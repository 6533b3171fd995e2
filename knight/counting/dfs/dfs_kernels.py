"""This module holds the compiled counting kernels of the DFS engine.

They search the whole subtree below any search prefix, plain or pruned, and
they make Knuth's random probes of the same tree.

A *prefix* is a path the search itself reaches (``prefix[0]`` is the start
square). Counting the subtree below every prefix at one depth, plus the
nodes above that depth, gives exactly the unsplit count: this is what
makes a count splittable into independent work units.

Node accounting (as in ``search_kernels.backtrack``): a subtree search counts its
root as one node and every forward move below it as one more. A move that
reaches ``cut_depth`` is recorded as a work unit instead of being placed, so
that the unit, not its parent, counts that node.

The pruning rule, and why it never loses a tour
-----------------------------------------------
Let ``c`` be the knight's square and ``U`` the unvisited squares. Any
completion is a path ``c -> u1 -> ... -> uk`` through all of ``U``. Each
``u`` in ``U`` has a predecessor in ``U + {c}`` and, unless it is the last
square ``uk``, a different successor in ``U``. Write ``a(u)`` for the number
of neighbours of ``u`` in ``U + {c}``. Then:

* ``a(u) == 0``: ``u`` can never be entered. Dead.
* ``a(u) == 1``: ``u`` has no room for both a predecessor and a successor,
  so it must be the last square (a *forced end*). The tour has one last
  square, so two forced ends are dead.
* Closed tours end a move from the start ``s``: a forced end not adjacent
  to ``s`` is dead, and once ``U`` is non-empty ``s`` must keep an
  unvisited neighbour (the last square is one).
* The knight itself must have an unvisited neighbour unless ``U`` is empty.

All four are necessary conditions for a completion, so cutting a branch
that breaks one removes no tour; the counts equal the plain search's.

Keeping it incremental: ``free[u]`` counts the unvisited neighbours of
every square, so ``a(u) = free[u] + [u next to c]``. When the knight moves
``c -> t``, every ``u`` next to ``t`` loses ``t`` from ``free`` but gains it
as the knight's square: unchanged. The knight's graph is bipartite (each
move changes colour), so no square is next to both ``c`` and ``t``; every
other ``u`` next to ``c`` loses ``c`` and has ``a(u) = free[u]`` afterwards.
So a move changes ``a`` only on ``c``'s unvisited neighbours: tallying once,
on entering ``c``, how many have ``free`` 0 (they would be cut off) and 1
(they would become forced ends) decides each candidate move in O(1).
"""

from typing import NamedTuple

import numpy as np

from knight.runtime._jit import _u, jit
from knight.runtime.status import BUDGET, FOUND, NONE, STOPPED

# how often (in nodes, minus one: a mask) a search polls its stop flag
_STOP_POLL = (1 << 20) - 1


@jit
def _ends_after_move(free_t, closes_t, zeros, ones, ones_far, ends, free_start, closed):
    """Forced ends after moving onto a square ``t`` that is not the last,
    or -1 when the move breaks the pruning rule (module docstring).

    ``zeros``/``ones``/``ones_far`` tally the knight's unvisited neighbours
    with ``free`` 0, 1, and 1 while not next to the start. Scalars only, so
    the hot loop pays no reference counting to call it.
    """
    if free_t == 0 or zeros > 0:
        # t would be stuck, or a square only the knight reaches is left behind
        return -1
    joins = 1 if free_t == 1 else 0
    new_ends = ends + ones - joins
    if new_ends > 1:
        return -1
    if closed:
        if ones_far - (joins if closes_t == 0 else 0) > 0:
            return -1
        if closes_t and free_start == 1:
            return -1
    return new_ends


@jit
def _prepare(neighbours, prefix, closed, pruned, path, visited, free, closes):
    """Set up the search state of ``prefix``; return its forced ends, or -1
    when ``pruned`` and the state already breaks the pruning rule."""
    n = neighbours.shape[0]
    start = prefix[0]
    depth = prefix.shape[0] - 1
    for i in range(prefix.shape[0]):
        path[i] = prefix[i]
        visited[prefix[i]] = 1
    for k in range(8):
        if neighbours[start, k] < 0:
            break
        closes[neighbours[start, k]] = 1
    if not pruned or depth == n - 1:
        # ``free`` serves the pruning rule alone
        return 0
    for square in range(n):
        for k in range(8):
            other = neighbours[square, k]
            if other < 0:
                break
            if visited[other] == 0:
                free[square] += 1
    knight = prefix[depth]
    if free[knight] == 0 or (closed and free[start] == 0):
        return -1
    ends = 0
    for square in range(n):
        if visited[square]:
            continue
        reach = free[square]
        for k in range(8):
            if neighbours[square, k] == knight:
                reach += 1
        if reach == 0 or (reach == 1 and closed and closes[square] == 0):
            return -1
        if reach == 1:
            ends += 1
    return ends if ends <= 1 else -1


class SubtreeCount(NamedTuple):
    """What ``count_subtree`` found below one prefix.

    ``status`` is a ``knight.runtime.status`` code (``FOUND``, ``NONE``,
    ``BUDGET`` or ``STOPPED``); ``tours`` and ``nodes`` are the subtree's;
    ``units_found`` counts the moves that reached the cut depth.
    """

    status: int
    tours: int
    nodes: int
    units_found: int


def count_subtree(neighbours, prefix, closed, pruned, budget, cut_depth, units, stop):
    """Count the tours and nodes of the search subtree below ``prefix``.

    ``pruned`` applies the pruning rule; otherwise the search is
    ``search_kernels.backtrack``'s, node for node. A move reaching ``cut_depth``
    is written to the next row of ``units`` (while rows last) instead of
    being searched; pass -1 for no cut. ``stop[0] != 0`` makes the search
    give up soon, with status ``STOPPED``. At most ``budget`` nodes.
    Returns a ``SubtreeCount`` of Python ints.
    """
    counted = _SUBTREE_COUNTERS[bool(pruned)](neighbours, prefix, closed, budget, cut_depth, units, stop)
    return SubtreeCount(*(int(value) for value in counted))


def _subtree_counter(pruned):
    """``count_subtree`` compiled for one value of ``pruned``, a constant
    inside (a closure variable), so that the plain search carries none of
    the pruning's branches: with ``pruned`` a run-time flag, the plain count
    ran at 0.83x the same search in ``search_kernels.backtrack``."""

    @jit
    def count(neighbours, prefix, closed, budget, cut_depth, units, stop):
        n = neighbours.shape[0]
        last = n - 1
        path = np.empty(n, dtype=np.int32)
        visited = np.zeros(n, dtype=np.uint8)
        free = np.zeros(n, dtype=np.int32)
        closes = np.zeros(n, dtype=np.uint8)
        ends = _prepare(neighbours, prefix, closed, pruned, path, visited, free, closes)
        root = prefix.shape[0] - 1
        if root == last:
            tours = 1 if (not closed or closes[path[root]]) else 0
            return (FOUND if tours else NONE), tours, 1, 0
        if ends < 0:
            return NONE, 0, 1, 0
        start = path[0]
        # per-depth stack: next move to try, forced ends, and the tallies of
        # the knight's unvisited neighbours made on entering the square
        move_index = np.zeros(n, dtype=np.int64)
        ends_at = np.zeros(n, dtype=np.int64)
        zeros_at = np.zeros(n, dtype=np.int64)
        ones_at = np.zeros(n, dtype=np.int64)
        ones_far_at = np.zeros(n, dtype=np.int64)
        ends_at[root] = ends
        nodes = 1
        tours = 0
        found_units = 0
        depth = root
        entering = True
        # written inline, not in helpers taking arrays: Numba reference-counts
        # every array argument of a call, which would dominate the node cost
        while True:
            square = path[_u(depth)]
            if entering:
                entering = False
                move_index[_u(depth)] = 0
                if pruned:
                    zeros = 0
                    ones = 0
                    ones_far = 0
                    for k in range(8):
                        other = neighbours[_u(square), k]
                        if other < 0:
                            break
                        if visited[_u(other)]:
                            continue
                        if free[_u(other)] == 0:
                            zeros += 1
                        elif free[_u(other)] == 1:
                            ones += 1
                            if closes[_u(other)] == 0:
                                ones_far += 1
                    zeros_at[_u(depth)] = zeros
                    ones_at[_u(depth)] = ones
                    ones_far_at[_u(depth)] = ones_far
            k = move_index[_u(depth)]
            target = -1
            new_ends = 0
            while k < 8:
                candidate = neighbours[_u(square), _u(k)]
                k += 1
                if candidate < 0:
                    break
                if visited[_u(candidate)]:
                    continue
                if pruned and depth + 1 < last:
                    new_ends = _ends_after_move(
                        free[_u(candidate)],
                        closes[_u(candidate)],
                        zeros_at[_u(depth)],
                        ones_at[_u(depth)],
                        ones_far_at[_u(depth)],
                        ends_at[_u(depth)],
                        free[_u(start)],
                        closed,
                    )
                    if new_ends < 0:
                        continue
                target = candidate
                break
            if target < 0:
                if depth == root:
                    break
                visited[_u(square)] = 0
                if pruned:
                    for j in range(8):
                        other = neighbours[_u(square), j]
                        if other < 0:
                            break
                        free[_u(other)] += 1
                depth -= 1
                continue
            move_index[_u(depth)] = k
            if depth + 1 == cut_depth:
                if found_units < units.shape[0]:
                    for i in range(depth + 1):
                        units[found_units, i] = path[i]
                    units[found_units, depth + 1] = target
                found_units += 1
                continue
            if nodes == budget:
                return BUDGET, tours, nodes, found_units
            nodes += 1
            if (nodes & _STOP_POLL) == 0 and stop[0]:
                return STOPPED, tours, nodes, found_units
            if depth + 1 == last:
                if not closed or closes[_u(target)]:
                    tours += 1
                # a leaf: never marked visited, nothing to undo
                continue
            depth += 1
            path[_u(depth)] = target
            visited[_u(target)] = 1
            if pruned:
                ends_at[_u(depth)] = new_ends
                for j in range(8):
                    other = neighbours[_u(target), j]
                    if other < 0:
                        break
                    free[_u(other)] -= 1
            entering = True
        return (FOUND if tours > 0 else NONE), tours, nodes, found_units

    return count


count_subtree_plain = _subtree_counter(False)
count_subtree_pruned = _subtree_counter(True)
_SUBTREE_COUNTERS = (count_subtree_plain, count_subtree_pruned)


@jit
def probe_tree(neighbours, start, closed, pruned, probes, seed):
    """Knuth's estimate of the search tree below ``start``: the mean, over
    ``probes`` random root-to-leaf walks, of ``1 + d1 + d1*d2 + ...`` where
    ``di`` is the number of children at depth ``i`` on the walk (an
    unbiased estimate of the node count); tours likewise.
    Returns ``(nodes, tours)`` estimates.
    """
    np.random.seed(seed)
    n = neighbours.shape[0]
    last = n - 1
    prefix = np.full(1, start, dtype=np.int32)
    children = np.empty(8, dtype=np.int32)
    children_ends = np.empty(8, dtype=np.int64)
    total_nodes = 0.0
    total_tours = 0.0
    # allocated once and cleared per probe: four allocations per probe were
    # most of the time planning a small count took
    path = np.empty(n, dtype=np.int32)
    visited = np.empty(n, dtype=np.uint8)
    free = np.empty(n, dtype=np.int32)
    closes = np.empty(n, dtype=np.uint8)
    for _ in range(probes):
        visited[:] = 0
        free[:] = 0
        closes[:] = 0
        ends = _prepare(neighbours, prefix, closed, pruned, path, visited, free, closes)
        weight = 1.0
        total_nodes += 1.0
        if last == 0:
            total_tours += 0.0 if closed else 1.0
            continue
        if ends < 0:
            continue
        for depth in range(last):
            square = path[depth]
            zeros = ones = ones_far = 0
            # the tallies and ``free`` serve the pruning rule alone
            for k in range(8 if pruned else 0):
                other = neighbours[square, k]
                if other < 0:
                    break
                if visited[other] == 0:
                    zeros += free[other] == 0
                    ones += free[other] == 1
                    ones_far += free[other] == 1 and closes[other] == 0
            count = 0
            for k in range(8):
                candidate = neighbours[square, k]
                if candidate < 0:
                    break
                if visited[candidate]:
                    continue
                after = ends
                if pruned and depth + 1 < last:
                    after = _ends_after_move(
                        free[candidate], closes[candidate], zeros, ones, ones_far, ends, free[start], closed
                    )
                    if after < 0:
                        continue
                children[count] = candidate
                children_ends[count] = after
                count += 1
            if count == 0:
                break
            weight *= count
            total_nodes += weight
            pick = np.random.randint(count)
            target = children[pick]
            if depth + 1 == last:
                if not closed or closes[target]:
                    total_tours += weight
                break
            ends = children_ends[pick]
            path[depth + 1] = target
            visited[target] = 1
            for k in range(8 if pruned else 0):
                if neighbours[target, k] < 0:
                    break
                free[neighbours[target, k]] -= 1
    return total_nodes / probes, total_tours / probes
