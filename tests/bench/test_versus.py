"""Numba against C and plain Python: one tiny round, checked end to end."""

from bench import corners, plots, report, versus
from bench.searches import Search

TINY = (
    Search("backtrack", 5, 5, (0, 0), closed=False, budget=10**6),
    Search("count", 3, 4, (0, 0), closed=False, budget=10**6),
    Search("warnsdorff", 5, 5, (0, 1), closed=False, budget=20_000),
    Search("warnsdorff", 9, 9, (0, 0), closed=True, budget=20_000, tiebreak="roth"),
    Search("greedy", 30, 30, (0, 0), closed=False, budget=10**6, tiebreak="roth"),
)


def test_every_side_searches_the_same_tree(tmp_path):
    measured = versus.measure(rounds=1, workloads=TINY)
    assert len(measured["workloads"]) == len(TINY)
    for row in measured["workloads"]:
        sides = row["sides"]
        assert {"numba", "python"} <= set(sides)
        # plain Python stops at its own budget, on the same search
        expected = min(sides["numba"]["nodes"], versus.PYTHON_BUDGET)
        assert sides["python"]["nodes"] == expected
        if "c" in sides:
            assert sides["c"]["nodes"] == sides["numba"]["nodes"]
            assert sides["c"]["status"] == sides["numba"]["status"]
        assert versus.ratio(row, "numba", "python") > 0

    figure = plots.versus(measured, tmp_path / plots.VERSUS_FIGURE)
    assert figure.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    text = "\n".join(report.versus_section(measured, figure))
    assert "Numba / C" in text and "| count | 3x4 open | 1,1 |" in text


def test_corner_study_records_every_board_and_draws(tmp_path):
    measured = corners.measure(12)
    assert [board["n"] for board in measured["boards"]] == list(range(5, 13))
    for board in measured["boards"]:
        for name in corners.NAMES:
            status, nodes = board[name]
            # greedy places at most one node per square; the search at most its budget
            limit = measured["budget_factor"] if name.startswith("warnsdorff") else 1
            assert 1 <= nodes <= limit * board["n"] ** 2
            if name.startswith("greedy"):
                # a walk places one node per square it reaches: all of them iff found
                assert (status == "found") == (nodes == board["n"] ** 2)
    assert corners.failures(measured, "warnsdorff-roth") == []
    figure = plots.corners(measured, tmp_path / plots.CORNERS_FIGURE)
    assert figure.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    text = "\n".join(report.corners_section(measured, figure))
    assert "From the corner, n = 5..12" in text and "warnsdorff-roth | 8 of 8" in text


def test_only_preset_sweeps_plan_the_extras():
    from bench.__main__ import _extras, build_parser

    def planned(*argv):
        return _extras(build_parser().parse_args(list(argv)))

    assert planned("--quick") == {
        "versus_rounds": 1,
        "corners_largest": corners.LARGEST_QUICK,
        "overhead": "quick",
        "counts": "quick",
    }
    assert planned() == {
        "versus_rounds": 5,
        "corners_largest": corners.LARGEST,
        "overhead": "default",
        "counts": "default",
    }
    assert planned("--no-versus", "--no-corners", "--no-overhead", "--no-counts") == {
        "versus_rounds": None,
        "corners_largest": None,
        "overhead": None,
        "counts": None,
    }
    assert planned("--sizes", "5-6") is None
