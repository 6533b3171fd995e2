"""``python -m bench.report`` (make plots): every figure and REPORT.md
redrawn from a run folder's files alone, without searching."""

from bench.report import sweep_figures
from bench.report.__main__ import main as report_main


def test_make_plots_redraws_everything_without_searching(run_folder, monkeypatch, capsys, assert_png):
    import knight

    def no_search(*args, **kwargs):
        raise AssertionError("make plots must not search")

    monkeypatch.setattr(knight, "solve", no_search)
    assert report_main([str(run_folder)]) == 0
    text = (run_folder / "REPORT.md").read_text()
    for figure in sweep_figures.FIGURES.values():
        assert_png(run_folder / figure)
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
    assert report_main([str(tmp_path / "latest")]) == 2
    assert "make bench" in capsys.readouterr().err
