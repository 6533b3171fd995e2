"""Every module of knight/ and bench/ opens its docstring with one plain sentence that says what the module is for.

The first line of the docstring must be a whole sentence: it starts with a
capital letter, ends with a period, and holds no colon. A fragment such as
"Counting every tour: the one road a count takes" fails.
"""

import ast
from pathlib import Path

import pytest

from tests import python_source

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(path for folder in ("knight", "bench") for path in (ROOT / folder).rglob("*.py"))
# pinned by their SHA-256 (tests/bench/test_speed_check.py): never edited
FROZEN = {"bench/references/reference_kernels.py", "bench/references/reference_frontier.py"}
# rewritten on another branch, their docstrings with them
PENDING = set()


def first_line_problem(docstring):
    """Return why a docstring's first line is not one plain sentence, or None when it is one."""
    if not docstring:
        return "no docstring"
    line = docstring.split("\n", 1)[0].strip()
    if not line[:1].isupper():
        return f"does not start with a capital letter: {line!r}"
    if not line.endswith("."):
        return f"is not a whole sentence ending in a period: {line!r}"
    if ":" in line:
        return f"holds a colon: {line!r}"
    return None


def _docstring(path):
    return ast.get_docstring(python_source.parse_file(path), clean=False)


def _cases():
    for path in SOURCES:
        name = path.relative_to(ROOT).as_posix()
        if name in FROZEN:
            continue
        marks = [pytest.mark.xfail(reason="its owner's branch rewrites it", strict=False)] if name in PENDING else []
        yield pytest.param(path, id=name, marks=marks)


@pytest.mark.parametrize("path", list(_cases()))
def test_a_module_docstring_opens_with_one_plain_sentence(path):
    assert first_line_problem(_docstring(path)) is None


def test_the_lists_name_files_that_exist():
    names = {path.relative_to(ROOT).as_posix() for path in SOURCES}
    assert names >= FROZEN and names >= PENDING


@pytest.mark.parametrize(
    "docstring",
    [
        None,
        "knight: knight's tours found, counted and checked.",
        "``knight solve``: one tour, as JSON.",
        "Counting every tour: the one road a count takes.",
        "The DFS counting engine, a pruned search whose\nfirst sentence runs over two lines.",
    ],
)
def test_the_check_refuses_a_fragment(docstring):
    assert first_line_problem(docstring) is not None


def test_the_check_takes_a_plain_sentence():
    assert first_line_problem("This module counts one work unit of the DFS.\n\nMore.") is None
