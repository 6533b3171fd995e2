"""The public API's docstrings: their examples run as doctests, and the numpydoc check covers every export."""

import doctest
import importlib
import inspect
import sys
import textwrap

import pytest

import knight
from tests import docstrings

PUBLIC = docstrings.public_names()
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _examples(name):
    """Return the doctests in the docstring of the object that ``name`` names, not those of its members."""
    obj = docstrings.resolve(name)
    finder = doctest.DocTestFinder(recurse=False)
    module = inspect.getmodule(inspect.unwrap(obj)) if not isinstance(obj, property) else False
    return finder.find(obj, name, module=module, globs={})


@pytest.mark.parametrize("name", PUBLIC)
def test_the_examples_of_a_public_docstring_run(name, capsys):
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in _examples(name):
        runner.run(test)
    results = runner.summarize(verbose=False)
    report = capsys.readouterr().out
    assert results.failed == 0, report


def test_every_export_of_knight_is_checked():
    for name in knight.__all__:
        assert f"knight.{name}" in PUBLIC
    assert "bench.__main__.main" in PUBLIC


def test_a_new_export_is_checked_without_an_edit(monkeypatch):
    monkeypatch.setattr(knight, "planted", lambda: None, raising=False)
    monkeypatch.setattr(knight, "__all__", [*knight.__all__, "planted"])
    assert "knight.planted" in docstrings.public_names()


def test_the_check_reports_a_docstring_without_its_sections(tmp_path, monkeypatch):
    source = '''
        def planted(rows, cols):
            """Return the squares of a board."""
            return rows * cols
        '''
    (tmp_path / "planted_module.py").write_text(textwrap.dedent(source))
    monkeypatch.syspath_prepend(str(tmp_path))
    found = docstrings.problems("planted_module.planted", {"PR01", "RT01", "EX01"})
    sys.modules.pop("planted_module", None)
    assert [line.split(": ")[2].split()[0] for line in found] == ["PR01", "RT01", "EX01"]


def test_the_configured_checks_keep_the_sections_the_house_asks_for():
    from numpydoc import validate
    from numpydoc.hooks.validate_docstrings import parse_config

    checks = validate.get_validation_checks(parse_config(docstrings.ROOT)["checks"])
    assert {"PR01", "PR02", "RT01", "SS01", "EX01", "GL08"} <= checks


def test_a_failing_example_fails_the_run():
    def planted():
        """Return one.

        >>> planted()
        2
        """
        return 1

    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in doctest.DocTestFinder(recurse=False).find(planted, "planted", module=False, globs={"planted": planted}):
        runner.run(test, out=lambda text: None)
    assert runner.summarize(verbose=False).failed == 1


def test_a_module_name_resolves_to_the_module():
    assert docstrings.resolve("knight.harness_api") is importlib.import_module("knight.harness_api")
