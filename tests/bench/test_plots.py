"""Figures and REPORT.md: every file produced, every PNG valid, drawn from
the run's files alone."""

import dataclasses

import matplotlib.image
import pytest

from bench import plots, record, report
from bench.__main__ import main

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("results")
    argv = [
        "--sizes",
        "5-6",
        "--shapes",
        "3x4",
        "--budget",
        "20000",
        "--repeats",
        "1",
        "--tiebreak",
        "first,roth",
        "--tours",
        "both",
        "--no-plots",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    return (out / "latest").resolve()


@pytest.fixture(scope="module")
def rows(run_folder):
    return record.read_runs(run_folder / record.RUNS)


def _assert_png(path):
    assert path.read_bytes()[:8] == PNG_MAGIC
    height, width, _ = matplotlib.image.imread(path).shape
    assert height > 200 and width > 200


def test_every_figure_is_a_valid_png(rows, tmp_path):
    drawn = plots.draw_all(rows, tmp_path)
    assert set(drawn) == set(plots.FIGURES)
    for path in drawn.values():
        _assert_png(path)


def test_figures_with_nothing_to_show_are_still_written(tmp_path):
    drawn = plots.draw_all([], tmp_path)
    for path in drawn.values():
        _assert_png(path)


def test_heatmaps_prefer_6x6_and_fill_symmetry_classes(rows, tmp_path):
    assert plots.heatmap_boards(rows) == [(6, 6)]
    assert plots.heatmap_boards(rows, [(5, 5), (9, 9)]) == [(5, 5)]
    sampled = [
        dataclasses.replace(row, represents=4)
        for row in rows
        if (row.rows, row.cols, row.start_row, row.start_col) == (6, 6, 1, 1)
    ]
    _, statuses = plots._grid(sampled, (6, 6), plots.label(sampled[0]))
    assert statuses[0, 0] == statuses[5, 5] == statuses[0, 5] == statuses[5, 0] != ""
    assert statuses[2, 2] == ""


def test_labels_name_the_variants(rows):
    assert set(plots.labels(rows)) == {
        "backtrack",
        "backtrack (closed)",
        "greedy",
        "greedy (Roth ties)",
        "greedy (closed)",
        "greedy (closed, Roth ties)",
        "warnsdorff",
        "warnsdorff (Roth ties)",
        "warnsdorff (closed)",
        "warnsdorff (closed, Roth ties)",
    }


def test_make_plots_redraws_everything_without_searching(run_folder, monkeypatch, capsys):
    import knight

    def no_search(*args, **kwargs):
        raise AssertionError("make plots must not search")

    monkeypatch.setattr(knight, "solve", no_search)
    assert report.main([str(run_folder)]) == 0
    text = (run_folder / "REPORT.md").read_text()
    for figure in plots.FIGURES.values():
        _assert_png(run_folder / figure)
        assert f"]({figure})" in text
    for heading in (
        "## What was run",
        "## Machine",
        "## Figures",
        "## Summary per search and board",
        "## Notable findings",
    ):
        assert heading in text
    assert "greedy** from the corner" in text
    # backtrack from the 4 corners of 5x5: 41, 288, 8840 and 14009 nodes
    assert "| backtrack | " in text.split("node counts differ")[1]


def test_make_plots_without_a_run_fails_in_one_line(tmp_path, capsys):
    assert report.main([str(tmp_path / "latest")]) == 2
    assert "make bench" in capsys.readouterr().err


def _counts(series_times):
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


def test_the_counting_figure_draws_every_engine_and_series(tmp_path):
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
    _assert_png(plots.counts(_counts(times), tmp_path / plots.COUNTS_FIGURE))
    nothing = _counts({"n x n": {("dp", 6, 6): None}})
    _assert_png(plots.counts(nothing, tmp_path / "empty.png"))
