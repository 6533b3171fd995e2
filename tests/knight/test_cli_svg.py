"""``knight solve|count --svg``: the picture beside the usual output, on
standard output with ``-``, and targets refused in one line with exit 2,
before the search and with nothing left behind."""

import io
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import knight
from knight import cli, drawing
from tests.knight.test_drawing import heatmap_cells, path_squares


def run(*argv):
    out = io.StringIO()
    status = cli.main(list(argv), out=out)
    return status, out.getvalue()


def test_solve_draws_the_tour_it_prints(tmp_path):
    target = tmp_path / "tour.svg"
    status, text = run("solve", "8", "8", "--svg", str(target))
    # the text is unchanged (but for the time)
    assert status == 0 and run("solve", "8", "8")[1].split("seconds")[0] == text.split("seconds")[0]
    board = [[int(step) for step in line.split()] for line in text.splitlines()[:8]]
    squares = path_squares(ET.parse(target).getroot(), 8)
    assert knight.is_tour(8, 8, squares)
    assert [board[r][c] for r, c in squares] == list(range(1, 65))
    assert sorted(tmp_path.iterdir()) == [target]  # no temporary left


def test_a_closed_solve_draws_a_closed_path(tmp_path):
    target = tmp_path / "closed.svg"
    assert run("solve", "6", "6", "--closed", "--svg", str(target))[0] == 0
    squares = path_squares(ET.parse(target).getroot(), 6)
    assert squares[0] == squares[-1] and knight.is_tour(6, 6, squares[:-1], closed=True)


def test_svg_to_stdout_moves_the_text_to_stderr(capsys):
    status = cli.main(["solve", "5", "5", "--svg", "-"])
    out, err = capsys.readouterr()
    assert status == 0 and knight.is_tour(5, 5, path_squares(ET.fromstring(out.encode()), 5))
    assert "status   found" in err


def test_json_and_a_drawing_file_together(tmp_path):
    target = tmp_path / "tour.svg"
    status, text = run("solve", "5", "5", "--json", "--svg", str(target))
    assert status == 0 and '"tour": [[1, 1]' in text and target.read_text().startswith(drawing.HEADER)


def test_count_draws_the_grid_it_prints(tmp_path):
    target = tmp_path / "grid.svg"
    status, text = run("count", "5", "5", "--svg", str(target))
    assert status == 0
    grid = [line.split() for line in text.splitlines()[:5]]
    cells = heatmap_cells(ET.parse(target).getroot())
    for (r, c), (_, shown) in cells.items():
        assert shown == grid[r][c] or (shown == "\u00d7" and grid[r][c] == "0")


def test_a_board_without_a_tour_draws_nothing(tmp_path, capsys):
    target = tmp_path / "none.svg"
    assert cli.main(["solve", "4", "4", "--method", "backtrack", "--svg", str(target)]) == 0
    assert "nothing was drawn" in capsys.readouterr().err and not target.exists()


def _refusals(tmp_path):
    (tmp_path / "notes.svg").write_text("my notes")
    (tmp_path / "folder").mkdir()
    return [
        (["solve", "8", "8", "--svg", str(tmp_path / "folder")], "is a folder"),
        (["solve", "8", "8", "--svg", str(tmp_path / "missing" / "t.svg")], "does not exist"),
        (["solve", "8", "8", "--svg", str(tmp_path / "notes.svg")], "is not a knight drawing"),
        (["solve", "8", "8", "--svg", os.devnull], "is not a regular file"),
        (["solve", "2001", "2000", "--method", "greedy", "--svg", str(tmp_path / "t.svg")], "too large to draw"),
        # past the printed grid's limit, the same as the drawing's: refused as either
        (["count", "101", "100", "--svg", str(tmp_path / "t.svg")], "too large to print (at most 10000)"),
        (["count", "5", "5", "--start", "1,1", "--svg", str(tmp_path / "t.svg")], "leave out --start"),
        (["solve", "5", "5", "--json", "--svg", "-"], "both write to standard output"),
        (["solve", "5", "5", "--svg", ""], "--svg needs a value, got ''"),
    ]


def test_hostile_targets_fail_in_one_line_before_searching(tmp_path, capsys, monkeypatch):
    from knight.search import solver

    def no_search(*args):
        raise AssertionError("searched before refusing")

    monkeypatch.setattr(solver, "solve", no_search)
    for argv, message in _refusals(tmp_path):
        before = sorted((path.name, path.read_bytes() if path.is_file() else None) for path in tmp_path.iterdir())
        assert run(*argv) == (2, ""), argv
        err = capsys.readouterr().err
        assert err.startswith("knight: error: ") and message in err and err.count("\n") == 1, (argv, err)
        after = sorted((path.name, path.read_bytes() if path.is_file() else None) for path in tmp_path.iterdir())
        assert after == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into any folder")
def test_an_unwritable_folder_is_refused(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    try:
        assert run("solve", "5", "5", "--svg", str(locked / "t.svg")) == (2, "")
        assert "Permission denied" in capsys.readouterr().err and list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_a_write_that_fails_is_one_line_and_leaves_nothing(tmp_path, capsys, monkeypatch):
    # the check passed, then the disk filled: found only when writing
    def full(path, fill, **options):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr("knight.files.atomic_write.replace", full)
    assert run("solve", "5", "5", "--svg", str(tmp_path / "t.svg")) == (74, "")
    err = capsys.readouterr().err
    assert err == f"knight: error: {tmp_path / 't.svg'}: No space left on device\n"
    assert list(tmp_path.iterdir()) == []


def test_the_largest_board_drawn_from_the_command_line(tmp_path):
    target = tmp_path / "greedy.svg"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "knight",
            "solve",
            "1000",
            "1000",
            "--method",
            "greedy",
            "--tiebreak",
            "roth",
            "--svg",
            str(target),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "status   found" in done.stdout, done.stderr
    assert target.stat().st_size < drawing.MAX_TOUR_BYTES
    squares = path_squares(ET.parse(target).getroot(), 1000)
    assert len(squares) == 1_000_000 // drawing.stride(1_000_000) + 1  # every 50th square, and the last


@pytest.mark.skipif(not os.path.isdir("/sys/kernel"), reason="no sysfs")
def test_a_folder_no_file_can_be_made_in_is_one_line(capsys):
    # sysfs refuses new files even to root, who passes every permission check
    # first: found only when writing, so exit status 74 (exit_status.EXIT_IO)
    assert run("solve", "5", "5", "--svg", "/sys/kernel/knight-tour.svg") == (74, "")
    err = capsys.readouterr().err
    assert err.startswith("knight: error: ") and "knight-tour.svg" in err and err.count("\n") == 1
    assert not any(name.startswith(".knight-tour") for name in os.listdir("/sys/kernel"))
