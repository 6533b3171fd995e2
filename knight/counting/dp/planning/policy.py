"""This module says how a run of the frontier DP takes its steps (``StepPolicy``).

The policy names the step engine, the states from which the partitioned step
is taken, the least room a step gets, and the memory budget. The engine
passes a policy to the run loop, and a study that compares the engines
passes its own. Nothing else in the DP holds these settings, and its modules
keep no globals for them."""

from dataclasses import dataclass

from knight.errors import InvalidArgument

# how a step merges its successors: "partitioned" (steps.partitioned_step:
# sequential buffers reduced in cache-sized tables), "hash"
# (steps.hash_step: one hash table per thread, the step before it), or
# "auto": partitioned for a step expected to make at least
# ``partitioned_states`` states, hash below. Both stay callable so that one
# run can compare them: where the tables fit in a core's L2 the hash step
# was faster, past them the partitioned one (journal: "The DP's step
# engines"). Past memory, steps go to disk either way
TABLES = ("auto", "partitioned", "hash")


@dataclass(frozen=True)
class StepPolicy:
    """Say how a run of the frontier DP takes its steps and how much memory it may use.

    Parameters
    ----------
    table : {"auto", "partitioned", "hash"}, default "auto"
        The step engine. ``"auto"`` takes the partitioned step for a step
        expected to make at least ``partitioned_states`` states, and the
        hash step below that.
    partitioned_states : int, default 50_000
        The states a step is expected to make from which ``"auto"`` takes
        the partitioned step. A step may run out of core only from there.
    min_room : int, default 32 MiB
        The bytes a step is given however little of the memory budget is
        left, since the tables of its chunks need some room. The budget is
        then exceeded by up to this much.
    memory : int, optional
        The bytes of anonymous memory (``RssAnon``) the run may hold. None
        means ``memory_model.FREE_SHARE`` of the memory available at each
        step. Steps past the budget run out of core.
    disk : int, optional
        The bytes of disk that a step out of core may hold, its input and its
        runs together. None means the free space of the spill file system.
        A step that nears either budget merges its runs early.
    quotient : bool, default True
        Whether a run whose count is symmetric under the reflection of the
        rows keeps one state for each pair of mirror images. The counts are
        the same either way; False is for tests and measurements.

    Raises
    ------
    InvalidArgument
        If ``table`` is not one of ``TABLES``.

    Examples
    --------
    >>> from knight.harness_api import StepPolicy
    >>> StepPolicy(table="hash").partitioned_states
    50000
    >>> StepPolicy(table="heap")
    Traceback (most recent call last):
    ...
    knight.errors.InvalidArgument: table must be one of auto, partitioned, hash, got 'heap'
    """

    table: str = "auto"
    partitioned_states: int = 50_000
    min_room: int = 32 << 20
    memory: int | None = None
    disk: int | None = None
    quotient: bool = True

    def __post_init__(self):
        if self.table not in TABLES:
            raise InvalidArgument(f"table must be one of {', '.join(TABLES)}, got {self.table!r}")
