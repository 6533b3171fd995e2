"""bench.tour_pictures: the tours a report draws, picked from a run, run
again (the same nodes as the sweep's), written beside it and shown in
REPORT.md with their captions."""

import xml.etree.ElementTree as ET

import pytest

import knight
from bench.__main__ import main
from bench.report import run_report as report
from bench.report import tour_pictures
from bench.run_folder import record
from tests.knight.test_drawing import path_squares


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("results")
    sweep = ["--sizes", "5,8,20", "--methods", "backtrack,warnsdorff,greedy", "--budget", "20000", "--repeats", "1"]
    assert main([*sweep, "--out", str(out)]) == 0
    return (out / "latest").resolve()


def test_each_method_a_closed_tour_and_the_largest_greedy_board(run_folder):
    pictures = tour_pictures.collect(run_folder)
    by = {(p.what, p.result.method, p.result.closed, p.result.rows): p for p in pictures}
    assert set(by) == {
        ("", "backtrack", False, 5),  # backtracking finishes no 8x8 start within 20,000 nodes: 5x5, from the run
        ("", "warnsdorff", False, 8),
        ("", "greedy", False, 8),
        ("closed tour", "warnsdorff", True, 8),
        ("largest greedy tour of the run", "greedy", False, 20),
    }
    for picture in pictures:
        result = picture.result
        assert knight.is_tour(result.rows, result.cols, result.coordinates(), result.closed)
        # run again, a search places the nodes the sweep recorded
        assert picture.swept_nodes in (None, result.nodes)
    assert by[("closed tour", "warnsdorff", True, 8)].swept_nodes is None  # the sweep ran no closed tours


def test_the_drawings_and_the_section_in_both_pages(run_folder):
    listed = record.read_json(run_folder / tour_pictures.TOURS)["tours"]
    assert len(listed) == 5
    text = (run_folder / report.REPORT).read_text()
    page = (run_folder / "index.html").read_text()
    assert "## Tours" in text and "<h2>Tours</h2>" in page
    assert page.count("data:image/svg+xml;base64,") == 5
    for tour in listed:
        assert f"]({tour['file']})" in text and tour["caption"] in text
        assert f"{tour['caption'].split(':')[0]}" in page
        root = ET.parse(run_folder / tour["file"]).getroot()
        side = int(tour["caption"].split(" on ")[1].split("x")[0])
        closed = "(closed" in tour["caption"]
        squares = path_squares(root, side)
        assert knight.is_tour(side, side, squares[:-1] if closed else squares, closed)
        assert float(root.get("width")) <= tour_pictures.WIDTH
    assert "nodes" in listed[0]["caption"]


def test_a_run_without_drawings_has_no_section(tmp_path):
    assert tour_pictures.section(tmp_path) == []
