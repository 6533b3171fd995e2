"""Counts past 2^1024 (issue 29, item 4): exact, against a plain-Python
count of their own with Python ints; a board whose counts could pass the
DP's widest refused before the work, in one line."""

import contextlib
import io
import itertools
import json
from collections import defaultdict

import pytest

import knight
from knight import cli, drawing
from knight.counting.dp.planning import memory_model
from knight.counting.dp.runs import run_loop

_MOVES = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
_FIXED = -1  # a fragment's other end has left the frontier: an end of the path


def paths_by_python(rows, cols, end=None):
    """Undirected Hamiltonian paths of the knight's graph of ``rows`` x
    ``cols`` (with square ``end`` an end of each, when given), by a
    frontier count that shares nothing with knight's: squares column by
    column, each state the degree of every square still in reach and, for
    the ends of each path fragment, the other end; Python ints."""
    order = [(r, c) for c in range(cols) for r in range(rows)]
    index = {square: i for i, square in enumerate(order)}
    n = len(order)
    neighbours = [
        [index[(r + dr, c + dc)] for dr, dc in _MOVES if 0 <= r + dr < rows and 0 <= c + dc < cols] for r, c in order
    ]
    board = (neighbours, [max([*neighbours[v], v]) for v in range(n)], n, None if end is None else index[end])
    states = {((), 0, False): 1}
    for v in range(n):
        made = defaultdict(int)
        for state, count in states.items():
            for successor in _successors(state, v, board):
                made[successor] += count
        states = made
    return sum(count for (frontier, _, done), count in states.items() if done and not frontier)


def _successors(state, v, board):
    neighbours, last, n, end = board
    frontier, ends, done = state
    if done:
        return
    degree = {w: d for w, d, _ in frontier}
    partner = {w: p for w, _, p in frontier}
    degree[v], partner[v] = 0, v
    reachable = [u for u in neighbours[v] if u < v and u in degree and degree[u] < 2]
    for size in range(3):
        for chosen in itertools.combinations(reachable, size):
            linked = _linked(dict(degree), dict(partner), v, chosen, n)
            left = None if linked is None else _left(*linked, v, last, ends, n, end)
            if left is not None:
                yield left


def _linked(degree, partner, v, chosen, n):
    """The edges from ``v`` to ``chosen`` added: no third edge, no cycle."""
    done = False
    for u in chosen:
        if degree[v] == 2 or partner[v] == u:
            return None
        a, b = partner[v], partner[u]
        degree[v] += 1
        degree[u] += 1
        if a == _FIXED and b == _FIXED:
            if v != n - 1:
                return None  # the path closed with squares left
            done = True
        for x, y in ((a, b), (b, a)):
            if x != _FIXED:
                partner[x] = y
        for w in (v, u):
            if degree[w] == 2:
                partner[w] = None
    return degree, partner, done


def _left(degree, partner, done, v, last, ends, n, end):
    """The squares with no neighbour left to place leave the state."""
    for w in sorted(degree):
        if last[w] > v:
            continue
        if degree[w] == 0 or (w == end and degree[w] == 2):
            return None
        if degree[w] == 1:
            ends += 1
            if ends > 2:
                return None
            if partner[w] == _FIXED:
                if done or v != n - 1:
                    return None
                done = True
            else:
                partner[partner[w]] = _FIXED
        del degree[w], partner[w]
    return tuple((w, degree[w], partner[w]) for w in sorted(degree)), ends, done


@pytest.mark.parametrize(("rows", "cols", "total", "corner"), [(3, 4, 16, 2), (4, 5, 164, 32), (3, 10, 6096, 448)])
def test_the_reference_gives_the_published_and_searched_counts(rows, cols, total, corner):
    # OEIS A165134 (3x4, 4x5) and the DFS (3x10, tests/knight/test_counting.py's ground)
    assert 2 * paths_by_python(rows, cols) == total == knight.count_tours(rows, cols, method="dfs").total_tours
    assert paths_by_python(rows, cols, end=(0, 0)) == corner


def test_counts_past_one_limb_are_exact():
    """3 x 39 has 4.9 x 10^19 directed tours, and 3 x 41 has 4.5 x 10^19
    open paths with an end at a corner: each count passes 2^64, so each run
    widens its limbs once (the reference is too slow for more here: the
    slow test below goes past 2^1024)."""
    total = knight.count_total(3, 39).tours
    assert total >= 2**64 and total == 2 * paths_by_python(3, 39)
    corner = knight.count_tours(3, 41, start=(0, 0), method="dp").tours
    assert corner >= 2**64 and corner == paths_by_python(3, 41, end=(0, 0))


@pytest.mark.slow
def test_counts_past_2_to_the_1024_are_exact():
    """Issue 29: ``knight count 3 600 --total`` and ``--start 1,1`` ended in
    an OverflowError past 2^1024. The reference takes minutes here."""
    total = knight.count_total(3, 600).tours
    assert total >= 2**1024 and total == 2 * paths_by_python(3, 600)
    assert knight.count_tours(3, 600, start=(0, 0), method="dp").tours == paths_by_python(3, 600, end=(0, 0))


def _run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = cli.main(list(argv), out=out)
    return status, out.getvalue(), err.getvalue()


def test_the_command_line_prints_a_count_past_2_to_the_1024_whole():
    status, out, _ = _run("count", "3", "600", "--total", "--json")
    assert status == 0
    printed = json.loads(out)["tours"]
    assert printed == knight.count_total(3, 600).tours and printed > 2**1024


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "3", "100000", "--total"],
        ["count", "3", "100000", "--method", "dp", "--start", "1,1"],
        # closed: not 4 x n, which Schwenk's theorem answers 0 first, nor 6 x n,
        # whose pattern bitmaps the memory check refuses first
        ["count", "5", "6000", "--total", "--closed"],
    ],
)
def test_a_board_past_the_widest_counts_is_refused_before_the_work(argv, monkeypatch):
    def no_work(*_args, **_kwargs):
        raise AssertionError("the dp ran")

    monkeypatch.setattr(run_loop, "count_hamiltonian", no_work)
    monkeypatch.setattr(run_loop.degree_relaxation, "live_patterns", no_work)
    status, out, err = _run(*argv)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and f"past the dp's {memory_model.MAX_COUNT_BITS}-bit counts" in err


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 9), (2, 7), (3, 3), (3, 4), (5, 7), (8, 8)])
def test_the_edge_bound_counts_the_knights_graphs_edges(rows, cols):
    degrees = sum(
        1
        for r, c in itertools.product(range(rows), range(cols))
        for dr, dc in _MOVES
        if 0 <= r + dr < rows and 0 <= c + dc < cols
    )
    assert memory_model.knight_edges(rows, cols) == degrees // 2


def test_the_widest_board_let_through_fits_the_limbs():
    # the longest 3 x n let through: its bound 2^E fits MAX_LIMBS limbs
    longest = max(n for n in range(3, 20000) if memory_model.knight_edges(3, n) < memory_model.MAX_COUNT_BITS)
    assert memory_model.knight_edges(3, longest) < 64 * run_loop.MAX_LIMBS
    with pytest.raises(knight.InvalidArgument):
        memory_model.check_count_width(3, longest + 1)


def test_a_heatmap_of_counts_past_floats_draws():
    grid = [[2**1500, 0, 2**1100], [7, 2**1400, 1]]
    svg = "".join(drawing.count_parts(grid))
    assert str(2**1500) in svg and "2^" not in svg
