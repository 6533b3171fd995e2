"""Reference apart from journal: a dated figure lives in the journal,
notes/journal.md, with its commit and load. One reference page,
docs/results.md, repeats the current headline figures with their date,
commit and machine, and links the journal's sections. The other reference
pages (every other page of docs/, the README) say what a thing does, how to
read it and why it is built so, and link docs/results.md instead of quoting
dated runs. The Makefile's help says what a target does. None of these
carries a date or a commit hash. docs/history.md is held to the rule too: it is the reference of
`make bench-history` written by hand, not a generated page (the generated
HISTORY.md goes to results/, never to docs/), and its runs are journal
entries like any other.

One kind of commit hash is a name, not a date: the commit a frozen
reference was copied from (`bench/references/reference_kernels.py`,
`bench/references/reference_frontier.py`), which says what that reference is and never
moves. Those commits are listed in FROZEN_FROM, and the test checks that the
frozen files still name them.

Code comments and docstrings may say why a constant is what it is and name
the journal's section by its title; a date or a commit hash in them fails.
"""

import ast
import io
import re
import subprocess
import tokenize
from pathlib import Path

import pytest

from tests import python_source

ROOT = Path(__file__).resolve().parents[1]
DATE = re.compile(
    r"\b20\d\d-\d\d-\d\d\b"
    r"|\b\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) 20\d\d\b"
    r"|\b(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2},? 20\d\d\b"
)
# an abbreviated or full commit hash as the journal names one: 7 to 40 hex
# digits with at least one letter and one digit (all-digit ones are checked
# against the repository's commits below, since most numbers are not hashes)
COMMIT = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")
DIGITS = re.compile(r"\b\d{7,12}\b")
# a duration as the Makefile's help once quoted it ("3 min 49 s")
DURATION = re.compile(r"\b\d+(\.\d+)? ?(min|s)\b")
JOURNAL = "notes/journal.md"
# the one reference page that dates its figures, each row with its commit
RESULTS = "docs/results.md"
# the commits the frozen references were copied from: names of code, not of runs
FROZEN_FROM = {"125a638": "bench/references/reference_kernels.py", "939426f": "bench/references/reference_frontier.py"}


def _git_commits(tokens):
    """The all-digit tokens that name a commit of this repository (none
    outside a git checkout)."""
    tokens = sorted(set(tokens))
    if not tokens:
        return set()
    found = subprocess.run(
        ["git", "-C", str(ROOT), "cat-file", "--batch-check"],
        input="".join(f"{token}^{{commit}}\n" for token in tokens),
        capture_output=True,
        text=True,
    )
    if found.returncode:
        return set()
    lines = found.stdout.splitlines()
    return {token for token, line in zip(tokens, lines, strict=False) if line.split()[1:2] == ["commit"]}


def journal_marks(lines):
    """``[(line number, what)]`` for each date or commit hash in ``lines``
    (1-based), FROZEN_FROM's commits apart."""
    marks, digits = [], []
    for number, line in enumerate(lines, 1):
        marks += [(number, found[0]) for found in DATE.finditer(line)]
        marks += [(number, found[0]) for found in COMMIT.finditer(line) if found[0] not in FROZEN_FROM]
        digits += [(number, found[0]) for found in DIGITS.finditer(line)]
    commits = _git_commits(token for _, token in digits)
    marks += [(number, token) for number, token in digits if token in commits]
    return sorted(marks)


def _reference_pages():
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    return sorted(path.relative_to(ROOT).as_posix() for path in pages if path.relative_to(ROOT).as_posix() != RESULTS)


@pytest.mark.parametrize("page", _reference_pages())
def test_a_reference_page_links_the_journal_instead_of_dating_runs(page):
    marks = journal_marks((ROOT / page).read_text().splitlines())
    assert marks == [], f"{page}: dates and commits belong in {JOURNAL} and {RESULTS} (line, text)"


def _makefile_help():
    target = re.compile(r"^[\w.-]+:.*?## (.*)$")
    return [found[1] for line in (ROOT / "Makefile").read_text().splitlines() if (found := target.match(line))]


def test_the_makefile_help_quotes_no_measurement():
    helps = _makefile_help()
    assert helps
    assert [h for h in helps if DATE.search(h) or DURATION.search(h)] == []
    assert journal_marks(helps) == []


def test_the_frozen_references_name_the_commits_they_were_copied_from():
    for commit, path in FROZEN_FROM.items():
        assert commit in (ROOT / path).read_text(), f"{path} no longer names {commit}: update FROZEN_FROM"


def _python_files():
    for folder in ("knight", "bench"):
        yield from sorted((ROOT / folder).rglob("*.py"))


def prose(source):
    """``[(line number, text)]``: a module's comments and docstrings (a
    string that is data, such as a format's name, is not prose)."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found.append((token.start[0], token.string))
    for node in ast.walk(python_source.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            docstring = ast.get_docstring(node, clean=False)
            if docstring:
                found.append((node.body[0].lineno, docstring))
    return sorted(found)


def dated_prose(source):
    """The lines of a module's comments and docstrings that carry a date."""
    return sorted(number for number, text in prose(source) if DATE.search(text))


def test_no_comment_or_docstring_carries_a_date():
    dated = {}
    for path in _python_files():
        if lines := dated_prose(path.read_text()):
            dated[path.relative_to(ROOT).as_posix()] = lines
    assert dated == {}, f"dated figures belong in {JOURNAL}"


def test_no_comment_or_docstring_carries_a_date_or_a_commit():
    marked = {}
    for path in _python_files():
        found = []
        for number, text in prose(path.read_text()):
            found += [(number, token) for _, token in journal_marks(text.splitlines())]
        if found:
            marked[path.relative_to(ROOT).as_posix()] = found
    assert marked == {}, f"dates and commits belong in {JOURNAL}"


def test_the_rule_can_fail():
    source = '"""Measured 2026-12-01."""\nNAME = "within-2026-12-01b"\n# on 2026-11-30, load 5\nx = 1\n'
    assert dated_prose(source) == [1, 3]
    assert DURATION.search(" run the sweep (3 min 49 s on the 2-core machine)")
    lines = ["at commit e6211fc (load 2.8)", "on 1 December 2026", "frozen at 125a638", "6637920 tours", "sha ab12"]
    assert [number for number, _ in journal_marks(lines)] == [1, 2]
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode == 0:
        # a commit whose short hash is all digits is still found, by asking git
        assert journal_marks([f"the DP of {head.stdout.strip()}"]) != []
