"""Numba against C and plain Python: one tiny round, checked end to end."""

from bench.commits.named_search import Search
from bench.studies import versus

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

    figure = versus.draw(measured, tmp_path / versus.STUDY.figure_file)
    assert figure.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    text = "\n".join(versus.section(measured, figure))
    assert "Numba / C" in text and "| count | 3x4 open | 1,1 |" in text
