"""This module counts every width of a board in one DP run (``knight count R N --total --every-width``).

The run covers the whole board, with its relaxation made for the sweep.
Before the last square of each column, ``WidthSweep`` harvests from the
table the tours of the board cut there. It is the hook that
``run_loop.count_hamiltonian`` calls. ``model.sweep_relaxation`` says why
the sweep is exact."""

from knight.counting.dp.model import degree_relaxation, sweep_relaxation
from knight.counting.dp.runs import worker_threads
from knight.counting.dp.runs.run_loop import widened_limbs, wider_counts
from knight.counting.dp.steps import hash_step
from knight.counting.dp.steps.hash_kernels import frontier_step
from knight.counting.dp.steps.step_arguments import step_arguments
from knight.counting.dp.steps.step_made import from_limbs
from knight.counting.dp.tables import packed_table

# a harvest makes no state: its kernel's table is the least one
_HARVEST_TABLE_BITS = 4
# the states a harvest decodes at once from a table on disk (and steps, in
# memory): a few tens of MiB, whatever the table's size
_HARVEST_CHUNK = 1 << 20


class WidthSweep:
    """What one run over ``plan`` (a ``cell_order.Schedule``, open or
    ``closed``, no forced end) needs to count every narrower board too:
    ``live_patterns``, the relaxation that keeps their states, and
    ``before_step``, which harvests their tours. ``found[width]``: the
    undirected paths (cycles) of the board of ``width`` columns, for each
    width but the whole board's, once the run has passed it."""

    def __init__(self, plan, closed, max_limbs):
        self.plan = plan
        self.closed = bool(closed)
        self.max_limbs = max_limbs
        ends = sweep_relaxation.column_ends(plan)
        self.widths = ends
        self.prefixes = {step: sweep_relaxation.prefix_plan(plan, width) for step, width in ends.items()}
        self.finished = degree_relaxation.empty_bits(0, 0 if closed else 2)
        self.found = {}

    def live_patterns(self, plan, closed, forced, threads):
        """``degree_relaxation.live_patterns``' place in the run."""
        if forced is not None:
            raise ValueError("a sweep of every width counts every start: it has no forced end")
        return sweep_relaxation.sweep_live_patterns(plan, closed, self.prefixes, threads)

    def before_step(self, step, keys, counts, before):
        """Before ``step`` runs on ``keys``/``counts`` (their patterns set in
        ``before``): at the last square of a column, the tours of the board
        of that many columns, as its last step would complete them."""
        if step not in self.prefixes:
            return
        limbs = counts.shape[1]
        while True:
            found, overflow = self._harvest_table(step, keys, counts, before, limbs)
            if not overflow:
                break
            # the sum passed the limbs: counted again in twice as many
            limbs = widened_limbs(limbs, self.max_limbs, self.plan, step)
        self.found[self.widths[step]] = found

    def _harvest_table(self, step, keys, counts, before, limbs):
        """``(tours, overflow)`` of the harvest at ``step``, the table read a
        chunk at a time (a packed table on disk is never decoded whole), its
        counts in ``limbs`` limbs."""
        reader = packed_table.Reader(keys, counts)
        arguments, found, overflow = None, 0, 0
        while not reader.done():
            chunk_keys, chunk_counts = reader.take(_HARVEST_CHUNK)
            if chunk_counts.shape[1] < limbs:
                chunk_counts = wider_counts(chunk_counts, limbs)
            if arguments is None:
                prefix = self.prefixes[step]
                arguments = step_arguments(
                    prefix, step, chunk_keys, chunk_counts, self.closed, None, before, self.finished
                )
            else:
                arguments = arguments.with_table(chunk_keys, chunk_counts)
            made, carried = _harvest(arguments)
            found, overflow = found + made, max(overflow, carried)
        return found, overflow


def _harvest(arguments):
    """``(tours, overflow)``: the tours the last step of ``arguments`` (a
    prefix's) completes, its table cut into a slice a thread."""
    keys = arguments.keys
    threads = hash_step.step_threads() if keys.shape[0] >= hash_step.PARALLEL_STATES else 1
    bounds = [keys.shape[0] * part // threads for part in range(threads + 1)]

    def one(part):
        cut = slice(bounds[part], bounds[part + 1])
        made = frontier_step(*arguments.with_table(keys[cut], arguments.counts[cut]), _HARVEST_TABLE_BITS, 0, 1)
        if made.keys.shape[0] or made.strays:
            raise AssertionError("a harvest made states, or met a pattern the relaxation calls dead")
        return from_limbs(made.completed), int(made.overflow)

    parts = worker_threads.map_all(one, range(threads), threads=threads)
    return sum(found for found, _ in parts), max(overflow for _, overflow in parts)
