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
    argv = ["--sizes", "5-6", "--shapes", "3x4", "--budget", "20000", "--repeats", "1", "--tiebreak", "first,roth",
            "--tours", "both", "--no-plots", "--out", str(out)]
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
    sampled = [dataclasses.replace(row, represents=4) for row in rows
               if (row.rows, row.cols, row.start_row, row.start_col) == (6, 6, 1, 1)]
    _, statuses = plots._grid(sampled, (6, 6), plots.label(sampled[0]))
    assert statuses[0, 0] == statuses[5, 5] == statuses[0, 5] == statuses[5, 0] != ""
    assert statuses[2, 2] == ""


def test_labels_name_the_variants(rows):
    assert set(plots.labels(rows)) == {
        "backtrack", "backtrack (closed)", "greedy", "greedy (Roth ties)", "greedy (closed)",
        "greedy (closed, Roth ties)", "warnsdorff", "warnsdorff (Roth ties)", "warnsdorff (closed)",
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
