"""This module chooses the order in which the frontier DP inserts the squares, and makes the plan of each step.

The plan (``Schedule``) holds the squares in insertion order and, for each
step, the slot arrays that the step kernel reads. A square leaves the
frontier after its last neighbour is inserted. The order decides how wide
the frontier grows, and so the DP's work and memory."""

from dataclasses import dataclass

import numpy as np

from knight.geometry.neighbours import neighbour_table


@dataclass(frozen=True)
class Schedule:
    """The DP's plan for one board: squares in insertion order and, for
    each step, the slot arrays the kernel reads."""

    rows: int
    cols: int
    order: list
    old_sizes: list
    neighbour_slots: list
    kept_slots: list
    leaving_slots: list
    stays: list
    frontiers: list  # the squares on the frontier after each step
    leave_step: dict
    # per step, for the old slots then the inserted square: how many of
    # its neighbours are still to come after the step, and its colour (+1
    # or -1); and twice the colour balance of the squares still to come
    futures: list
    colours: list
    future_balance: list
    # per step, the reflection of the rows on the frontier after it, as
    # ``mirror_map`` gives it: None where the squares inserted by then are
    # not closed under the reflection
    mirrors: list

    def symmetric(self, forced):
        """Whether a run with ``forced`` as its forced end (None: none)
        counts the same from a state as from its mirror image: with no
        forced end, or one that the reflection keeps in place."""
        return forced is None or mirror_square(self.rows, self.cols, forced) == forced

    def forced_place(self, step, forced):
        """The forced start's place in ``step``: ``(its slot on the frontier
        before, -1 if it is not there; whether it is the square inserted)``."""
        if forced is None:
            return -1, False
        before = self.frontiers[step - 1] if step else []
        return (before.index(forced) if forced in before else -1), self.order[step] == forced

    @property
    def widest(self):
        return max(len(f) for f in self.frontiers) if self.frontiers else 0


# The order of the cells within each column, per short side: the one that
# made the DP's work least, found by search (journal: "The DP's cell
# orders"; every order, up
# to mirror image, for short sides 3 to 6, by successors emitted on 3 x 30,
# 4 x 14, 5 x 10 and 6 x 6 open; short side 7 by a hill-climb of swaps on
# the live patterns' count, which ranks the 6 x 6 orders like the work
# does: Spearman 0.96). Against top-to-bottom, successors emitted: 3 x 30
# -45%, 4 x 14 -10%, 5 x 10 -52%, 6 x 6 -27%, 6 x 6 closed -23%; live
# patterns on 7 x 7 -27%. Short side 8 (one thread, load 5-9
# on the 2 shared cores): all 20,160 orders ranked by the frontier's
# slots summed over 8 x 8's steps (which ranks 6 x 8 closed's 360 orders
# like the live patterns do, Spearman 0.99; 0.87 on 30 of 7 x 8's).
# The mirror quotient then changed the orders for short sides 6 and 8. It
# halves the states only at a cut closed under the reflection of the rows,
# and the orders found above, 1 4 2 0 5 3 and 1 3 5 6 4 2 0 7, have few such
# cuts. The orders below take the rows in mirrored pairs, so every second
# cell of a column makes a closed cut. Among such orders they tie for the
# fewest frontier slots summed over the steps (the orders that tie differ
# only within a pair). With the quotient they hold fewer states at the peak
# and make fewer transitions than the old ones on 8 x 8 closed and on the
# 6-row strips longer than 6 x 6 (journal: "An order closed after every
# pair of rows").
WITHIN_COLUMN = {
    3: (1, 0, 2),
    4: (1, 2, 0, 3),
    5: (1, 3, 2, 0, 4),
    6: (1, 4, 2, 3, 0, 5),
    7: (1, 5, 3, 4, 2, 0, 6),
    8: (1, 6, 3, 4, 2, 5, 0, 7),
}
# names the orders above in checkpoints: a table made in another order
# cannot be resumed (the date moves when an order changes)
ORDER_NAME = "columns-across-short-side/within-2026-12-07"
# added to ORDER_NAME when a run keeps one state for each mirror pair: its
# tables hold only the canonical member, so they cannot resume a run
# without the quotient, nor the other way round
QUOTIENT_NAME = "/mirror-quotient"


def mirror_square(rows, cols, square):
    """``square`` reflected across the short side: a row ``r`` goes to
    ``rows - 1 - r`` on a board swept column by column, and a column ``c``
    to ``cols - 1 - c`` on a tall board, which is swept row by row."""
    row, col = divmod(square, cols)
    if rows <= cols:
        return (rows - 1 - row) * cols + col
    return row * cols + (cols - 1 - col)


# the slots of a frontier that a mirror map can hold: a nibble each
MIRROR_SLOTS = 16


def mirror_map(rows, cols, frontier):
    """The reflection of ``frontier``, a frontier whose squares inserted are
    closed under it, as ``states.canonical_key`` reads it: ``(nibbles,
    size, stay, up, down)``. Slot ``i``'s image is in nibble ``i`` of
    ``nibbles``, and ``size`` is the frontier's slots. The three masks
    move a word of slots at once where every slot's image is itself or a
    neighbour (the outside-in orders pair a column's rows slot by slot):
    ``stay`` holds the slots that are their own image, ``up`` those whose
    image is the next slot, and ``down`` the images of those whose image
    is the slot before. The masks are all 0 where some image lies further
    away. None when the frontier has more slots than a word's nibbles."""
    if len(frontier) > MIRROR_SLOTS:
        return None
    slot_of = {square: slot for slot, square in enumerate(frontier)}
    images = [slot_of[mirror_square(rows, cols, square)] for square in frontier]
    nibbles = sum(image << (4 * slot) for slot, image in enumerate(images))
    shifts = (0, 1, -1)  # the images of the masks stay, up and down
    masks = [0, 0, 0]
    if all(image - slot in shifts for slot, image in enumerate(images)):
        for slot, image in enumerate(images):
            masks[shifts.index(image - slot)] |= 15 << (4 * min(slot, image))
    return (np.uint64(nibbles), len(frontier), *(np.uint64(mask) for mask in masks))


def column_order(rows, cols, within=None):
    """Column by column across the short side: a knight moves one or two
    columns, so a square leaves the frontier about two columns after it
    came, and the frontier spans about 2 x short side + 1 squares.
    ``within(c)``: the order of the short side's cells in column ``c``
    (default ``WITHIN_COLUMN``, top to bottom where it has no entry)."""
    short, long = min(rows, cols), max(rows, cols)
    if within is None:
        cells = WITHIN_COLUMN.get(short, range(short))
        within = lambda c: cells  # noqa: E731
    if rows <= cols:
        return [r * cols + c for c in range(long) for r in within(c)]
    return [r * cols + c for r in range(long) for c in within(r)]


def schedule(rows, cols, order=None):
    """The step arrays for inserting the squares in ``order`` (default
    ``column_order``)."""
    if order is None:
        order = column_order(rows, cols)
    table = neighbour_table(rows, cols)
    position = {square: step for step, square in enumerate(order)}
    neighbours = {square: [int(n) for n in table[square] if n >= 0] for square in order}
    leave_step = {square: max([position[square]] + [position[n] for n in neighbours[square]]) for square in order}
    frontier = []
    old_sizes, neighbour_slots, kept_slots, leaving_slots, stays, frontiers = [], [], [], [], [], []
    futures, colours, future_balance, mirrors = [], [], [], []
    unmatched = 0
    colour = {square: 1 if (square // cols + square % cols) % 2 else -1 for square in order}
    balance = 2 * sum(colour.values())
    for step, square in enumerate(order):
        balance -= 2 * colour[square]
        future_balance.append(balance)
        touched = [*frontier, square]
        futures.append(np.array([sum(position[n] > step for n in neighbours[s]) for s in touched], dtype=np.intp))
        colours.append(np.array([colour[s] for s in touched], dtype=np.intp))
        slot_of = {s: i for i, s in enumerate(frontier)}
        old_sizes.append(len(frontier))
        earlier = [slot_of[n] for n in neighbours[square] if position[n] < step]
        neighbour_slots.append(np.array(sorted(earlier), dtype=np.intp))
        kept = [i for i, s in enumerate(frontier) if leave_step[s] != step]
        leaving_slots.append(np.array([i for i, s in enumerate(frontier) if leave_step[s] == step], dtype=np.intp))
        kept_slots.append(np.array(kept, dtype=np.intp))
        stays.append(leave_step[square] > step)
        frontier = [frontier[i] for i in kept] + ([square] if stays[-1] else [])
        frontiers.append(list(frontier))
        # the inserted squares whose image is not yet inserted: none at a cut closed under the reflection
        image = mirror_square(rows, cols, square)
        unmatched += 0 if image == square else (-1 if position[image] < step else 1)
        closed_cut = unmatched == 0 and step < len(order) - 1
        mirrors.append(mirror_map(rows, cols, frontier) if closed_cut else None)
    return Schedule(
        rows,
        cols,
        order,
        old_sizes,
        neighbour_slots,
        kept_slots,
        leaving_slots,
        stays,
        frontiers,
        leave_step,
        futures,
        colours,
        future_balance,
        mirrors,
    )


def widest_frontier(rows, cols):
    """The most squares on the frontier at once. It is reached within the
    first few columns, so a board cut to 8 columns of its long side (or
    short side + 3, on a wider board) has the same, and its schedule costs
    nothing on a very long board."""
    short = min(rows, cols)
    # never cut the long side below the short one: the cut board would
    # then be swept across its other side
    long = min(max(rows, cols), max(8, short + 3))
    return schedule(short, long).widest
