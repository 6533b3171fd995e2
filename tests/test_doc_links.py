"""Every relative link of the README, of docs/*.md and of notes/*.md
resolves: to a file of the tree, and for `#anchor` to a heading of the
Markdown page it names, slugged as GitHub slugs headings. The pages link
each other. A reference page links docs/results.md for its figures, and
docs/results.md links the sections of the journal, notes/journal.md. A
heading that is renamed or moved must not leave a link dangling."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP = [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
PAGES = sorted([*TOP, *(ROOT / "docs").glob("*.md"), *(ROOT / "notes").glob("*.md")])
# [text](target) and ![alt](target); a target may carry a "title"
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


def slug(heading):
    """GitHub's anchor of a heading's text: markup dropped, lower case,
    punctuation removed but for hyphens and underscores, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def _prose_lines(path, spans=False):
    """The page's lines outside fenced code blocks, code spans blanked
    unless ``spans``."""
    inside = False
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            yield number, line if spans else CODE_SPAN.sub("", line)


def anchors(path):
    """Every anchor of a page's headings, with GitHub's -1, -2 for repeats."""
    seen, found = {}, set()
    for _, line in _prose_lines(path, spans=True):
        if heading := re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line):
            base = slug(heading[1])
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path):
    """``[(line number, target)]``: the page's relative links."""
    return [
        (number, found[1])
        for number, line in _prose_lines(path)
        for found in LINK.finditer(line)
        if not re.match(r"^[a-z][a-z0-9+.-]*:", found[1])
    ]


def broken(path):
    """The links of ``path`` that resolve to no file or no heading."""
    bad = []
    for number, target in links(path):
        name, _, anchor = target.partition("#")
        file = (path.parent / name).resolve() if name else path
        if not file.exists():
            bad.append((number, target, "no such file"))
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            bad.append((number, target, "no such heading"))
    return bad


@pytest.mark.parametrize("page", PAGES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page):
    assert broken(page) == []


def test_the_pages_link_each_other():
    assert sum(len(links(page)) for page in PAGES) > 50


def test_the_check_can_fail(tmp_path):
    (tmp_path / "other.md").write_text("# A `code` heading: (with) punctuation\n## Twice\n## Twice\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#a-code-heading-with-punctuation) [ok](other.md#twice-1) [ok](#here)\n"
        "# Here\n[bad](other.md#thrice) [bad](missing.md) ![bad](gone.png)\n"
        "`[not a link](nowhere.md)` [web](https://example.com/x)\n```\n[in code](nowhere.md)\n```\n"
    )
    assert [(number, target) for number, target, _ in broken(page)] == [
        (3, "other.md#thrice"),
        (3, "missing.md"),
        (3, "gone.png"),
    ]
