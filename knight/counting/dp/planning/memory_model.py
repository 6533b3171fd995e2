"""This module projects the frontier DP's peak memory and refuses a board it could not hold.

A board is refused before anything is allocated when the DP could hold it
neither in memory nor, sharded, on disk, or when its counts could pass the
widest counts the DP carries."""

import math
import shutil
import tempfile
from dataclasses import dataclass

from knight.counting.dp.model import degree_relaxation, states
from knight.counting.dp.model.cell_order import widest_frontier
from knight.counting.dp.planning import state_forecast
from knight.errors import InvalidArgument
from knight.files import owned_files
from knight.runtime import machine

MAX_SLOTS = states.MAX_SLOTS

# bytes per state at the peak: the dense table read (key and one-limb
# count: 16 bytes), the next step's hash tables at a load of 3/8..3/4
# (21..43 bytes) and the dense copy made from them (16 bytes). The 7 x 7
# open run peaked at 1.98 GB resident with 29.6 million states (67 bytes a
# state, the pattern bitmaps and the interpreter included; 4.19 GB and 60.9
# million before the tuned cell order): with margin
BYTES_PER_STATE = 80

# bytes a state of a packed table on disk (``packed_table``: sorted keys as
# gaps, counts in LEB128) at one limb: the bytes a state grow with the
# board (wider keys, larger counts). The figure is the goal set for 8 x 8
# open, above every step measured out of core (journal: "Packed tables on
# disk"). A count of more limbs takes up to 64/7 bytes more a limb
DISK_BYTES_PER_STATE = 8
_DISK_BYTES_PER_LIMB = 10
# the runs of a step out of core, in entries a state it makes: chunks of
# the input each reduce their own successors, so a state made from states
# of several chunks is in several runs; with many chunks a step (8 x 8
# open's, in a few GiB) they near the transitions a state made. The share
# covers what 8 x 8 open's peak steps held on disk under a 14 GiB budget,
# with a margin, where a smaller share fell short (journal: "8 x 8 open's
# second run")
RUN_ENTRIES_PER_STATE = 3.25
# where the disk runs short the step merges its runs early, each group's
# pieces into one, each time they have grown by this share since the last
# early merge (``steps.out_of_core_step``): then they hold at most this
# many entries a state made, at the cost of reading and writing them again
EARLY_RUN_ENTRIES = 1.25


def step_disk_bytes(states_in, states_out, limbs=1, early=False):
    """The most disk a step out of core holds at once: its input (kept
    until the step has made its next table: a checkpoint's links hold it
    anyway), and the runs, which give their disk to the next table group
    by group as they merge (``steps.out_of_core_step``); ``early``: with
    its runs merged early, the least disk it can run in."""
    per_state = DISK_BYTES_PER_STATE + _DISK_BYTES_PER_LIMB * (limbs - 1)
    entries = EARLY_RUN_ENTRIES if early else RUN_ENTRIES_PER_STATE
    return int(per_state * (states_in + entries * states_out))


# the widest counts the dp carries, in bits (1024 limbs of 64): every way
# it counts is a distinct set of the board's knight-move edges, so no count
# on a board of E edges passes 2^E, and a board of fewer than MAX_COUNT_BITS
# edges is always counted exactly (3 x n up to n = 10924). The work grows
# with the limbs: a longer board is refused before it starts, not hours on
MAX_COUNT_BITS = 1 << 16


def knight_edges(rows, cols):
    """The edges of the knight's graph of a ``rows`` x ``cols`` board: each
    of the moves (1, 2), (1, -2), (2, 1), (2, -1) from every square it fits."""
    return 2 * (max(rows - 1, 0) * max(cols - 2, 0) + max(rows - 2, 0) * max(cols - 1, 0))


def check_count_width(rows, cols):
    """Refuse a board whose counts could pass ``MAX_COUNT_BITS`` bits."""
    edges = knight_edges(rows, cols)
    if edges >= MAX_COUNT_BITS:
        raise InvalidArgument(
            f"board {rows}x{cols}: its counts may reach 2^{edges} (one for each set of its {edges} "
            f"knight-move edges), past the dp's {MAX_COUNT_BITS}-bit counts: it counts boards of fewer "
            f"than {MAX_COUNT_BITS} edges exactly"
        )


def projected_peak_states(rows, cols, closed=False):
    """The states one run with no forced end is projected to hold at its
    peak (``state_forecast``: from the measured runs' per-step states, with
    one state for each mirror pair)."""
    return projection(rows, cols, closed).states


def _quotient_shares(rows, cols, forced_runs):
    """``(peak, work)``: what the mirror quotient leaves of a run's peak
    states and work. Runs with a forced end are taken whole: only a start
    on the middle row keeps the quotient, and the projection stays on the
    safe side. A short side with no measured share is taken whole too."""
    if forced_runs:
        return 1.0, 1.0
    return state_forecast.quotient_shares().get(min(rows, cols), (1.0, 1.0))


# the time a run takes, projected from its states summed over its steps:
# transitions per state held after a step (a typical value of the measured
# boards past a million states; journal: "The projection's per-step
# states"), a run with a forced end making FORCED_SHARE of those (from the
# 7 x 7 grid's forced runs), and one core's time per transition on a quiet
# machine, between 7 x 7 open's in memory and 8 x 8 closed's out of core
# (journal: "The DP: totals, grids and the crossover")
TRANSITIONS_PER_STATE_STEP = 1.7
FORCED_SHARE = 0.4
CORE_SECONDS_PER_TRANSITION = 0.2e-6
# a board whose run was timed at its scale takes its own measured core
# seconds a state held after a step: 8 x 8 open's steps 28-43 out of core
# (68 million to 1.95 billion states, alone, its second run; less step 38, which
# held a resume's start-up, and 41, which a test shared) took about twice
# the figure above a state (more transitions a state than 8 x 8 closed's,
# and each through disk; journal: "8 x 8 open's second run")
MEASURED_CORE_SECONDS_PER_STATE_STEP = {(8, 8, False): 0.8e-6}


@dataclass(frozen=True)
class Projection:
    """What a run of the DP is projected to take: its peak states, the
    memory they take in memory and the disk they take out of core, and
    its work in transitions and core-seconds; ``how``: how the peak was
    projected (``state_forecast.Forecast.how``), ``measured``: whether
    from the board's own measured run; ``least_disk_bytes``: the disk
    out of core with the runs merged early, where the disk is short."""

    states: int
    memory_bytes: int
    disk_bytes: int
    transitions: int
    core_seconds: float
    how: str = ""
    measured: bool = False
    least_disk_bytes: int = 0

    def disk_span(self):
        """The disk out of core as the lines give it: the least (the runs
        merged early) to the most."""
        return f"~{self.least_disk_bytes / 2**30:.1f}-{_gib(self.disk_bytes)}"


def projection(rows, cols, closed=False, forced_runs=0):
    """The ``Projection`` of the DP on ``rows`` x ``cols``: one run with no
    forced end, which keeps one state for each mirror pair, or
    ``forced_runs`` runs each with one (a per-start grid of open tours: one
    per symmetry class)."""
    guess = state_forecast.forecast(rows, cols, closed)
    peak_share, work_share = _quotient_shares(rows, cols, forced_runs)
    states = math.ceil(guess.peak * peak_share)
    state_steps = guess.state_steps * work_share
    runs = FORCED_SHARE * forced_runs if forced_runs else 1
    transitions = int(runs * int(TRANSITIONS_PER_STATE_STEP * state_steps))
    own_rate = MEASURED_CORE_SECONDS_PER_STATE_STEP.get((*sorted((rows, cols)), bool(closed)))
    core_seconds = transitions * CORE_SECONDS_PER_TRANSITION
    if own_rate is not None:
        core_seconds = runs * state_steps * own_rate
    how = guess.how if peak_share == 1.0 else f"{guess.how}, with one state for each mirror pair"
    return Projection(
        states,
        states * BYTES_PER_STATE,
        step_disk_bytes(states, states),
        transitions,
        core_seconds,
        how,
        guess.measured,
        step_disk_bytes(states, states, early=True),
    )


def bitmap_bytes(rows, cols, closed, widest=None):
    """The bytes of the relaxation's pattern bitmaps, one a step, which stay
    in memory for the whole run (on every worker of a cluster too);
    ``widest``: the board's widest frontier, if known."""
    widest = widest_frontier(rows, cols) if widest is None else widest
    return rows * cols * degree_relaxation.empty_bits(widest, 0 if closed else 2).nbytes


def check_fits(rows, cols, available, closed=False, disk=None):
    """Refuse, before allocating, a board the DP cannot hold: a frontier
    wider than one key, pattern bitmaps past half of ``available``, counts
    that could pass its widest (``check_count_width``), or
    projected peak tables that fit neither ``available`` bytes of memory nor,
    out of core, ``disk`` bytes of the spill folder (None: its free space;
    never more than that)."""
    # formulas first: a board refused by them builds no schedule, which on a
    # board thousands of squares wide takes minutes and GiB
    check_count_width(rows, cols)
    short = min(rows, cols)
    if short > MAX_SLOTS:
        # a column of the short side, once inserted, waits whole on the
        # columns ahead: the frontier spans at least one (tests/knight/test_dp_checks.py)
        raise InvalidArgument(
            f"board {rows}x{cols}: the dp frontier spans at least {short} squares, "
            f"at most {MAX_SLOTS} fit its 64-bit states"
        )
    widest = widest_frontier(rows, cols)
    if widest > MAX_SLOTS:
        raise InvalidArgument(
            f"board {rows}x{cols}: the dp frontier spans {widest} squares, at most {MAX_SLOTS} fit its 64-bit states"
        )
    bitmaps = bitmap_bytes(rows, cols, closed, widest)
    if bitmaps > available / 2:
        raise InvalidArgument(
            f"board {rows}x{cols} needs about {bitmaps / 2**30:.1f} GiB for the dp's pattern bitmaps "
            f"({rows * cols} steps), more than half the {available / 2**30:.1f} GiB available"
        )
    guess = projection(rows, cols, closed)
    if guess.memory_bytes <= available:
        return
    # past memory, steps run out of core (out_of_core_step): the table read
    # and the chunks' runs, packed, on the spill folder's disk; merged early
    # where it runs short, the least disk the run can take
    room, where = disk_room(disk)
    if guess.least_disk_bytes > room:
        kind = "closed" if closed else "open"
        raise InvalidArgument(
            f"board {rows}x{cols} {kind}: the dp's peak is projected at ~{guess.states:.2g} states "
            f"({guess.how}): ~{_gib(guess.memory_bytes)} of tables, past the {_gib(available)} memory budget, "
            f"and {guess.disk_span()} of disk to run out of core, past the {_gib(room)} disk budget ({where})"
        )


def disk_room(disk=None):
    """``(bytes, where)``: the disk the DP's spill folder may take, the
    folder's free space within ``disk`` (a budget in bytes, ``--disk``;
    None: none of its own), and what bounds it, for a refusal to say."""
    free = spill_space()
    if disk is not None and disk <= free:
        return disk, "--disk"
    return free, f"free in {tempfile.gettempdir()}"


def _gib(size):
    return f"{size / 2**30:.1f} GiB"


def spill_space():
    """Free bytes where a sharded step writes its tables, once the spill
    folders of killed runs there are removed: the run would remove them as
    it starts, so a disk budget that counted them would refuse a run that
    fits (a SIGKILLed 8x8 open run left 31 GiB, and its resume was refused)."""
    owned_files.sweep_stale_spill_folders()
    return shutil.disk_usage(tempfile.gettempdir()).free


# --- the shares of memory the steps take, and their bytes a state ---------

# what a step may take of the memory available as it starts, with no
# budget given (``--memory``): the rest is the system's and the page
# cache's. A step whose tables would take more runs out of core
# (``steps.out_of_core_step``), its tables on disk
FREE_SHARE = 0.75


def memory_room(budget=None, held=0, least=0, share=1.0):
    """Return the bytes of memory that the DP may take now.

    This is the one function that turns a memory budget (``--memory``) and
    the machine's limits into a room. Every check of a fit, every step, and
    every buffer and table sized in a step takes its room from here.

    Parameters
    ----------
    budget : int, optional
        The run's budget in bytes; None for no budget of its own.
    held : int, default 0
        The bytes that the run already holds, which the budget pays for.
    least : int, default 0
        The least room given however little is left.
    share : float, default 1.0
        The share of the memory available that the room may take.

    Returns
    -------
    float
        What is left of ``budget`` after ``held``, never more than ``share``
        of what the machine has available, nor less than ``least``.
    """
    free = share * machine.available_memory()
    room = free if budget is None else min(budget - held, free)
    return max(room, least)


def unbudgeted_room():
    """Return the room of a step under no budget: ``FREE_SHARE`` of what is available.

    A step engine called without a room (a test, a study) sizes its buffers
    from this.
    """
    return memory_room(share=FREE_SHARE)


def step_room(policy):
    """Return the anonymous memory that a step may take now, under ``policy.memory``.

    With no budget, a step may take ``FREE_SHARE`` of what is available.
    With one, it may take what this process has not yet used of the budget.
    It never gets less than ``policy.min_room``.
    """
    held = 0 if policy.memory is None else machine.anonymous_memory()
    return memory_room(policy.memory, held, policy.min_room, FREE_SHARE)


# a partition's table is sized to at most this: it stays in the core's L2
# cache while its successors are merged into it
PARTITION_TABLE_BYTES = 1 << 20
# the partitioned step's emit buffers of a chunk hold successors for this
# share of the step's expected states, and take at most BUFFER_SHARE of the
# memory available. Each chunk after the first streams every table through
# the cache once more and back (sequential, but 2 x 32..64 bytes a state);
# chunks of one step's states hold memory like the dense table made and
# make one or two chunks a step; on a board whose tables fit the cache,
# smaller and larger chunks took the same time (journal: "The DP: totals,
# grids and the crossover")
CHUNK_SHARE = 1.0
BUFFER_SHARE = 0.125
# the hash step's tables of one step may take at most this share of the
# memory available when it starts; past that the step runs shard by shard,
# and the table it makes goes to disk
HASH_TABLE_SHARE = 0.5
# the out-of-core step merges and writes the next table this many
# partitions' rows at a time per thread, at most: a share of the room, the
# rest for the tables
MERGE_SHARE = 0.25
# anonymous bytes an in-memory partitioned step takes per expected state,
# in 64-bit words an entry (a key and its limbs): its hash tables at a
# load of 3/8..3/4 (up to 2.7 entries), the dense copy made from them (1)
# and the emit buffers (a chunk of one step's states: 1); the 7 x 7 open
# run's peak is within it (journal: "The DP: totals, grids and the
# crossover")
ENTRIES_PER_STATE = 5


def dense_bytes(states, limbs):
    """The bytes of a dense table of ``states`` states of ``limbs`` limbs:
    a key and its limbs, 64 bits each."""
    return int(states * 8 * (1 + limbs))


def step_bytes(expected, limbs):
    """Anonymous memory the in-memory partitioned step takes to make
    ``expected`` states of ``limbs`` limbs."""
    return dense_bytes(expected, limbs) * ENTRIES_PER_STATE
