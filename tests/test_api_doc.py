"""docs/api.md against the docstrings: the committed page is what ``python -m tests.api_doc`` writes."""

import inspect

import knight
from tests import api_doc


def test_the_committed_page_is_what_the_generator_writes():
    assert api_doc.PAGE.read_text() == api_doc.render(), "docs/api.md is stale: run make api-doc"


def test_every_export_has_its_section_and_signature():
    page = api_doc.render()
    for name in knight.__all__:
        assert f"### {name}\n" in page
        obj = getattr(knight, name)
        if inspect.isfunction(obj):
            assert f"{name}{inspect.signature(obj)}\n" in page


def test_a_changed_docstring_changes_the_page(monkeypatch):
    before = api_doc.render()

    def planted(rows):
        """Return a planted answer.

        Parameters
        ----------
        rows : int
            The planted rows.
        """

    monkeypatch.setattr(knight, "planted", planted, raising=False)
    monkeypatch.setattr(knight, "__all__", [*knight.__all__, "planted"])
    after = api_doc.render()
    assert after != before
    assert "### planted\n\n```\nplanted(rows)\n```\n\nReturn a planted answer.\n" in after
    assert "- `rows` (int): The planted rows." in after
