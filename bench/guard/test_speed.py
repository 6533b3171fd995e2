"""This module is the pytest-benchmark suite of ``make bench-suite``, which ``make test`` never runs.

For every workload of bench/guard/workloads.py, one benchmark of knight and one of
each reference of bench/guard/references.py, grouped by method and board so that
each group reads as knight beside its references, measured in one run. Each
is warmed up explicitly (compilation is never timed), then timed for ROUNDS
rounds after WARMUP_ROUNDS untimed ones. ``extra_info`` holds the exact
node count and three throughputs: over the benchmark's median time (the
whole call, set-up included), over the median of the kernel's own wall time,
and over the median CPU time of the call (what bench-check compares).
"""

import statistics

import pytest

from bench.guard.references import REFERENCES
from bench.guard.workloads import WORKLOADS
from bench.timing.named_search import Search

ROUNDS = 15
WARMUP_ROUNDS = 2


def _cases():
    """(side, its run function, search): knight, then each reference that supports it."""
    for search in WORKLOADS:
        yield "knight", Search.run, search
        for reference in REFERENCES:
            if reference.available()[0] and reference.supports(search):
                yield reference.name, reference.run, search


CASES = list(_cases())


@pytest.mark.parametrize(
    ("side", "run_side", "search"), CASES, ids=[f"{side}: {search.key}" for side, _, search in CASES]
)
def test_speed(benchmark, side, run_side, search):
    run_side(search)  # compiles, or loads numba's cache: never timed
    outcomes = []

    benchmark.group = search.group
    benchmark.pedantic(lambda: outcomes.append(run_side(search)), rounds=ROUNDS, warmup_rounds=WARMUP_ROUNDS)
    timed = outcomes[WARMUP_ROUNDS:]
    assert len({(outcome.status, outcome.nodes) for outcome in timed}) == 1, "a search's work must not vary"
    nodes = timed[0].nodes
    benchmark.extra_info.update(
        side=side,
        status=timed[0].status,
        nodes=nodes,
        nodes_per_second=nodes / benchmark.stats.stats.median,
        kernel_nodes_per_second=nodes / statistics.median(outcome.seconds for outcome in timed),
        nodes_per_cpu_second=nodes / statistics.median(outcome.cpu_seconds for outcome in timed),
    )
