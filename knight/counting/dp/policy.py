"""How a run of the frontier DP takes its steps (``StepPolicy``): which
step engine, from how many states the partitioned one, the least room a
step gets, and the memory budget. The engine passes one to the run loop;
a study that compares the engines passes its own. Nothing else in the DP
holds these settings: its modules keep no globals for them."""

from dataclasses import dataclass

from knight.errors import InvalidArgument

# how a step merges its successors: "partitioned" (steps.partitioned_step:
# sequential buffers reduced in cache-sized tables), "hash"
# (steps.hash_step: one hash table per thread, the step before it), or
# "auto": partitioned for a step expected to make at least
# ``partitioned_states`` states, hash below. Both stay callable so that one
# run can compare them: where the tables fit in a core's L2 the hash step
# was faster, past them the partitioned one (journal: "The DP's step
# engines"). Past
# memory, steps go to disk either way
TABLES = ("auto", "partitioned", "hash")


@dataclass(frozen=True)
class StepPolicy:
    """``table``: one of ``TABLES``. ``partitioned_states``: the states a
    step is expected to make from which ``auto`` takes the partitioned step
    and a step may run out of core (50,000: 1.6 MB of tables at one limb,
    past a core's L2; from there the partitioned step was as fast or
    faster on every board measured; journal: "The partitioned step from
    50,000 states"). ``min_room``: the room in bytes a step is
    given however little is left of the budget (its chunks' tables need
    some; the budget is then passed by this much). ``memory``: the bytes of
    anonymous memory (``RssAnon``) the run may hold, None for
    ``memory_model.FREE_SHARE`` of what is available at each step; steps
    past it run out of core. ``disk``: the bytes of disk a step out of
    core may hold (its input and its runs), None for the spill
    filesystem's free space alone; a step nearing either merges its runs
    early (``steps.out_of_core_step``)."""

    table: str = "auto"
    partitioned_states: int = 50_000
    min_room: int = 32 << 20
    memory: int | None = None
    disk: int | None = None

    def __post_init__(self):
        if self.table not in TABLES:
            raise InvalidArgument(f"table must be one of {', '.join(TABLES)}, got {self.table!r}")
