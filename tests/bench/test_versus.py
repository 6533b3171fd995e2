"""The toolchain comparison: one tiny round of every side found here,
checked end to end; a missing toolchain is a one-line reason; a run folder
of the first format still reads."""

import pytest

from bench.baselines import c as c_baseline
from bench.baselines import call_clock, cython_build, prepared, pypy_runner, python_bound
from bench.studies.versus import versus_report, versus_study
from bench.timing.named_search import Search

TINY = (
    Search("backtrack", 5, 5, (0, 0), closed=False, budget=10**6),
    Search("count", 3, 4, (0, 0), closed=False, budget=10**6),
    Search("warnsdorff", 5, 5, (0, 1), closed=False, budget=20_000),
    Search("warnsdorff", 9, 9, (0, 0), closed=True, budget=20_000, tiebreak="roth"),
    Search("greedy", 30, 30, (0, 0), closed=False, budget=10**6, tiebreak="roth"),
)


@pytest.fixture(scope="module")
def measured():
    return versus_study.measure(rounds=1, workloads=TINY)


def test_every_side_searches_the_same_tree(measured):
    assert len(measured["workloads"]) == len(TINY)
    found = set(measured["versions"]) | {"python"}
    # every side is either measured or left out with its reason
    assert found | set(measured["missing"]) == set(versus_study.SIDES)
    for row in measured["workloads"]:
        sides = row["sides"]
        assert set(sides) == found
        for name in found & set(versus_study.COMPILED):
            assert (sides[name]["nodes"], sides[name]["status"]) == (sides["numba"]["nodes"], sides["numba"]["status"])
        # plain Python stops at its own budget, on the same search
        for name in found & set(versus_study.INTERPRETED):
            assert sides[name]["nodes"] == min(sides["numba"]["nodes"], versus_study.PYTHON_BUDGET)
        assert versus_report.ratio(row, "numba", "python")[0] > 0
        assert row["headline"] == (max(row["call_share"].values()) < versus_study.HEADLINE_SHARE)


def test_a_side_on_another_tree_is_refused():
    sides = {"numba": {"nodes": 41, "status": "found"}, "clang": {"nodes": 40, "status": "found"}}
    with pytest.raises(AssertionError, match="clang placed 40 nodes"):
        versus_study.check_same_tree("backtrack 5x5", sides)


def test_the_section_splits_headline_from_short_searches(measured, tmp_path, assert_png):
    figure = versus_report.draw(measured, tmp_path / versus_study.STUDY.figure_file)
    assert_png(figure)
    text = "\n".join(versus_report.section(measured, figure))
    headline, short = text.split("### Call overhead")
    for row in measured["workloads"]:
        line = "| {} | {} | {} |".format(*versus_report._where(row))
        assert (line in headline) == row["headline"] and (line in short) != row["headline"]
    assert "Numba / CPython" in headline and "| greedy |" in short


def test_missing_toolchains_are_one_line_reasons(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("PYPY", "")
    opened, missing = versus_study.toolchains(("clang", "pypy"))
    assert opened == {}
    assert "clang not on PATH" in missing["clang"] and "pypy3 not on PATH" in missing["pypy"]
    assert all("\n" not in why for why in missing.values())


def test_a_first_format_file_still_reads(tmp_path, assert_png):
    side = {"status": "found", "nodes": 41, "nodes_per_s": 2e6, "min_s": 1e-5, "median_s": 2e-5}
    old = {
        "rounds": 1,
        "python_budget": 50_000,
        "missing": {},
        "workloads": [
            {
                "key": "k",
                "group": "backtrack 5x5",
                "closed": False,
                "start": [1, 1],
                "budget": 10,
                "sides": {"numba": side, "c": {**side, "nodes_per_s": 1e6}, "python": {**side, "nodes_per_s": 1e4}},
            }
        ],
    }
    assert_png(versus_report.draw(old, tmp_path / "6-versus.png"))
    text = "\n".join(versus_report.section(old, tmp_path / "6-versus.png"))
    assert "| backtrack | 5x5 open | 1,1 | 41 |" in text and "| 2.00 |" in text and "Call overhead" not in text


def test_cpython_and_pypy_answer_alike():
    """The PyPy worker runs the same reference, bound and timed the same way."""
    try:
        worker = pypy_runner.PyPyWorker()
    except pypy_runner.PyPyMissing as missing:
        pytest.skip(str(missing))
    with worker:
        for search in TINY:
            call, _ = python_bound.bind(
                search.method,
                search.rows,
                search.cols,
                search.start,
                search.closed,
                search.budget,
                search.tiebreak,
                500,
            )
            answer = worker.ask(search, 500)
            assert (answer["status"], answer["nodes"]) == call_clock.timed(call).answer
            assert len(worker.ask(search, 500, empty_calls=3)["seconds"]) == 3


@pytest.mark.parametrize("rows, cols", [(1, 1), (3, 4), (5, 5), (6, 6), (9, 9)])
@pytest.mark.parametrize("closed", [False, True])
def test_cython_and_both_compilers_place_numba_s_nodes_and_paths(rows, cols, closed):
    """Beyond the study's node check: every kernel kind, its path too."""
    opened, _ = versus_study.toolchains(("numba", "gcc", "clang", "cython"))
    if len(opened) < 2:
        pytest.skip("no second compiled toolchain here")
    searches = [
        Search(method, rows, cols, (0, 0), closed, budget=30_000, tiebreak=tiebreak)
        for method in ("backtrack", "count", "warnsdorff", "greedy")
        for tiebreak in ("first", "roth")
    ]
    for search in searches:
        ready = prepared.prepare(search)
        answers = set()
        for side in opened.values():
            call, empty = side.bind(ready)
            answers.add((prepared.answer_words(ready, call()), ready.path.tobytes()))
            empty()
        assert len(answers) == 1, search.key


def test_the_cython_build_is_cached(tmp_path, monkeypatch):
    try:
        built = cython_build.build()
    except cython_build.CythonMissing as missing:
        pytest.skip(str(missing))
    assert built.exists() and cython_build.build() == built
    monkeypatch.setenv("KNIGHT_CACHE", str(tmp_path))
    assert c_baseline.cache_dir() == tmp_path
