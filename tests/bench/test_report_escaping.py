"""Nothing a user controls is trusted by the report: any string in a table
cell, the command line or the folder's name stays text on its line of
REPORT.md, and index.html embeds no file from outside the run folder."""

import base64
import html
import os
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.report import page, run_report
from bench.text_cells import _visible, markdown_table, plain

# every character class that Markdown or a line could read as syntax, plus any text
_AWKWARD = st.text(alphabet=st.sampled_from("|\\`*_[]()<>!&#-\n\r\t\x00\u2028\x85 abc"), max_size=30)
_SURROGATES = st.characters(min_codepoint=0xDC80, max_codepoint=0xDCFF, exclude_categories=())
ANY_TEXT = st.one_of(st.text(max_size=30), _AWKWARD, st.text(alphabet=_SURROGATES | st.characters(), max_size=10))


def _meta(text):
    """A run's meta.json with ``text`` wherever the user or the machine controls a string."""
    part = {"title": "custom sweep", "shapes": ["5x5"], "methods": ["greedy"], "starts": "all"}
    part |= {"tours": ["open"], "budget": 1000, "tiebreaks": ["first"]}
    return {
        "command": ["python", "-m", "bench", "--out", text],
        "folder": text,
        "sweep": {"repeats": 1, "parts": [part]},
        "runs_planned": 25,
        "runs_done": 25,
        "complete": True,
        "started": "2026-12-07T01:44:05+00:00",
        "finished": "2026-12-07T01:44:06+00:00",
        "machine": {"cpu_model": text, "logical_cores": 2, "usable_cores": 2, "os": text},
        "software": {"python": text, "numba": "0.68.1", "llvmlite": "0.50.0", "numpy": "2.4.6"},
        "numba": {"threading_layer": text, "environment": {"NUMBA_PROBE": text}},
        "git": {"commit": "aad98d4", "dirty": False},
        "sessions": [],
    }


def _shown(text):
    """What a reader of the page should see for ``text``: the text, its hidden characters as escapes."""
    return "".join(_visible(character) for character in text)


@settings(max_examples=200, deadline=None)
@given(text=ANY_TEXT)
def test_a_string_is_shown_as_itself_on_the_page(text):
    shown = page._inline(plain(text))
    assert shown == html.escape(_shown(text), quote=False)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=ANY_TEXT)
def test_no_string_adds_a_line_a_cell_or_an_image_to_the_report(text, tmp_path):
    (tmp_path / "secret.png").write_bytes(b"\x89PNG inside")
    written, plain_one = run_report.render(_meta(text), [], {}), run_report.render(_meta("x"), [], {})
    assert written.count("\n") == plain_one.count("\n")
    assert [line.count("|") - line.count("\\|") for line in written.splitlines()] == [
        line.count("|") for line in plain_one.splitlines()
    ]
    written.encode("utf-8")  # a name that is not UTF-8 still writes
    shown = page.render(written, tmp_path)
    assert "<img" not in shown
    for element in ("<p>", "<table>", "<h", "<li>", "<td>", "<code>", "<strong>"):
        assert shown.count(element) == page.render(plain_one, tmp_path).count(element)


@settings(max_examples=100, deadline=None)
@given(cells=st.lists(ANY_TEXT, min_size=1, max_size=4))
def test_a_table_keeps_its_shape_whatever_its_cells_hold(cells):
    table = markdown_table([str(index) for index in range(len(cells))], [cells])
    assert table.count("\n") == 2
    (row,) = page._table(table.splitlines()).split("<tbody>")[1:]
    assert row.count("<td>") == len(cells)


@pytest.fixture
def folders(tmp_path):
    """A run folder holding a figure and a link to a secret beside it."""
    folder, secret = tmp_path / "run", tmp_path / "secret.png"
    folder.mkdir()
    secret.write_bytes(b"the secret, not a figure")
    (folder / "fig.png").write_bytes(b"\x89PNG the figure")
    (folder / "link.png").symlink_to(secret)
    (folder / "sub").mkdir()
    return folder, secret


_STEPS = st.sampled_from(["..", ".", "sub", "fig.png", "link.png", "secret.png", "run", "", "/"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(_STEPS, min_size=1, max_size=5), absolute=st.booleans())
def test_the_page_embeds_no_file_from_outside_its_folder(folders, steps, absolute):
    folder, secret = folders
    source = os.path.join(*steps)
    if absolute:
        source = str(folder.parent) + "/" + source
    shown = page.render(f"![a]({source})\n", folder)
    assert base64.b64encode(secret.read_bytes()).decode() not in shown


def test_the_page_embeds_the_figures_inside_its_folder(folders):
    folder, secret = folders
    assert base64.b64encode(b"\x89PNG the figure").decode() in page.render("![a](fig.png)\n", folder)
    assert base64.b64encode(b"\x89PNG the figure").decode() in page.render("![a](sub/../fig.png)\n", folder)
    for source in (str(secret), "../secret.png", "link.png", "/etc/hostname"):
        assert "is missing" in page.render(f"![a]({source})\n", folder)


def test_the_escapes_cover_every_character_markdown_reads():
    assert all(plain(character) != character for character in "|\\`*[]<>!&\n")
    ordinary = string.ascii_letters + string.digits + " .,:;-+=/%"
    assert plain(ordinary) == ordinary


def test_a_title_that_is_not_utf8_still_writes(tmp_path):
    assert "run\\udcff" in page.render("# x\n", tmp_path, title="run\udcff").encode("utf-8").decode("utf-8")
