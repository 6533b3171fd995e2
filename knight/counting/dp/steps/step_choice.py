"""This module chooses the step engine that takes a step.

The choice follows the run's ``StepPolicy`` and the room the step has. It is
the hash step, the partitioned step in memory, or the partitioned step out
of core. Every engine takes ``StepArguments`` and returns a ``StepMade``."""

from knight.counting.dp.planning import memory_model
from knight.counting.dp.steps import hash_step, out_of_core_step, partitioned_step
from knight.counting.dp.tables import packed_table

# the engines' names, as ``run_step`` reports the one that took a step
HASH, PARTITIONED, OUT_OF_CORE = "hash", "partitioned", "out-of-core"


def out_of_core(expected, limbs, room, policy):
    """Whether a partitioned step of ``expected`` states must run out of core."""
    return expected >= policy.partitioned_states and memory_model.step_bytes(expected, limbs) > room


def run_step(arguments, expected, spill, policy, room, high=None, arrays=None):
    """One step by ``policy.table`` in at most ``room`` bytes: the
    partitioned step in memory, or out of core when the tables of ``high``
    states (a high guess of those it makes; default ``expected``) would
    take more; the hash step's disk shards when the hash step's tables
    would not fit. Returns ``(made, engine)``: the engine's answer and its
    name (``HASH``, ``PARTITIONED``, ``OUT_OF_CORE``). A packed input
    (``packed_table``) is decoded whole for a step in memory, so its dense
    arrays count in the room that step takes: a step judged by its tables
    alone once held several times its room. ``arrays``: the run's ``StepArrays``, which
    a partitioned step in memory writes in; let go before a step out of
    core, whose room they are."""
    high = expected if high is None else high
    table = policy.table
    if table == "auto":
        table = PARTITIONED if expected >= policy.partitioned_states else HASH
    limbs = arguments.counts.shape[1]
    packed = isinstance(arguments.keys, packed_table.PackedTable)
    decoded = memory_model.dense_bytes(arguments.keys.shape[0], limbs) if packed else 0
    if memory_model.step_bytes(high, limbs) + decoded > room and table != HASH:
        if arrays is not None:
            arrays.release()
        made = out_of_core_step.step_out_of_core(arguments, high, threads(arguments), room, spill(), policy.disk)
        return made, OUT_OF_CORE
    source = arguments.keys
    arguments = arguments.with_table(*packed_table.dense(arguments.keys, arguments.counts))
    if table == HASH:
        made = hash_step.step_in_parts(arguments, expected, spill, room)
    else:
        tables = partitioned_step.partition_tables(
            arguments, expected, threads(arguments), arrays=arrays, high=high, room=room
        )
        made = tables.dense().made()
    if packed and not made.overflow:
        source.remove()  # the step's input, decoded: its files are done with (but on an overflow, read again)
    return made, table


def threads(arguments):
    """The threads a step takes: one for a small table."""
    return hash_step.step_threads() if arguments.keys.shape[0] >= hash_step.PARALLEL_STATES else 1
