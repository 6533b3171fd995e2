"""knight.drawing: each picture read back as XML and compared with what it
draws (the tour, through knight.is_tour; the count grid), the size rules,
the notebook reprs without IPython, and writes that are whole or absent."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import knight
from knight import drawing
from knight.errors import InvalidArgument
from knight.files import atomic_write

SVG = "{http://www.w3.org/2000/svg}"


def parse(text):
    assert text.startswith(drawing.HEADER)
    return ET.fromstring(text.encode())


def path_squares(root, cols):
    """The squares under the drawn path, its lines joined end to start."""
    squares = []
    lines = root.findall(f".//{SVG}polyline[@class='path']")
    for i, line in enumerate(lines):
        points = [tuple(int(v) for v in point.split(",")) for point in line.get("points").split()]
        here = [(y // drawing.UNIT, x // drawing.UNIT) for x, y in points]
        # each point is a square's centre
        assert all((x % drawing.UNIT, y % drawing.UNIT) == (drawing.UNIT // 2,) * 2 for x, y in points)
        if i:
            assert here[0] == squares[-1], "each line starts where the one before ends"
            here = here[1:]
        squares += here
    return squares


def step_numbers(root):
    """{(row, col): step} from the numbered discs."""
    found = {}
    for text in root.iter(f"{SVG}text"):
        x, y = int(text.get("x")), int(text.get("y"))
        found[(y // drawing.UNIT, x // drawing.UNIT)] = int(text.text)
    return found


@pytest.mark.parametrize(("rows", "cols", "method"), [(8, 8, "warnsdorff"), (5, 5, "backtrack"), (3, 4, "greedy")])
def test_the_path_is_the_tour_and_each_square_shows_its_step(rows, cols, method):
    result = knight.solve(rows, cols, (0, 0), method, tiebreak="roth" if method == "greedy" else "first")
    assert result.found
    root = parse(drawing.tour_svg(rows, cols, result.tour))
    squares = path_squares(root, cols)
    assert squares == [tuple(pair) for pair in result.coordinates().tolist()]
    assert knight.is_tour(rows, cols, squares)
    assert step_numbers(root) == {square: step for step, square in enumerate(squares, 1)}
    assert root.find(f".//{SVG}circle[@class='start']") is not None
    assert root.find(f".//{SVG}circle[@class='end']") is not None


def test_a_closed_tour_closes():
    result = knight.solve(8, 8, (3, 2), "warnsdorff", closed=True)
    assert result.found
    squares = path_squares(parse(drawing.tour_svg(8, 8, result.tour, closed=True)), 8)
    assert len(squares) == 65 and squares[-1] == squares[0]
    assert knight.is_tour(8, 8, squares[:-1], closed=True)
    open_drawing = path_squares(parse(drawing.tour_svg(8, 8, result.tour)), 8)
    assert open_drawing == squares[:-1]


def test_a_board_past_the_numbers_has_no_numbers_and_a_path_in_parts():
    result = knight.solve(30, 30, (0, 0), "warnsdorff")
    root = parse(drawing.tour_svg(30, 30, result.tour))
    assert knight.is_tour(30, 30, path_squares(root, 30))
    assert root.find(f".//{SVG}text") is None
    colours = [line.get("stroke") for line in root.findall(f".//{SVG}polyline[@class='path']")]
    assert len(colours) == drawing.PATH_PARTS and len(set(colours)) == len(colours)
    assert root.find(f".//{SVG}circle[@class='start']") is not None
    assert root.find(f".//{SVG}rect[@class='end']") is not None


def test_step_numbers_up_to_the_stated_side_only():
    side = drawing.NUMBERED_SIDE
    for cols, numbered in ((side, True), (side + 1, False)):
        result = knight.solve(side, cols, (0, 0), "warnsdorff")
        assert result.found
        root = parse(drawing.tour_svg(side, cols, result.tour))
        assert (len(step_numbers(root)) == side * cols) is numbered


@pytest.mark.parametrize(("rows", "cols"), [(2000, 2000), (3, 1_333_333)])
def test_a_long_tour_is_drawn_through_every_kth_square_within_the_stated_size(rows, cols):
    # the largest boards drawn, square and long; a boustrophedon stands in for a tour: no search
    snake = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    snake[1::2] = snake[1::2, ::-1]
    tour = snake.ravel()
    text = drawing.tour_svg(rows, cols, tour, closed=True, title="snake")
    assert len(text.encode()) < drawing.MAX_TOUR_BYTES
    step = drawing.stride(len(tour))
    assert step == 200 and "every 200th square" in text
    squares = path_squares(parse(text), cols)
    kept = [*tour[::step].tolist(), int(tour[-1]), int(tour[0])]
    assert squares == [divmod(square, cols) for square in kept]


def test_boards_past_the_limit_are_refused_in_one_line():
    with pytest.raises(InvalidArgument, match="2001x2000 is too large to draw as a tour"):
        drawing.check_size(2001, 2000)
    with pytest.raises(InvalidArgument, match="at most 10,000 squares"):
        drawing.check_size(101, 100, grid=True)
    drawing.check_size(2000, 2000)
    drawing.check_size(100, 100, grid=True)


def heatmap_cells(root):
    """{(row, col): (fill, text)} of a heatmap's squares."""
    cells = {}
    for rect in root.iter(f"{SVG}rect"):
        x, y = int(rect.get("x")), int(rect.get("y"))
        cells[(y // drawing.UNIT, x // drawing.UNIT)] = [rect.get("fill"), None]
    for text in root.findall(f".//{SVG}g[@class='counts']/{SVG}text"):
        x, y = float(text.get("x")), float(text.get("y"))
        cells[(int(y) // drawing.UNIT, int(x) // drawing.UNIT)][1] = text.text
    return cells


@pytest.mark.parametrize(("rows", "cols", "closed"), [(5, 5, False), (3, 4, False), (3, 3, False), (5, 6, True)])
def test_the_heatmap_numbers_are_the_count_grid(rows, cols, closed):
    counted = knight.count_tours(rows, cols, closed=closed)
    cells = heatmap_cells(parse("".join(drawing.count_grid_parts(counted))))
    assert set(cells) == {(r, c) for r in range(rows) for c in range(cols)}
    for (r, c), (fill, text) in cells.items():
        tours = int(counted.tours[r, c])
        possible = knight.start_possible(rows, cols, (r, c), closed)[0]
        assert text == (str(tours) if possible else "\u00d7")
        assert (fill == drawing.NOTHING_COLOUR) is (tours == 0)


def test_the_heatmap_colour_grows_with_the_count():
    counted = knight.count_tours(6, 6)
    cells = heatmap_cells(parse("".join(drawing.count_grid_parts(counted))))
    by_count = sorted((int(counted.tours[square]), fill) for square, (fill, _) in cells.items())
    # viridis grows lighter from dark purple to yellow: green channel rises
    greens = [int(fill[3:5], 16) for _, fill in by_count]
    assert greens == sorted(greens) and greens[0] < greens[-1]


def test_the_notebook_reprs_draw_with_the_same_code():
    result = knight.solve(8, 8, (0, 0), "warnsdorff")
    assert result._repr_svg_() == "".join(drawing.result_parts(result))
    assert "warnsdorff (open, tiebreak first) on 8x8 from 1,1: 64 nodes" in result._repr_svg_()
    assert knight.solve(4, 4, (0, 0), "backtrack")._repr_svg_() is None  # no tour: the text repr
    counted = knight.count_tours(3, 4)
    assert counted._repr_svg_() == "".join(drawing.count_grid_parts(counted))
    assert knight.count_tours(3, 4, start=(0, 0))._repr_svg_() is None


def test_the_reprs_need_neither_ipython_nor_a_browser():
    code = (
        "import sys, knight; r = knight.solve(5, 5, (0, 0), 'warnsdorff'); s = r._repr_svg_();"
        "import xml.etree.ElementTree as ET; ET.fromstring(s.encode());"
        "assert 'IPython' not in sys.modules; print(len(s))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and int(done.stdout) > 0, done.stderr


def test_targets_that_cannot_hold_a_drawing_are_refused(tmp_path):
    (tmp_path / "notes.svg").write_text("my notes")
    for path, message in (
        (tmp_path, "is a folder"),
        (tmp_path / "missing" / "tour.svg", "does not exist"),
        (tmp_path / "notes.svg", "is not a knight drawing; refusing to overwrite it"),
        (os.devnull, "is not a regular file"),
    ):
        with pytest.raises(InvalidArgument, match=message):
            drawing.check_target(str(path))
    assert (tmp_path / "notes.svg").read_text() == "my notes"
    ours = tmp_path / "tour.svg"
    ours.write_text(drawing.tour_svg(1, 1, [0]))
    assert drawing.check_target(str(ours)) == str(ours)  # a drawing of ours may be redrawn
    assert drawing.check_target("-") == "-"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "tour.svg"
    path.write_text("old")

    def half(file):
        file.write("<svg")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        atomic_write.replace(path, half)
    assert path.read_text() == "old" and sorted(tmp_path.iterdir()) == [path]
    atomic_write.replace(path, lambda file: file.write("new"), shared=True)
    assert path.read_text() == "new" and sorted(tmp_path.iterdir()) == [path]
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask
