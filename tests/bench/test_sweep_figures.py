"""The sweep's own figures (1 to 5): every file produced, every PNG valid,
drawn from the run's records alone."""

import dataclasses

import pytest

from bench.report import sweep_figures
from bench.run_folder import record


@pytest.fixture(scope="module")
def rows(run_folder):
    return record.read_runs(run_folder / record.RUNS)


def test_every_figure_is_a_valid_png(rows, tmp_path, assert_png):
    drawn = sweep_figures.draw_all(rows, tmp_path)
    assert set(drawn) == set(sweep_figures.FIGURES)
    for path in drawn.values():
        assert_png(path)


def test_figures_with_nothing_to_show_are_still_written(tmp_path, assert_png):
    drawn = sweep_figures.draw_all([], tmp_path)
    for path in drawn.values():
        assert_png(path)


def test_heatmaps_prefer_6x6_and_fill_symmetry_classes(rows, tmp_path):
    assert sweep_figures.heatmap_boards(rows) == [(6, 6)]
    assert sweep_figures.heatmap_boards(rows, [(5, 5), (9, 9)]) == [(5, 5)]
    sampled = [
        dataclasses.replace(row, represents=4)
        for row in rows
        if (row.rows, row.cols, row.start_row, row.start_col) == (6, 6, 1, 1)
    ]
    _, statuses = sweep_figures._grid(sampled, (6, 6), sweep_figures.label(sampled[0]))
    assert statuses[0, 0] == statuses[5, 5] == statuses[0, 5] == statuses[5, 0] != ""
    assert statuses[2, 2] == ""


def test_labels_name_the_variants(rows):
    assert set(sweep_figures.labels(rows)) == {
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
