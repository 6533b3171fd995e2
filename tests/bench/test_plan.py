"""Sweep plans: what runs a sweep expands to, and the checks made before any work."""

import pytest

from bench.__main__ import parse_sizes
from bench.sweep import plan, presets
from knight.errors import InvalidArgument


def _sweep(**part):
    settings = {"title": "t", "shapes": ((5, 5),), "methods": ("warnsdorff",)}
    settings.update(part)
    return plan.Sweep((plan.Part(**settings),))


def test_sizes_take_singles_ranges_and_steps():
    assert parse_sizes("5-8") == [5, 6, 7, 8]
    assert parse_sizes("5, 7,9") == [5, 7, 9]
    assert parse_sizes("10-40:10,5") == [5, 10, 20, 30, 40]


@pytest.mark.parametrize("text", ["8-5", "0-3", "x", "5-", "5-8:0"])
def test_bad_sizes_are_refused(text):
    with pytest.raises(InvalidArgument):
        parse_sizes(text)


@pytest.mark.parametrize(
    "starts, expected",
    [
        ("all", 25),
        ("symmetry", 6),
        ("corners", 4),
        ("1,1 3,3 1,1", 2),
    ],
)
def test_start_kinds(starts, expected):
    assert len(plan.runs(_sweep(starts=starts))) == expected


def test_symmetry_starts_stand_for_their_whole_class():
    runs = plan.runs(_sweep(starts="symmetry", shapes=((4, 5), (6, 6))))
    for rows, cols in ((4, 5), (6, 6)):
        assert sum(run.represents for run in runs if (run.rows, run.cols) == (rows, cols)) == rows * cols


def test_corners_of_a_thin_board_are_not_repeated():
    assert plan.corners(1, 5) == [(0, 0), (0, 4)]
    assert plan.corners(1, 1) == [(0, 0)]


def test_backtrack_has_no_tie_rule_and_keys_are_unique():
    sweep = plan.Sweep(
        (
            plan.Part("a", ((5, 5),), ("backtrack", "greedy"), "corners", (False, True), 10, ("first", "roth")),
            plan.Part("b", ((5, 5),), ("greedy",), "1,1", budget=99),
        )
    )
    runs = plan.runs(sweep)
    assert len(runs) == 4 * 2 * (1 + 2)
    assert len({run.key for run in runs}) == len(runs)
    assert {run.tiebreak for run in runs if run.method == "backtrack"} == {""}
    # the first part to plan a run decides its budget
    assert {run.budget for run in runs} == {10}


def test_a_sweep_round_trips_through_json():
    sweep = presets.default()
    assert plan.Sweep.from_json(sweep.to_json()) == sweep


@pytest.mark.parametrize(
    "part, message",
    [
        ({"methods": ("dfs",)}, "unknown method"),
        ({"methods": ()}, "no methods"),
        ({"shapes": ()}, "no board"),
        ({"budget": 0}, "budget must be in 1..9223372036854775807"),
        ({"starts": "6,6"}, "start row must be in 1..5"),
        ({"starts": "middle"}, "start must be R,C"),
        ({"tiebreaks": ("last",)}, "unknown tiebreak"),
        ({"shapes": ((40_000, 40_000),)}, "GiB"),
    ],
)
def test_check_refuses_bad_parts(part, message):
    with pytest.raises(InvalidArgument, match=message):
        plan.check(_sweep(**part))


def test_check_refuses_zero_repeats():
    with pytest.raises(InvalidArgument, match="repeats"):
        plan.check(plan.Sweep(_sweep().parts, repeats=0))


@pytest.mark.parametrize("preset", sorted(presets.PRESETS))
def test_presets_are_valid(preset):
    assert plan.check(presets.PRESETS[preset]())
