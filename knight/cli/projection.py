"""This module prints what a long count will take, in one line on stderr before the count starts.

The DFS's projection comes from Knuth's estimate and the DP's from its
projected peak. ``knight.counting.driver`` reads both from the count's
``Job``."""

import sys

from knight.cli.printing import duration

# boards of more squares than 6x6 take minutes to days to count: say how
# long before starting
PROJECT_COUNTS_ABOVE = 36
_PROJECTION_PROBES = 2_000
# the DP's projection is printed for runs projected to hold this many
# states at their peak (7 x 7 open: 30 million), not for boards that take
# seconds (6 x 8 open: 4.9 million; 7 x 8 closed, 7.2)
PROJECT_DP_STATES_FROM = 20_000_000


def print_projections(job):
    """The projection of a count (``job``: a ``driver.prepare``'d ``Job``)
    where it is long: the DFS's past ``PROJECT_COUNTS_ABOVE`` squares, the
    DP's in one process past ``PROJECT_DP_STATES_FROM`` states; none where
    the theorems answer it."""
    if job.ruled_out:
        return
    if job.method == "dfs" and job.rows * job.cols > PROJECT_COUNTS_ABOVE:
        _print_dfs_projection(job)
    if job.method == "dp" and job.scheduler is None:
        _print_dp_projection(job)


def _print_dfs_projection(job):
    from knight.counting import driver

    guess = driver.estimate(job, probes=_PROJECTION_PROBES)
    nodes = guess.pruned_nodes if job.pruned else guess.plain_nodes
    seconds = nodes / (guess.rate * guess.workers)
    print(
        f"knight: about {nodes:.2g} nodes, roughly {duration(seconds)} on {guess.workers} cores "
        f"(Knuth's estimate from {_PROJECTION_PROBES} probes per start; it can be far off on large boards)",
        file=sys.stderr,
    )


def _print_dp_projection(job):
    """Its peak states and how they were projected, the memory, disk out
    of core, transitions and time on this machine's cores."""
    from knight.counting import driver
    from knight.runtime import machine

    guess = driver.dp_projection(job)
    if guess.states < PROJECT_DP_STATES_FROM:
        return
    room = driver.memory_room(job.memory)
    where = (
        "in memory"
        if guess.memory_bytes <= room
        else f"past the {_gib(room)} it may use: out of core, {guess.disk_span()} of disk"
    )
    cores = machine.usable_cores()
    print(
        f"knight: about {guess.states:.2g} states at the dp's peak, projected from {guess.how}; "
        f"~{_gib(guess.memory_bytes)} of tables ({where}), about {guess.transitions:.2g} transitions, "
        f"roughly {duration(guess.core_seconds / cores)} on {cores} cores",
        file=sys.stderr,
    )


def _gib(size):
    return f"{size / 2**30:.1f} GiB"
