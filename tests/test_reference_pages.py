"""The reference pages and the code cite no history.

The README and the pages of docs/ are reference and explanation. They name
no issue number, no commit hash and no repair ("mend", "mended"). The one
exception is docs/results.md, whose table gives each headline figure's
commit. The reference pages link docs/results.md for their figures, and
only docs/results.md links the journal, notes/journal.md.

Code comments and docstrings under knight/ and bench/ never name the
journal's file. Where a design rests on a measurement, a comment names the
journal's section by its title, as in `(journal: "Prefetches in emit and
reduce")`, and that title must be a heading of the journal. The Makefile's
and pyproject.toml's comments follow the same rule. The README stays a
front door of at most 120 lines.
"""

import io
import re
import tokenize
from pathlib import Path

import pytest

from tests.test_dated_figures import COMMIT, prose

ROOT = Path(__file__).resolve().parents[1]
JOURNAL = ROOT / "notes" / "journal.md"
RESULTS = ROOT / "docs" / "results.md"
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
README_LINES = 120
ISSUE = re.compile(r"\bissues? \d+|(?<![\w&])#\d+\b", re.IGNORECASE)
MEND = re.compile(r"\bmend(s|ed|ing)?\b", re.IGNORECASE)
JOURNAL_FILE = re.compile(r"measurements\.md|journal\.md")
# a comment's citation of a journal section: journal: "Title"
CITATION = re.compile(r'journal: "([^"]+)"')
# the target of a Markdown link, dropped before a page's text is read
TARGET = re.compile(r"\]\([^)]*\)")


def _page(path):
    """The text of ``path`` as a reader sees it: link targets dropped."""
    return [(number, TARGET.sub("]", line)) for number, line in enumerate(path.read_text().splitlines(), 1)]


def history_marks(path):
    """``[(line number, text)]``: the issue numbers, repairs and (outside
    docs/results.md) commit hashes on a reference page."""
    marks = []
    for number, line in _page(path):
        patterns = (ISSUE, MEND) if path == RESULTS else (ISSUE, MEND, COMMIT)
        marks += [(number, found[0]) for pattern in patterns for found in pattern.finditer(line)]
    return sorted(marks)


def journal_links(path):
    """The lines of ``path`` that link the journal."""
    text = path.read_text().splitlines()
    return [number for number, line in enumerate(text, 1) if re.search(r"\]\([^)]*(journal|measurements)\.md", line)]


def _label(path):
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=_label)
def test_a_reference_page_cites_no_issue_hash_or_repair(page):
    assert history_marks(page) == []


@pytest.mark.parametrize("page", [path for path in PAGES if path != RESULTS], ids=_label)
def test_a_reference_page_links_results_not_the_journal(page):
    assert journal_links(page) == []


def test_results_links_the_journal():
    assert len(journal_links(RESULTS)) >= 5


def test_the_readme_is_a_front_door():
    assert len((ROOT / "README.md").read_text().splitlines()) <= README_LINES


def _python_files():
    for folder in ("knight", "bench"):
        yield from sorted((ROOT / folder).rglob("*.py"))


def _hash_comments(path):
    """``[(line number, text)]``: the comments of a Makefile or a TOML file."""
    return [(number, line) for number, line in enumerate(path.read_text().splitlines(), 1) if "#" in line]


def _comment_blocks(source):
    """A module's comments, consecutive lines joined, and its docstrings:
    ``[(line number, text)]``, so that a citation may wrap."""
    blocks, last = [], None
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        text = token.string.lstrip("#").strip()
        if last is not None and token.start[0] == last + 1:
            blocks[-1] = (blocks[-1][0], f"{blocks[-1][1]} {text}")
        else:
            blocks.append((token.start[0], text))
        last = token.start[0]
    docstrings = [(number, text) for number, text in prose(source) if not text.lstrip().startswith("#")]
    return blocks + [(number, " ".join(text.split())) for number, text in docstrings]


def journal_titles():
    """The titles a comment may cite: each heading of the journal, also
    without its closing parenthesis and cut at its first colon."""
    titles = set()
    for line in JOURNAL.read_text().splitlines():
        if heading := re.match(r"^#{1,6}\s+(.*?)\s*$", line):
            bare = re.sub(r"\s*\([^)]*\)$", "", heading[1])
            titles |= {heading[1], bare, bare.split(": ")[0]}
    return titles


def bad_citations(text, titles):
    """The journal titles that ``text`` cites and the journal lacks."""
    return [title for title in CITATION.findall(" ".join(text.split())) if title not in titles]


def test_no_comment_or_docstring_names_the_journals_file():
    named = {}
    for path in _python_files():
        found = [number for number, text in prose(path.read_text()) if JOURNAL_FILE.search(text)]
        if found:
            named[_label(path)] = found
    for path in (ROOT / "Makefile", ROOT / "pyproject.toml"):
        found = [number for number, line in _hash_comments(path) if JOURNAL_FILE.search(line)]
        if found:
            named[_label(path)] = found
    assert named == {}, 'cite the journal\'s section by its title: (journal: "Title")'


def test_every_cited_section_is_a_heading_of_the_journal():
    titles, bad, cited = journal_titles(), {}, 0
    for path in _python_files():
        for number, text in _comment_blocks(path.read_text()):
            cited += len(CITATION.findall(text))
            if missing := bad_citations(text, titles):
                bad[f"{_label(path)}:{number}"] = missing
    assert bad == {}
    assert cited > 10


def test_the_rules_can_fail(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "Fixed in issue 30 and #12, mended at `e6211fc`.\n"
        "[a link](other.md#8-x-8-open-issue-30) is fine, and so is amend or C# 1.\n"
        "[measured](../notes/journal.md#ci)\n"
    )
    assert [number for number, _ in history_marks(page)] == [1, 1, 1, 1]
    assert journal_links(page) == [3]
    source = '# the partitioned step (journal: "The partitioned\n# step from 50,000 states")\nx = 1\n'
    assert bad_citations(_comment_blocks(source)[0][1], journal_titles()) == []
    assert bad_citations('(journal: "A section that is not there")', journal_titles()) == [
        "A section that is not there"
    ]
    assert JOURNAL_FILE.search("the runs (docs/measurements.md)")
