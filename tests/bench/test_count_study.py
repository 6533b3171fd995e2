"""The counting study's plan, caps, checks and rows, with a scripted worker
in place of the real one (tests/bench/test_count_worker.py runs that); its
figure, its REPORT.md section and table, from counts.json alone."""

from pathlib import Path

import pytest

from bench.report import run_report
from bench.studies.counts import count_report, count_study, count_worker
from bench.studies.counts.count_report import PAST_CAP
from bench.studies.counts.count_study import CountPlan, Engine, Series
from bench.studies.counts.count_worker import DONE, STOPPED


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
        grid = None if engine == "dp-total" or engine in count_worker.CLUSTER_WORKERS else _grid(board, tours)
        return {
            "status": DONE,
            "grid": grid,
            "tours": tours,
            "seconds": took,
            "cpu_seconds": took,
            "work": {"nodes": 10 * rows * cols},
        }


def _study(series, engines=("dfs-pruned", "dp"), seconds=1.0, longest=20):
    return CountPlan(
        tuple(series), tuple(Engine(name, seconds, longest) for name in engines), repeats=3, repeat_below=0.1
    )


THREE = Series("3 x k", ((3, 4), (3, 5), (3, 6), (3, 7)))


def test_the_presets_plan_every_series_with_the_dfs_shorter_than_the_dp():
    study = count_study.preset()
    assert [series.name for series in study.series] == ["n x n", "3 x k", "4 x k", "5 x k"]
    assert study.series[0].boards == ((4, 4), (5, 5), (6, 6), (7, 7))
    assert study.series[3].boards[0] == (5, 5)
    planned = {(name, board): engines for name, board, engines in count_study.plan(study)}
    assert planned["n x n", (7, 7)] == list(count_worker.SINGLE_PROCESS_ENGINES)
    assert planned["3 x k", (3, 12)] == list(count_worker.SINGLE_PROCESS_ENGINES)
    # the cluster engines on two small boards only: a cluster run each
    assert planned["n x n", (6, 6)] == list(count_worker.ENGINES)
    assert {board for _, board, engines in count_study.plan(study) if "dp-2-workers" in engines} == {(5, 5), (6, 6)}
    assert planned["3 x k", (3, 13)] == ["dp", "dp-total"]
    assert max(board[1] for (name, board) in planned if name == "4 x k") == 20
    caps = {engine.name: engine for engine in study.engines}
    assert caps["dfs-pruned"].budget and caps["dp"].budget is None
    quick = count_study.preset(quick=True)
    assert len(count_study.plan(quick)) < len(count_study.plan(study))
    single = [engine for engine in quick.engines if engine.name in count_worker.SINGLE_PROCESS_ENGINES]
    assert max(engine.seconds for engine in single) < min(engine.seconds for engine in study.engines)
    assert all(engine.boards == ((4, 4),) for engine in quick.engines if engine not in single)


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
    assert count_report.crossover(_measured(times), "4 x k") == expected


def test_past_cap_reads_the_engines_own_cap():
    engine = Engine("dp", 1.0, 20)
    assert not count_study.past_cap({"status": DONE, "seconds": 0.9}, engine)
    assert count_study.past_cap({"status": DONE, "seconds": 1.1}, engine)
    assert count_study.past_cap({"status": STOPPED}, engine)


def test_the_study_run_keeps_what_a_resumed_run_measured(tmp_path, monkeypatch):
    (tmp_path / count_study.COUNTS).write_text("{}")

    def no_measure(*args, **kwargs):
        raise AssertionError("a resumed run must not count again")

    monkeypatch.setattr(count_study, "measure", no_measure)
    assert count_study.STUDY.run(tmp_path, "quick").read_text() == "{}"


def _counts_file(series_times):
    """counts.json from ``{series: {(engine, rows, cols): seconds, or None for stopped, or "past"}}``."""
    rows = []
    for series, times in series_times.items():
        for (engine, rows_, cols), seconds in times.items():
            row = {"series": series, "rows": rows_, "cols": cols, "engine": engine}
            if seconds is None:
                row.update(status="stopped at cap", why="cap")
            elif seconds == "past":
                row.update(status="past cap", why="earlier board")
            else:
                work = {"nodes" if engine.startswith("dfs") else "transitions": int(1e4 * seconds) + 1}
                row.update(
                    status="done", tours=rows_ * cols, seconds=seconds, cpu_seconds=seconds, repeats=1, work=work
                )
            rows.append(row)
    engines = {
        name: {"seconds": 1.0, "budget": 10**8 if name.startswith("dfs") else None, "longest": 12}
        for name in ("dfs-plain", "dfs-pruned", "dp", "dp-total")
    }
    return {
        "engines": engines,
        "repeats": 3,
        "repeat_below": 0.1,
        "series": list(series_times),
        "warm_up_seconds": [0.7],
        "wall_seconds": 12.0,
        "rows": rows,
    }


def test_the_counting_figure_draws_every_engine_and_series(tmp_path, assert_png):
    times = {
        "4 x k": {
            ("dfs-pruned", 4, 5): 0.01,
            ("dp", 4, 5): 0.02,
            ("dfs-pruned", 4, 6): 0.3,
            ("dp", 4, 6): 0.1,
            ("dfs-plain", 4, 5): 0.2,
            ("dfs-plain", 4, 6): None,
            ("dp-total", 4, 5): 0.005,
        },
        "n x n": {("dfs-pruned", 5, 5): 0.02, ("dp", 5, 5): 0.05, ("dp", 6, 6): None, ("dp", 7, 7): "past"},
    }
    assert_png(count_report.draw(_counts_file(times), tmp_path / count_study.STUDY.figure_file))
    nothing = _counts_file({"n x n": {("dp", 6, 6): None}})
    assert_png(count_report.draw(nothing, tmp_path / "empty.png"))


def _count_row(series, engine, board, seconds, work=1000, repeats=3):
    row = {"series": series, "rows": board[0], "cols": board[1], "engine": engine}
    if seconds in ("stopped at cap", "past cap"):
        return {**row, "status": seconds, "why": "cap"}
    return {
        **row,
        "status": "done",
        "tours": board[0] * board[1] * 2,
        "seconds": seconds,
        "cpu_seconds": seconds,
        "repeats": repeats,
        "work": {"nodes" if engine.startswith("dfs") else "transitions": work},
    }


def _counted():
    rows = [
        _count_row("4 x k", "dfs-pruned", (4, 8), 0.07),
        _count_row("4 x k", "dp", (4, 8), 0.18, repeats=1),
        _count_row("4 x k", "dfs-pruned", (4, 9), 0.56),
        _count_row("4 x k", "dp", (4, 9), 0.37, work=946_000),
        _count_row("4 x k", "dfs-pruned", (4, 10), "stopped at cap"),
        _count_row("4 x k", "dp", (4, 10), 0.52),
        _count_row("4 x k", "dfs-pruned", (4, 11), "past cap"),
        _count_row("4 x k", "dp", (4, 11), "stopped at cap"),
        _count_row("4 x k", "dfs-pruned", (4, 12), "past cap"),
        _count_row("4 x k", "dp", (4, 12), "past cap"),
        _count_row("n x n", "dfs-pruned", (5, 5), 0.016),
        _count_row("n x n", "dp", (5, 5), 0.06),
        _count_row("n x n", "dfs-pruned", (6, 6), 1.4),
        _count_row("n x n", "dp", (6, 6), "stopped at cap"),
    ]
    engines = {
        "dfs-pruned": {"seconds": 3.0, "budget": 10**8, "longest": 12},
        "dp": {"seconds": 1.5, "budget": None, "longest": 20},
    }
    return {
        "engines": engines,
        "repeats": 3,
        "repeat_below": 0.1,
        "series": ["n x n", "4 x k"],
        "warm_up_seconds": [0.6, 0.7],
        "wall_seconds": 41.8,
        "rows": rows,
    }


def test_the_counting_section_leads_with_the_crossover():
    lines = count_report.section(_counted(), Path("8-counts.png"))
    assert lines[0] == "## Counting: the DFS against the frontier DP"
    assert lines[2] == (
        "**Where the DP's grid overtakes the pruned DFS** (time, per series): n x n: not within the caps (the DP "
        "stopped at 6x6, which DFS pruned counted in 1.4 s); 4 x k: at **4x9** (36 squares)."
    )
    text = "\n".join(lines)
    assert "DFS pruned 3 s and 100,000,000 nodes per work unit, DP grid 1.5 s" in text
    assert "took 41.8 s of wall time, 1.3 s of it starting workers" in text
    assert "- 4 x k: largest board counted within the cap: DFS pruned 4x9, DP grid 4x10." in text
    assert "![Counting: DFS against DP](8-counts.png)" in text


def test_a_series_without_a_crossover_says_which_engine_won_its_last_board():
    measured = _counted()
    measured["rows"] = [row for row in measured["rows"] if row["series"] == "n x n" and row["cols"] == 5]
    measured["series"] = ["n x n"]
    assert count_report.section(measured, Path("8-counts.png"))[2].endswith(
        "n x n: not on these boards (DFS pruned still faster at 5x5)."
    )


def test_the_counting_table_has_a_line_per_board_some_engine_ran():
    table = count_report.counts_table(_counted()).splitlines()
    assert table[0] == "| series | board | squares | open tours | DFS pruned | DP grid |"
    assert "| 4 x k | 4x8 | 32 | 64 | 70 ms (70 ms) \u00b7 1k | 180 ms\u00b9 (180 ms) \u00b7 1k |" in table
    assert "| 4 x k | 4x9 | 36 | 72 | 560 ms (560 ms) \u00b7 1k | 370 ms (370 ms) \u00b7 946k |" in table
    assert "| 4 x k | 4x10 | 40 | 80 | stopped at 3 s | 520 ms (520 ms) \u00b7 1k |" in table
    assert "| 4 x k | 4x11 | 44 |  | past cap | stopped at 1.5 s |" in table
    # past every engine's cap: left out
    assert not any("4x12" in line for line in table)
    assert len(table) == 2 + 6


def test_a_run_with_counts_json_gets_figure_8_and_the_section_in_both_pages(tmp_path):
    from bench.__main__ import main
    from bench.run_folder import record
    from bench.studies.counts import count_study

    assert main(["--sizes", "5", "--methods", "greedy", "--repeats", "1", "--no-plots", "--out", str(tmp_path)]) == 0
    folder = (tmp_path / "latest").resolve()
    record.write_json(folder / count_study.COUNTS, _counted())
    text = run_report.write(folder).read_text()
    assert "## Counting: the DFS against the frontier DP" in text and f"]({count_study.STUDY.figure_file})" in text
    assert text.count("## Counting") == 1 and "### " + "Counting" not in text
    page = (folder / "index.html").read_text()
    assert "<h2>Counting: the DFS against the frontier DP</h2>" in page
    assert 'alt="Counting: DFS against DP"' in page and "data:image/png;base64," in page


def test_the_cluster_engines_get_a_worker_with_their_clusters_and_a_line_each(monkeypatch):
    started = []

    class Recording(ScriptedWorker):
        def __init__(self, clusters=()):
            started.append(clusters)
            super().__init__({("dp-total", (6, 6)): 1.2, ("dp-1-worker", (6, 6)): 2.4, ("dp-2-workers", (6, 6)): 3.0})

        def close(self):
            pass

    monkeypatch.setattr(count_worker, "Worker", Recording)
    engines = ("dp-total", "dp-1-worker", "dp-2-workers")
    measured = count_study.measure(_study([Series("n x n", ((6, 6),))], engines=engines))
    assert started == [[1, 2]]
    assert count_report.cluster_overhead(measured) == [
        "- 6x6 open total on a loopback cluster: 2.4 s on 1 (2.0x), 3 s on 2 (2.5x) against 1.2 s in one process."
    ]
