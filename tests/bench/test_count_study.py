"""The counting study's plan, caps, checks and rows, with a scripted worker
in place of the real one (tests/bench/test_count_worker.py runs that)."""

import pytest

from bench import count_study, presets
from bench.count_study import PAST_CAP, Engine, Series, Study
from bench.count_worker import DONE, STOPPED


def _grid(board, tours):
    """A per-start grid with ``tours`` in all, on the first square."""
    rows, cols = board
    return [[tours if (r, c) == (0, 0) else 0 for c in range(cols)] for r in range(rows)]


class ScriptedWorker:
    """Answers from a script: ``{(engine, board): seconds}`` finishes in
    that many seconds with ``tours(board)`` tours; STOPPED where absent.
    Records every request."""

    def __init__(self, script, tours=lambda board: board[0] * board[1]):
        self.script, self.tours, self.asked, self.warm_ups = script, tours, [], [0.5]

    def count(self, engine, rows, cols, seconds, budget=None):
        board = (rows, cols)
        self.asked.append((engine, board))
        if (engine, board) not in self.script:
            return {"status": STOPPED, "why": f"stopped at its time cap of {seconds:g} s"}
        took = self.script[engine, board]
        tours = self.tours(board)
        grid = None if engine == "dp-total" else _grid(board, tours)
        return {
            "status": DONE,
            "grid": grid,
            "tours": tours,
            "seconds": took,
            "cpu_seconds": took,
            "work": {"nodes": 10 * rows * cols},
        }


def _study(series, engines=("dfs-pruned", "dp"), seconds=1.0, longest=20):
    return Study(tuple(series), tuple(Engine(name, seconds, longest) for name in engines), repeats=3, repeat_below=0.1)


THREE = Series("3 x k", ((3, 4), (3, 5), (3, 6), (3, 7)))


def test_the_presets_plan_every_series_with_the_dfs_shorter_than_the_dp():
    study = presets.counting()
    assert [series.name for series in study.series] == ["n x n", "3 x k", "4 x k", "5 x k"]
    assert study.series[0].boards == ((4, 4), (5, 5), (6, 6), (7, 7))
    assert study.series[3].boards[0] == (5, 5)
    planned = {(name, board): engines for name, board, engines in count_study.plan(study)}
    assert planned["n x n", (7, 7)] == list(count_study.ENGINES)
    assert planned["3 x k", (3, 12)] == list(count_study.ENGINES)
    assert planned["3 x k", (3, 13)] == ["dp", "dp-total"]
    assert max(board[1] for (name, board) in planned if name == "4 x k") == 20
    caps = {engine.name: engine for engine in study.engines}
    assert caps["dfs-pruned"].budget and caps["dp"].budget is None
    quick = presets.counting(quick=True)
    assert len(count_study.plan(quick)) < len(count_study.plan(study))
    assert max(engine.seconds for engine in quick.engines) < min(engine.seconds for engine in study.engines)


def test_a_board_after_one_past_the_cap_is_never_run():
    # dp stops at 3x6; dfs-pruned finishes 3x5 after its 1 s cap
    script = {("dp", (3, 4)): 0.5, ("dp", (3, 5)): 0.5, ("dfs-pruned", (3, 4)): 0.5, ("dfs-pruned", (3, 5)): 1.5}
    worker = ScriptedWorker(script)
    measured = count_study.measure(_study([THREE]), worker)
    statuses = {(row["engine"], row["cols"]): row["status"] for row in measured["rows"]}
    assert statuses == {
        ("dfs-pruned", 4): DONE,
        ("dfs-pruned", 5): DONE,
        ("dfs-pruned", 6): PAST_CAP,
        ("dfs-pruned", 7): PAST_CAP,
        ("dp", 4): DONE,
        ("dp", 5): DONE,
        ("dp", 6): STOPPED,
        ("dp", 7): PAST_CAP,
    }
    assert ("dfs-pruned", (3, 6)) not in worker.asked and ("dp", (3, 7)) not in worker.asked
    skipped = next(row for row in measured["rows"] if row["engine"] == "dp" and row["cols"] == 7)
    assert skipped["why"] == "3x6 ran past the cap"
    assert measured["warm_up_seconds"] == [0.5]


def test_cheap_counts_are_repeated_and_their_medians_kept():
    worker = ScriptedWorker({("dp", (3, 4)): 0.01, ("dp", (3, 5)): 0.5})
    measured = count_study.measure(_study([Series("s", ((3, 4), (3, 5)))], engines=("dp",)), worker)
    assert worker.asked == [("dp", (3, 4))] * 3 + [("dp", (3, 5))]
    assert [row["repeats"] for row in measured["rows"]] == [3, 1]
    assert measured["rows"][0]["seconds"] == 0.01 and measured["rows"][1]["work"] == {"nodes": 150}


def test_a_board_in_two_series_is_counted_once():
    worker = ScriptedWorker({("dp", (4, 4)): 0.5, ("dp", (4, 5)): 0.5, ("dp", (5, 5)): 0.5})
    series = [Series("n x n", ((4, 4), (5, 5))), Series("4 x k", ((4, 4), (4, 5)))]
    measured = count_study.measure(_study(series, engines=("dp",)), worker)
    assert worker.asked.count(("dp", (4, 4))) == 1
    assert len(measured["rows"]) == 4


def test_engines_that_disagree_stop_the_study():
    worker = ScriptedWorker({("dfs-pruned", (3, 4)): 0.5, ("dp", (3, 4)): 0.5})
    real_count = worker.count

    def off_by_one(engine, *args):
        answer = real_count(engine, *args)
        if engine == "dp":
            answer["grid"][0][1] += 1
            answer["tours"] += 1
        return answer

    worker.count = off_by_one
    with pytest.raises(AssertionError, match="3x4: the engines' per-start grids differ"):
        count_study.measure(_study([Series("s", ((3, 4),))]), worker)


def test_a_total_that_differs_from_the_grids_stops_the_study():
    worker = ScriptedWorker({("dp", (3, 4)): 0.5, ("dp-total", (3, 4)): 0.5})
    real_count = worker.count

    def wrong_total(engine, *args):
        answer = real_count(engine, *args)
        if engine == "dp-total":
            answer["tours"] *= 2
        return answer

    worker.count = wrong_total
    with pytest.raises(AssertionError, match="tour counts differ"):
        count_study.measure(_study([Series("s", ((3, 4),))], engines=("dp", "dp-total")), worker)


def _measured(times):
    """counts.json for one series from ``{(engine, k): seconds or None}``
    (None: stopped at the cap)."""
    rows = []
    for (engine, k), seconds in times.items():
        row = {"series": "4 x k", "rows": 4, "cols": k, "engine": engine}
        if seconds is None:
            row.update(status=STOPPED, why="cap")
        else:
            row.update(
                status=DONE,
                tours=k,
                seconds=seconds,
                cpu_seconds=seconds,
                repeats=1,
                work={"nodes" if engine.startswith("dfs") else "transitions": 100 * k},
            )
        rows.append(row)
    caps = {name: {"seconds": 1.0, "budget": None, "longest": 20} for name in ("dfs-pruned", "dp")}
    return {
        "engines": caps,
        "repeats": 3,
        "repeat_below": 0.1,
        "series": ["4 x k"],
        "warm_up_seconds": [0.7],
        "wall_seconds": 9.0,
        "rows": sorted(rows, key=lambda row: row["cols"]),
    }


@pytest.mark.parametrize(
    ("times", "expected"),
    [
        # the DFS wins 4x5 and 4x6, the DP from 4x7 on, alone at 4x8
        (
            {
                ("dfs-pruned", 5): 0.1,
                ("dp", 5): 0.2,
                ("dfs-pruned", 6): 0.2,
                ("dp", 6): 0.3,
                ("dfs-pruned", 7): 0.5,
                ("dp", 7): 0.4,
                ("dfs-pruned", 8): None,
                ("dp", 8): 0.6,
            },
            ((4, 7), True),
        ),
        # a win of the DP's before the DFS's last win is no crossover
        (
            {
                ("dfs-pruned", 5): 0.3,
                ("dp", 5): 0.2,
                ("dfs-pruned", 6): 0.2,
                ("dp", 6): 0.3,
                ("dfs-pruned", 7): 0.5,
                ("dp", 7): 0.4,
            },
            ((4, 7), True),
        ),
        ({("dfs-pruned", 5): 0.3, ("dp", 5): 0.2, ("dfs-pruned", 6): 0.4, ("dp", 6): 0.3}, ((4, 5), False)),
        ({("dfs-pruned", 5): 0.1, ("dp", 5): 0.2, ("dfs-pruned", 6): 0.2, ("dp", 6): None}, None),
        ({("dfs-pruned", 5): None, ("dp", 5): None}, None),
    ],
)
def test_the_crossover_is_where_the_dp_wins_every_board_from_then_on(times, expected):
    assert count_study.crossover(_measured(times), "4 x k") == expected


def test_past_cap_reads_the_engines_own_cap():
    engine = Engine("dp", 1.0, 20)
    assert not count_study.past_cap({"status": DONE, "seconds": 0.9}, engine)
    assert count_study.past_cap({"status": DONE, "seconds": 1.1}, engine)
    assert count_study.past_cap({"status": STOPPED}, engine)


def test_run_into_keeps_what_a_resumed_run_measured(tmp_path, monkeypatch):
    (tmp_path / count_study.COUNTS).write_text("{}")

    def no_measure(*args, **kwargs):
        raise AssertionError("a resumed run must not count again")

    monkeypatch.setattr(count_study, "measure", no_measure)
    assert count_study.run_into(tmp_path, presets.counting(quick=True)).read_text() == "{}"
