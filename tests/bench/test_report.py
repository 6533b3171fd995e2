"""REPORT.md's sections drawn from a study's own file: the counting study's
headline, notes and table (the whole report is checked in test_plots.py)."""

from pathlib import Path

from bench import report


def _row(series, engine, board, seconds, work=1000, repeats=3):
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


def _measured():
    rows = [
        _row("4 x k", "dfs-pruned", (4, 8), 0.07),
        _row("4 x k", "dp", (4, 8), 0.18, repeats=1),
        _row("4 x k", "dfs-pruned", (4, 9), 0.56),
        _row("4 x k", "dp", (4, 9), 0.37, work=946_000),
        _row("4 x k", "dfs-pruned", (4, 10), "stopped at cap"),
        _row("4 x k", "dp", (4, 10), 0.52),
        _row("4 x k", "dfs-pruned", (4, 11), "past cap"),
        _row("4 x k", "dp", (4, 11), "stopped at cap"),
        _row("4 x k", "dfs-pruned", (4, 12), "past cap"),
        _row("4 x k", "dp", (4, 12), "past cap"),
        _row("n x n", "dfs-pruned", (5, 5), 0.016),
        _row("n x n", "dp", (5, 5), 0.06),
        _row("n x n", "dfs-pruned", (6, 6), 1.4),
        _row("n x n", "dp", (6, 6), "stopped at cap"),
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
    lines = report.counts_section(_measured(), Path("8-counts.png"))
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
    measured = _measured()
    measured["rows"] = [row for row in measured["rows"] if row["series"] == "n x n" and row["cols"] == 5]
    measured["series"] = ["n x n"]
    assert report.counts_section(measured, Path("8-counts.png"))[2].endswith(
        "n x n: not on these boards (DFS pruned still faster at 5x5)."
    )


def test_the_counting_table_has_a_line_per_board_some_engine_ran():
    table = report.counts_table(_measured()).splitlines()
    assert table[0] == "| series | board | squares | open tours | DFS pruned | DP grid |"
    assert "| 4 x k | 4x8 | 32 | 64 | 70 ms (70 ms) \u00b7 1k | 180 ms\u00b9 (180 ms) \u00b7 1k |" in table
    assert "| 4 x k | 4x9 | 36 | 72 | 560 ms (560 ms) \u00b7 1k | 370 ms (370 ms) \u00b7 946k |" in table
    assert "| 4 x k | 4x10 | 40 | 80 | stopped at 3 s | 520 ms (520 ms) \u00b7 1k |" in table
    assert "| 4 x k | 4x11 | 44 |  | past cap | stopped at 1.5 s |" in table
    # past every engine's cap: left out
    assert not any("4x12" in line for line in table)
    assert len(table) == 2 + 6


def test_a_run_with_counts_json_gets_figure_8_and_the_section_in_both_pages(tmp_path):
    from bench import count_study, plots, record
    from bench.__main__ import main

    assert main(["--sizes", "5", "--methods", "greedy", "--repeats", "1", "--no-plots", "--out", str(tmp_path)]) == 0
    folder = (tmp_path / "latest").resolve()
    record.write_json(folder / count_study.COUNTS, _measured())
    text = report.write(folder).read_text()
    assert "## Counting: the DFS against the frontier DP" in text and f"]({plots.COUNTS_FIGURE})" in text
    assert text.count("## Counting") == 1 and "### " + "Counting" not in text
    page = (folder / "index.html").read_text()
    assert "<h2>Counting: the DFS against the frontier DP</h2>" in page
    assert 'alt="Counting: DFS against DP"' in page and "data:image/png;base64," in page
