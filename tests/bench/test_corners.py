"""The corner study: every board from the corner, its figure and its section."""

from bench.studies.corners import corners_study


def test_corner_study_records_every_board_and_draws(tmp_path):
    measured = corners_study.measure(12)
    assert [board["n"] for board in measured["boards"]] == list(range(5, 13))
    for board in measured["boards"]:
        for name in corners_study.NAMES:
            status, nodes = board[name]
            # greedy places at most one node per square; the search at most its budget
            limit = measured["budget_factor"] if name.startswith("warnsdorff") else 1
            assert 1 <= nodes <= limit * board["n"] ** 2
            if name.startswith("greedy"):
                # a walk places one node per square it reaches: all of them iff found
                assert (status == "found") == (nodes == board["n"] ** 2)
    assert corners_study.failures(measured, "warnsdorff-roth") == []
    figure = corners_study.draw(measured, tmp_path / corners_study.STUDY.figure_file)
    assert figure.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    text = "\n".join(corners_study.section(measured, figure))
    assert "From the corner, n = 5..12" in text and "warnsdorff-roth | 8 of 8" in text
