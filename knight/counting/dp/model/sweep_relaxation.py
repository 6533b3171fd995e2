"""This module makes the degree relaxation for a sweep of every width.

The sweep is one run over a board whose table, at the end of each column,
still holds the states that finish the board cut there (``prefix_plan``).
The module gives the live patterns that keep them (``sweep_live_patterns``).

The DP inserts the squares column by column across the short side, so
after the first ``k`` columns it has inserted exactly the board of ``k``
columns. Its states there are those of the narrower board but for the
squares that still have a neighbour in a later column: they are still on
the frontier, with their values. Making every frontier square leave at
the last square of column ``k`` (``prefix_plan``: the last step of a
``k``-column board, in the frontier of the whole one) counts the
Hamiltonian paths or cycles of the ``k``-column board, with the rules of
a last step; the kernel is the step kernel, unchanged.

What must change is the relaxation: the whole board's live patterns drop
a state that cannot complete the whole board, and a state that finishes
the board cut at column ``k`` usually cannot (the columns after it would
have to be covered by cycles of their own). The sweep keeps a pattern
that is live for the whole board or finishes some narrower one: the
backward pass ORs in, before the last square of each column, the patterns
that the prefix's last step completes. The forward pass's colour test
reads the balance of the squares still to come, which differs between
the whole board and a prefix by the columns cut off: zero on an even
short side, and one of two values on an odd one, where the forward pass
is run once for each (its reach ORed) so that no prefix's state is lost.
The live sets stay exact as a relaxation: a pattern kept has a completion
of its degrees on some prefix or on the whole board.
"""

import dataclasses

import numpy as np

from knight.counting.dp.model import degree_relaxation


def column_ends(plan):
    """``{step: width}``: the last step of each column but the board's last,
    and the columns (of the short side's cells) inserted by then."""
    short = min(plan.rows, plan.cols)
    return {width * short - 1: width for width in range(1, max(plan.rows, plan.cols))}


def prefix_plan(plan, width):
    """``plan`` (a ``cell_order.Schedule``) cut after its first ``width``
    columns: its steps up to the last square of column ``width``, where
    every square on the frontier leaves and the step is the last. Its
    counts are those of the ``width``-column board (the frontier before
    that step is the whole board's: the squares with a neighbour in a later
    column stay on it until they leave here)."""
    short = min(plan.rows, plan.cols)
    last = width * short - 1
    cut = slice(0, last + 1)
    rows, cols = (plan.rows, width) if plan.rows <= plan.cols else (width, plan.cols)

    def ending(field, value):
        return [*field[:last], value]

    return dataclasses.replace(
        plan,
        rows=rows,
        cols=cols,
        order=plan.order[cut],
        old_sizes=plan.old_sizes[cut],
        neighbour_slots=plan.neighbour_slots[cut],
        kept_slots=ending(plan.kept_slots, np.zeros(0, dtype=np.intp)),
        leaving_slots=ending(plan.leaving_slots, np.arange(plan.old_sizes[last], dtype=np.intp)),
        stays=ending(plan.stays, False),
        frontiers=ending(plan.frontiers, []),
        leave_step={square: min(plan.leave_step[square], last) for square in plan.order[cut]},
        futures=plan.futures[cut],
        colours=plan.colours[cut],
        future_balance=plan.future_balance[cut],
        mirrors=ending(plan.mirrors, None),
    )


def _balance_offsets(plan):
    """Twice the colour balance of the columns cut off, for every prefix and
    the whole board (0): the forward pass's colour test is run with each."""
    return sorted({0, *(plan.future_balance[step] for step in column_ends(plan))})


def sweep_live_patterns(plan, closed, prefixes, threads=1):
    """``degree_relaxation.live_patterns`` for a sweep (no forced end): for
    each step of ``plan`` but the last, the bitmap of the patterns after it
    that can still complete the whole board or, before the last square of a
    column, the board cut there. ``prefixes``: ``{step: prefix_plan}`` of
    the columns' last steps."""
    tour_ends = 0 if closed else 2
    reach = None
    for offset in _balance_offsets(plan):
        shifted = dataclasses.replace(plan, future_balance=[balance - offset for balance in plan.future_balance])
        found = degree_relaxation.forward_reach(shifted, closed, None, threads)
        reach = found if reach is None else [mine | theirs for mine, theirs in zip(reach, found, strict=True)]
    start = degree_relaxation.start_bits(tour_ends)
    finished = degree_relaxation.empty_bits(0, tour_ends)
    for step in range(len(plan.order) - 1, -1, -1):
        before = reach[step - 1] if step else start
        completes = before.copy() if step in prefixes else None
        degree_relaxation.pattern_pass(plan, step, before, reach[step], closed, None, threads, backward=True)
        if completes is not None:
            # the prefix's last step: a pattern with a completing choice
            degree_relaxation.pattern_pass(
                prefixes[step], step, completes, finished, closed, None, threads, backward=True
            )
            before |= completes
    return reach
