"""`make bench-check`'s logic without measuring: the base it picks, the
verdict of a row from both figures, the table, and the self-test's reading
of its plants."""

import pytest

from bench.guard import base_check, instructions
from bench.timing import distinct_sides, paired
from bench.timing.named_search import Outcome
from bench.timing.revisions import git
from knight import InvalidArgument

LIMIT = base_check.INSTRUCTION_THRESHOLD


def _row(instr=None, time=None, **fields):
    return base_check.Row(
        "w",
        "t",
        instructions=(None, None) if instr is None else (1000, round(1000 * (1 + instr))),
        time_ratios=() if time is None else (paired.Ratios((1 + time,)),),
        **fields,
    )


@pytest.mark.parametrize(
    ("instr", "time", "verdict"),
    [
        (0.0, 0.0, paired.OK),
        (LIMIT - 0.005, 0.2, paired.OK),
        (LIMIT + 0.005, 0.0, paired.SLOWER),
        (0.0, 0.3, paired.SLOWER),
        (-0.05, 0.0, paired.FASTER),
        (-0.05, 0.3, paired.SLOWER),
        (None, 0.3, paired.SLOWER),
        (None, 0.1, paired.OK),
    ],
)
def test_either_figure_past_its_limit_is_slower(instr, time, verdict):
    assert _row(instr, time).verdict() == verdict


def test_a_workload_head_cannot_run_fails_and_one_base_cannot_is_left_out():
    assert _row(broken="TypeError").verdict() == base_check.BROKEN
    assert _row(missing="no method dp").verdict() == base_check.LEFT_OUT


def test_the_default_base_is_the_last_commit_that_changed_the_baseline():
    """A shallow clone (CI's test job checks out one commit) is refused;
    tests/bench/test_distinct_sides.py covers every case on a history of its own."""
    if distinct_sides.is_shallow():
        with pytest.raises(InvalidArgument, match="shallow clone"):
            base_check.default_base()
        return
    expected = git("log", "-1", "--format=%H", "--", "results/baseline").stdout.strip()
    if distinct_sides.same_as_working_tree(expected):
        pytest.skip("this tree is the commit that recorded the baseline, held to the one below it")
    assert base_check.default_base() == expected


def test_every_workload_has_its_twin_of_the_same_kernel():
    for timed, twin in base_check.PAIRS:
        assert (timed.method, timed.tiebreak, timed.closed) == (twin.method, twin.tiebreak, twin.closed)
    with pytest.raises(InvalidArgument, match="no workload's name contains 'zzz'"):
        base_check.pairs("zzz")
    assert [pair[0].method for pair in base_check.pairs("dp")] == ["dp"]


def _outcomes(cpu_seconds, nodes=1000):
    return [Outcome("found", nodes, seconds, seconds) for seconds in cpu_seconds]


def _counted(*medians):
    return instructions.Counted(Outcome("found", 10, 0.1, 0.1), medians)


def test_rows_join_the_time_and_the_count_and_the_table_shows_both():
    (pair,) = base_check.pairs("dp")
    timed, twin = pair
    samples = ({"base": {timed.key: _outcomes([1.0, 1.0, 1.0])}, "head": {timed.key: _outcomes([1.5, 1.4, 1.6])}},)
    counted = {"base": {twin.key: _counted(100, 100, 100)}, "head": {twin.key: _counted(101, 101, 101)}}
    (row,) = base_check.rows([pair], samples, counted, {})
    assert row.time_change == pytest.approx(0.5) and row.instruction_change == pytest.approx(0.01)
    assert row.verdict() == paired.SLOWER
    text = base_check.table([row])
    assert timed.key in text and twin.key in text and "+50.0%" in text and "+1.00%" in text
    assert "SLOWER" in base_check.markdown([row], "title")


def test_the_self_test_reads_each_plant_against_this_tree_unplanted():
    timed, twin = base_check.PAIRS[0]
    samples = (
        {
            "base": {timed.key: _outcomes([2.0] * 3)},
            "head": {timed.key: _outcomes([1.0] * 3)},
            "planted": {timed.key: _outcomes([1.3] * 3)},
        },
    )
    counted = {
        "base": {twin.key: _counted(2000)},
        "head": {twin.key: _counted(1000), instructions.planted(twin.key): _counted(1030)},
    }
    lines, caught = base_check.self_test([base_check.PAIRS[0]], samples, counted, {})
    assert caught and len(lines) == 2 and all("caught" in line for line in lines)
    counted["head"][instructions.planted(twin.key)] = _counted(1010)
    lines, caught = base_check.self_test([base_check.PAIRS[0]], samples, counted, {})
    assert not caught and "MISSED" in lines[0]


def test_a_bad_option_is_one_line_before_any_work(capsys):
    assert base_check.main(["--rounds", "0"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert base_check.main(["--base", "no-such-rev", "--workload", "dp"]) == 2
    assert "unknown revision 'no-such-rev'" in capsys.readouterr().err


def test_a_plant_outside_the_chosen_workloads_says_it_was_not_run():
    (pair,) = base_check.pairs("dp open")
    lines, caught = base_check.self_test([pair], ({"base": {}, "head": {}, "planted": {}},), {"head": {}}, {})
    assert caught and len(lines) == 2 and all("not run" in line for line in lines)


def test_the_time_change_is_the_mean_of_the_sets_of_processes(monkeypatch):
    """One set of processes read +40% on the same code; the others did not."""
    (pair,) = base_check.pairs("dp open 5x6")
    sets = iter(({"base": 1.0, "head": 1.4, "planted": 1.4}, {"base": 1.0, "head": 1.0, "planted": 1.0}))
    asked = []

    def interleaved(trees, pythons, searches, rounds, plants):
        asked.append((sorted(trees), [search.key for search in searches], rounds, plants))
        cpu = next(sets, {"base": 1.0, "head": 0.9, "planted": 0.9})
        return {side: {s.key: _outcomes([cpu[side]] * rounds) for s in searches} for side in trees}, {}

    monkeypatch.setattr(base_check, "interleaved", interleaved)
    timed, untimed = base_check._time_sides("base-tree", [pair[0]], 3, "python", sets=3)
    assert len(asked) == len(timed) == 3 and untimed == {}
    assert asked[0] == (
        ["base", "head", "planted"],
        [pair[0].key],
        3,
        {"planted": {"key": base_check.TIME_PLANT, "fraction": base_check.PLANTED_TIME}},
    )
    (row,) = base_check.rows([pair], timed, None, {})
    assert [ratios.median for ratios in row.time_ratios] == pytest.approx([1.4, 1.0, 0.9])
    assert row.time_change == pytest.approx(0.1) and row.verdict() == paired.OK
    assert row.milliseconds == (pytest.approx(1e3), pytest.approx(1e3))


def test_a_workload_over_the_time_limit_is_timed_again_and_decided_on_all_sets(monkeypatch):
    """Over the limit in the first sets (+40%, a noisy run), not in the sets
    timed again: decided on all six, OK; a workload over in all six stays
    SLOWER; one under the limit is not timed again."""
    noisy, slower, calm = (pair for pair in base_check.PAIRS[1:4])
    head_cpu = {noisy[0].key: [1.4] * 3 + [1.0] * 3, slower[0].key: [1.4] * 6, calm[0].key: [1.1] * 3}
    asked = []

    def interleaved(trees, pythons, searches, rounds, plants):
        asked.append([search.key for search in searches])
        made = len(asked) - 1
        head = {s.key: _outcomes([head_cpu[s.key][made]] * rounds) for s in searches}
        return {"base": {s.key: _outcomes([1.0] * rounds) for s in searches}, "head": head, "planted": head}, {}

    monkeypatch.setattr(base_check, "interleaved", interleaved)
    searches = [pair[0] for pair in (noisy, slower, calm)]
    timed, untimed = base_check._time_sides("base-tree", searches, 3, "python")
    asked.clear()
    for key in head_cpu:  # the re-timed sets read from index 3 on
        head_cpu[key] = head_cpu[key][3:]
    timed_for, retimed = base_check.retime_over_limit("base-tree", [noisy, slower, calm], timed, untimed, 3, "python")
    assert retimed == sorted([noisy[0].key, slower[0].key]) and len(asked) == base_check.PROCESS_PAIRS
    assert all(keys == [noisy[0].key, slower[0].key] for keys in asked)
    made = base_check.decided_rows([noisy, slower, calm], timed_for, None, untimed)
    assert [len(row.time_ratios) for row in made] == [6, 6, 3]
    assert [row.verdict() for row in made] == [paired.OK, paired.SLOWER, paired.OK]
    assert made[0].time_change == pytest.approx(0.2)
