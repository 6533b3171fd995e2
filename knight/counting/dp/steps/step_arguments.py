"""This module bundles what a step engine is given besides its table's sizing.

That is the step's arrays from the schedule, the forced end, and the options
that the degree relaxation lists. They form one named tuple of arrays and
ints (``StepArguments``) in the step kernels' own order, so that
``*arguments`` is their argument list."""

from typing import NamedTuple

import numpy as np

from knight.counting.dp.model import degree_relaxation, mirror_quotient
from knight.counting.dp.tables import table_kernels


class StepArguments(NamedTuple):
    """One step's input: the table (``keys``, ``counts``), the frontier's
    slots before the step (``old_size``) and after (``kept_slots``,
    ``leaving_slots``, ``inserted_stays``), the forced end's slot
    (``forced_slot``, -1: none; ``inserted_forced``), whether the step is
    the last (``final``), ``closed``, the relaxation's ``options`` (``(rank,
    before, patterns, starts, firsts, seconds, codes, dropped)``) and the
    hash ``salt`` of the step."""

    keys: np.ndarray
    counts: np.ndarray
    old_size: int
    kept_slots: np.ndarray
    leaving_slots: np.ndarray
    inserted_stays: bool
    forced_slot: int
    inserted_forced: bool
    final: bool
    closed: bool
    options: tuple
    mirror: tuple
    salt: np.uint64

    def with_table(self, keys, counts):
        """The same step on another table (a chunk, a partition)."""
        return self._replace(keys=keys, counts=counts)

    def step_fields(self):
        """The fields between the table and the salt, in the kernels' order."""
        return (
            self.old_size,
            self.kept_slots,
            self.leaving_slots,
            self.inserted_stays,
            self.forced_slot,
            self.inserted_forced,
            self.final,
            self.closed,
            self.options,
            self.mirror,
        )


# the mirror of a step that keeps every key as it is
NO_MIRROR = (np.uint64(0), 0, np.uint64(0), np.uint64(0), np.uint64(0))


def step_arguments(plan, step, keys, counts, closed, forced, before, after, quotient=False):
    """The ``StepArguments`` to step ``keys``/``counts`` at ``step`` of
    ``plan``: ``before`` and ``after`` are the bitmaps of the live patterns
    on either side of the step. With ``quotient``, a step that ends at a cut
    closed under the reflection keeps one key for each mirror pair (the
    run must be symmetric, and ``after`` closed under the reflection:
    ``mirror_quotient.mirror_closed``)."""
    forced_slot, inserted_forced = plan.forced_place(step, forced)
    final = step == len(plan.order) - 1
    options = degree_relaxation.option_lists(
        before,
        plan.old_sizes[step],
        len(plan.frontiers[step]),
        plan.neighbour_slots[step],
        plan.kept_slots[step],
        plan.leaving_slots[step],
        plan.stays[step],
        forced_slot,
        inserted_forced,
        0 if closed else 2,
        final,
        after,
    )
    rank, patterns, starts, firsts, seconds, codes, dropped = options
    mirror = plan.mirrors[step] if quotient and not final else None
    codes = mirror_quotient.part_codes(codes, mirror)
    return StepArguments(
        keys,
        counts,
        plan.old_sizes[step],
        plan.kept_slots[step],
        plan.leaving_slots[step],
        plan.stays[step],
        forced_slot,
        inserted_forced,
        final,
        bool(closed),
        (rank, before, patterns, starts, firsts, seconds, codes, dropped),
        NO_MIRROR if mirror is None else mirror,
        table_kernels.step_salt(step),
    )
