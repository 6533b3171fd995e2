"""The report opens with its answer (bench/report/summary.py): REPORT.md
and index.html start with a short summary, before the run's details. The
summary gives each method's largest solved board and its throughput, Numba
against clang-C and CPython, and the counts with their times. Each line
links to a heading below it, and the first screen of index.html at
1280 x 800 shows the whole summary (in headless chromium, skipped where
chromium is missing)."""

import base64
import re

import pytest
from test_report_html import CHROMIUM, browser, needs_browser, png_size  # noqa: F401 (browser: a fixture)

from bench.report import page, run_report, summary
from bench.run_folder import record

SCREEN = (1280, 800)


@pytest.fixture(scope="module")
def report(run_folder):
    """The small run folder of tests/bench/conftest.py, its report written."""
    run_report.write(run_folder)
    return run_folder


def _headings(text):
    return [line for line in text.splitlines() if line.startswith("#")]


def test_the_summary_comes_first(report):
    text = (report / run_report.REPORT).read_text()
    headings = _headings(text)
    assert headings[0].startswith("# ") and headings[1] == summary.HEADING
    opening = text.split(summary.HEADING, 1)[1].split("\n\n", 2)[1]
    methods = {row.method for row in record.read_runs(report / record.RUNS)}
    for method in methods:
        assert f"**{method}" in opening, method
    assert "largest board solved" in opening and "nodes/s" in opening
    assert "**Numba against C**: not measured" in opening and "**Counts**: not measured" in opening


def test_every_summary_link_names_a_heading_below(report):
    text = (report / run_report.REPORT).read_text()
    below = text.split(summary.HEADING, 1)[1]
    anchors = {summary.anchor(heading.lstrip("#")) for heading in _headings(below)}
    targets = re.findall(r"\]\(#([\w-]+)\)", below.split("\n\n", 2)[1])
    assert targets and set(targets) <= anchors


def test_the_page_links_the_summary_to_its_sections(report):
    markup = (report / page.INDEX).read_text()
    body = markup.split("<body>", 1)[1]
    assert re.match(r"\s*<a id=\"[\w-]+\"></a><h1>[^<]*</h1>\s*<a id=\"at-a-glance\"></a><h2>", body)
    targets = re.findall(r'<a href="#([\w-]+)">', body)
    ids = set(re.findall(r'<a id="([\w-]+)"></a><h[1-6]>', body))
    assert targets and set(targets) <= ids


def _versus(clang, python):
    """versus.json with two headline searches and one short one."""

    def row(headline, numba, c, py):
        sides = {"numba": {"rates": [numba]}, "clang": {"rates": [c]}, "python": {"rates": [py]}}
        if not clang:
            sides["gcc"] = sides.pop("clang")
        return {"headline": headline, "sides": sides}

    return {"workloads": [row(True, 90.0, 100.0, 0.5), row(True, 110.0, 100.0, 0.25), row(False, 1.0, 9.0, 1.0)]}


def test_the_toolchain_line_gives_numba_over_clang_and_cpython():
    line = summary.versus_line(_versus(clang=True, python=True))
    assert "1.00x clang-C (median; 0.90-1.10)" in line and "310x CPython (median; 180-440)" in line
    assert "over 2 searches" in line and f"(#{summary.anchor(summary.VERSUS)})" in line
    fallback = summary.versus_line(_versus(clang=False, python=True))
    assert "clang-C not measured; 1.00x gcc-C" in fallback


def test_the_count_lines_give_the_largest_board_and_its_fastest_time():
    row = {"series": "n x n", "status": "done", "tours": 1728, "rows": 5, "cols": 5}
    measured = {
        "series": ["n x n", "3 x k"],
        "rows": [
            {**row, "rows": 4, "cols": 4, "tours": 0, "engine": "dp", "seconds": 0.001},
            {**row, "engine": "dfs-pruned", "seconds": 0.02},
            {**row, "engine": "dp", "seconds": 0.01},
            {**row, "rows": 6, "cols": 6, "engine": "dp", "status": "stopped", "seconds": 0.3},
        ],
    }
    lines = summary.count_lines(measured)
    assert lines[0].startswith("- **Counts, n x n**: 5x5 has 1,728 open tours, counted in 10 ms by DP grid")
    assert lines[1] == "- **Counts, 3 x k**: no board counted within the caps."


def test_only_anchor_links_become_html_links():
    body = '<h2>A &amp; b</h2><p>[ok](#a--b) [bad](javascript:x) [bad](#x" onclick="y)</p>'
    assert summary.linked(body) == (
        '<a id="a--b"></a><h2>A &amp; b</h2><p><a href="#a--b">ok</a> [bad](javascript:x) [bad](#x" onclick="y)</p>'
    )


@needs_browser
def test_the_first_screen_shows_the_summary(report, browser, tmp_path):  # noqa: F811 (the fixture)
    width, height = SCREEN
    for domain in ("Page", "Runtime"):
        browser.call(f"{domain}.enable")
    browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
    browser.call("Page.navigate", url=(report / page.INDEX).as_uri())
    browser.wait_for("Page.loadEventFired")
    found = browser.call(
        "Runtime.evaluate",
        returnByValue=True,
        expression=(
            "(() => { const h = document.getElementById('at-a-glance').nextElementSibling;"
            " const list = h.nextElementSibling;"
            " const box = list.getBoundingClientRect();"
            " return [list.tagName, list.children.length, h.getBoundingClientRect().top, box.bottom,"
            " window.innerWidth, window.innerHeight]; })()"
        ),
    )["result"]["value"]
    tag, items, top, bottom, shown_width, shown_height = found
    assert (shown_width, shown_height) == SCREEN
    assert tag == "UL" and items >= 3
    assert top >= 0 and bottom <= height, f"the summary ends at {bottom} px, past the first screen"
    shot = browser.call("Page.captureScreenshot", format="png")
    (tmp_path / "first-screen.png").write_bytes(base64.b64decode(shot["data"]))
    assert png_size((tmp_path / "first-screen.png").read_bytes()) == SCREEN
