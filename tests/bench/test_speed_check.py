"""The speed guard's own logic, without timing anything: the verdicts, the
interleaving, the planted slowdown switch and the frozen reference.
(Whether the check catches a real 2x slowdown is timed, so it runs as
`python -m bench.guard.speed_check --self-test`, outside make bench-check.)"""

import hashlib
import os

import pytest

from bench import repo_paths
from bench.guard import speed_check
from bench.guard.references import REFERENCES, KernelsReference
from bench.guard.workloads import WORKLOADS
from bench.timing import paired
from bench.timing.named_search import Outcome, Search

# the sha256 of bench/references/reference_kernels.py as frozen; it must never change
FROZEN_SHA256 = "b50fb96d1e9f629fe8331c0dfd331032a3302c90a26aa4d18fe662a2230a0cc5"
# and of bench/references/reference_frontier.py, the frozen DP
FROZEN_DP_SHA256 = "88631cfcad1ee37733f9131329ca30f1f5c57ef27530e86cd30233a610aadaf6"


def _row(ratio, baseline):
    return speed_check.Row("frozen", "some search", 1e6, paired.Ratios((ratio,)), baseline)


@pytest.mark.parametrize(
    ("ratio", "verdict"),
    [(1.0, paired.OK), (0.8, paired.OK), (0.74, paired.SLOWER), (0.5, paired.SLOWER), (1.3, paired.FASTER)],
)
def test_verdict_compares_the_ratio_with_its_baseline(ratio, verdict):
    assert _row(ratio, 1.0).verdict(0.25) == verdict
    assert _row(2 * ratio, 2.0).verdict(0.25) == verdict


def test_a_change_is_read_against_the_threshold():
    changes = (-0.26, -0.2, 0.0, 0.3)
    assert [paired.verdict(change, 0.25) for change in changes] == [paired.SLOWER, paired.OK, paired.OK, paired.FASTER]


def test_a_ratio_without_baseline_is_reported_as_such():
    assert _row(1.0, None).verdict(0.25) == speed_check.NO_BASELINE


class _CountedSearch:
    key = "counted"

    def __init__(self):
        self.calls = 0

    def run(self):
        self.calls += 1
        return Outcome("found", 100, 0.5, 0.25)


def test_the_planted_switch_times_each_search_twice_over(monkeypatch):
    monkeypatch.delenv(speed_check.PLANT, raising=False)
    search = _CountedSearch()
    plain = speed_check.run_knight(search)
    assert (plain.seconds, plain.cpu_seconds, search.calls) == (0.5, 0.25, 1)
    with speed_check.planted(2):
        planted = speed_check.run_knight(search)
    assert (planted.nodes, planted.seconds, planted.cpu_seconds, search.calls) == (100, 1.0, 0.5, 3)
    assert speed_check.PLANT not in os.environ


def _recording_side(name, calls):
    def run(search):
        calls.append((name, search.key))
        return Outcome("found", 1, 1.0, 1.0)

    return run


def test_measure_warms_up_then_alternates_the_order():
    calls = []
    sides = {name: _recording_side(name, calls) for name in "AB"}
    searches = [_CountedSearch(), _CountedSearch()]
    searches[1].key = "other"
    samples = paired.measure(sides, searches, rounds=2)
    assert calls[:4] == [("A", "counted"), ("B", "counted"), ("A", "other"), ("B", "other")]
    assert [name for name, _ in calls[4:]] == ["A", "B", "B", "A", "B", "A", "A", "B"]
    assert len(samples["A"]["counted"]) == 2


def test_throughput_ratios_pair_rounds():
    # CPU time decides; the wall times (9.0) are another process's business
    fast = [Outcome("found", 100, 9.0, 1.0), Outcome("found", 100, 9.0, 2.0)]
    slow = [Outcome("found", 100, 9.0, 2.0), Outcome("found", 100, 9.0, 2.0)]
    assert paired.throughput_ratios(fast, slow).samples == (2.0, 1.0)


def test_the_reference_kernels_are_never_edited():
    text = (repo_paths.ROOT / "bench" / "references" / "reference_kernels.py").read_bytes()
    assert hashlib.sha256(text).hexdigest() == FROZEN_SHA256


def test_the_frozen_reference_does_the_recorded_work():
    # fixed forever, like the frozen kernels: 'work' is its node counts
    expected = {
        "backtrack closed 8x8 @0,0 budget=5000000": ("budget", 5000000),
        "count open 3x10 @0,0 budget=1000000000000": ("complete", 3031101),
        "warnsdorff-first open 5x5 @2,1 budget=100000000": ("none", 1028893),
        "warnsdorff-roth closed 6x6 @0,0 budget=1000000": ("budget", 1000000),
        "warnsdorff-first open 300x300 @0,0 budget=1000000": ("budget", 1000000),
        "greedy-roth open 1500x1500 @0,0 budget=100000000": ("found", 2250000),
    }
    reference = next(reference for reference in REFERENCES if reference.name == "frozen")
    done = {search.key: reference.run(search) for search in WORKLOADS if search.key in expected}
    assert {key: (outcome.status, outcome.nodes) for key, outcome in done.items()} == expected
    assert reference.run(Search("count", 3, 4, (0, 0), False, 10**6)).tours == 2


def test_the_frozen_dp_is_never_edited():
    text = (repo_paths.ROOT / "bench" / "references" / "reference_frontier.py").read_bytes()
    assert hashlib.sha256(text).hexdigest() == FROZEN_DP_SHA256


def test_the_frozen_dp_does_the_recorded_work_and_counts_as_knight_does():
    # its transitions are fixed forever (knight's fall as its DP drops more
    # dead states); the counts never change
    from bench.references import reference_frontier

    found, work = reference_frontier.run(reference_frontier.schedule(5, 6), False, 0)
    assert (found, work.transitions, work.states_peak) == (4542, 572622, 73261)
    reference = next(reference for reference in REFERENCES if reference.name == "frozen-dp")
    assert reference.available() == (True, "")
    workload = Search("dp", 5, 6, (0, 0), closed=False, budget=0)
    assert workload in WORKLOADS and [r.name for r in REFERENCES if r.supports(workload)] == ["frozen-dp"]
    closed = Search("dp", 6, 5, (0, 0), True, 0)
    assert reference.run(closed).tours == 16  # 5x6 has 8 closed tours, each both ways
    for search in (closed, Search("dp", 3, 4, (0, 0), True, 0), Search("dp", 4, 6, (1, 2), False, 0)):
        ours, theirs = search.run(), reference.run(search)
        # the work of a DP search is its count: equal on both sides
        assert ours.tours == ours.nodes == theirs.tours == theirs.nodes


def test_every_dp_workload_counts_some_tours():
    # its work is its count: no tours would be no throughput
    from knight.geometry.theory import start_possible

    for search in WORKLOADS:
        if search.method == "dp":
            assert start_possible(search.rows, search.cols, search.start, search.closed)[0], search.key


def test_a_partial_record_keeps_the_other_ratios_of_workloads_that_exist(tmp_path):
    path = tmp_path / "ratios.json"
    first, second = WORKLOADS[0].key, WORKLOADS[1].key
    old = {"frozen": {first: 1.5, second: 2.0, "a workload gone": 9.0}, "c": {first: 0.9}}
    row = speed_check.Row("frozen", second, 1e6, paired.Ratios((2.5,)), 2.0)
    speed_check.save_ratios([row], rounds=3, path=path, keep=old)
    assert speed_check.load_ratios(path) == {"frozen": {first: 1.5, second: 2.5}, "c": {first: 0.9}}
    speed_check.save_ratios([row], rounds=3, path=path)
    assert speed_check.load_ratios(path) == {"frozen": {second: 2.5}}


def test_a_reference_that_cannot_load_says_why():
    def missing():
        raise RuntimeError("no C compiler")

    assert KernelsReference("c", missing).available() == (False, "RuntimeError: no C compiler")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rounds", "0"], "rounds must be in 1..1000"),
        (["--rounds", "9" * 30], "rounds must be in 1..1000"),
        (["--threshold", "nan"], "threshold must be a fraction"),
        (["--threshold", "-0.5"], "threshold must be a fraction"),
        (["--workload", "no such thing"], "no workload's name contains 'no such thing'; the names: backtrack"),
    ],
)
def test_bad_options_are_one_line_before_any_timing(argv, message, capsys):
    assert speed_check.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("bench: error: ") and err.count("\n") == 1 and message in err
