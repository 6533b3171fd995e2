"""Reference apart from journal: a dated figure lives in
docs/measurements.md, with its commit and load, and nowhere else. Code
comments and docstrings may say why a constant is what it is and point
there, the Makefile's help says what a target does, and the reference
pages link the journal instead of quoting dated runs."""

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
# a duration as the Makefile's help once quoted it ("3 min 49 s")
DURATION = re.compile(r"\b\d+(\.\d+)? ?(min|s)\b")
JOURNAL = "measurements.md"
# rewritten on another branch (the speed guard's pages and bench/commits/
# named_search.py's docstring): held to the rule once that branch is merged
NOT_YET = {"docs/speed-guard.md", "docs/ci.md", "bench/commits/named_search.py"}


def _python_files():
    for folder in ("knight", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.relative_to(ROOT).as_posix() not in NOT_YET:
                yield path


def dated_prose(source):
    """The lines of a module's comments and docstrings that carry a date
    (a string that is data, such as a format's name, is not prose)."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and DATE.search(token.string):
            found.append(token.start[0])
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            docstring = ast.get_docstring(node, clean=False)
            if docstring and DATE.search(docstring):
                found.append(node.body[0].lineno)
    return sorted(found)


def test_no_comment_or_docstring_carries_a_date():
    dated = {}
    for path in _python_files():
        if lines := dated_prose(path.read_text()):
            dated[path.relative_to(ROOT).as_posix()] = lines
    assert dated == {}, f"dated figures belong in docs/{JOURNAL}"


def test_the_makefile_help_quotes_no_measurement():
    target = re.compile(r"^[\w.-]+:.*?## (.*)$")
    helps = [found[1] for line in (ROOT / "Makefile").read_text().splitlines() if (found := target.match(line))]
    assert helps
    assert [h for h in helps if DATE.search(h) or DURATION.search(h)] == []


@pytest.mark.parametrize(
    "page",
    sorted(
        path.relative_to(ROOT).as_posix()
        for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
        if path.name != JOURNAL and path.relative_to(ROOT).as_posix() not in NOT_YET
    ),
)
def test_a_reference_page_links_the_journal_instead_of_dating_runs(page):
    text = (ROOT / page).read_text()
    assert [line for line in text.splitlines() if DATE.search(line)] == []


def test_the_rule_can_fail():
    source = '"""Measured 2026-12-01."""\nNAME = "within-2026-12-01b"\n# on 2026-11-30, load 5\nx = 1\n'
    assert dated_prose(source) == [1, 3]
    assert DURATION.search(" run the sweep (3 min 49 s on the 2-core machine)")
