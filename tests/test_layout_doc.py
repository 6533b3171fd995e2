"""docs/layout.md against the tree: every tracked file of knight/, bench/
and tests/ (and the top-level files it lists) has its row, and every row
names a file that exists. The page went stale once (it described a commit
three weeks old); this test is the house rule that keeps it true."""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = ROOT / "docs" / "layout.md"
# the files a section's table lists, relative to its folder ("" for the top level)
SECTIONS = {"Top level": "", "knight/": "knight/", "bench/": "bench/", "tests/": "tests/"}
# files no one edits, kept beside the code: not rows of their own
UNLISTED = re.compile(r"(^|/)(__pycache__/|\.gitignore$)|\.(png|json|csv|md)$")
_ROW = re.compile(r"^\| `([^`]+)` \|")


def _tables():
    """``{section prefix: {file named in a row}}`` from docs/layout.md."""
    tables, prefix = {}, None
    for line in LAYOUT.read_text().splitlines():
        if line.startswith("## "):
            title = line[3:]
            prefix = next((folder for name, folder in SECTIONS.items() if title.startswith(name)), None)
            if prefix is not None:
                tables.setdefault(prefix, set())
        elif prefix is not None and (found := _ROW.match(line)):
            tables[prefix].add(prefix + found[1])
    return tables


def _tracked(prefix):
    command = ["git", "-C", str(ROOT), "ls-files", "--cached", "--others", "--exclude-standard"]
    listed = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    files = {name for name in listed.split() if not UNLISTED.search(name)}
    if prefix:
        return {name for name in files if name.startswith(prefix)}
    return {name for name in files if "/" not in name or name.startswith((".ci/", ".github/"))}


@pytest.fixture(scope="module")
def tables():
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse"], capture_output=True).returncode:
        pytest.skip("not a git checkout")
    return _tables()


@pytest.mark.parametrize("prefix", ["knight/", "bench/", "tests/"])
def test_every_file_has_its_row_and_every_row_its_file(tables, prefix):
    tracked, rows = _tracked(prefix), tables[prefix]
    assert sorted(tracked - rows) == [], f"files without a row in docs/layout.md ({prefix})"
    assert sorted(rows - tracked) == [], f"rows of docs/layout.md naming no tracked file ({prefix})"


def test_every_top_level_row_names_a_file(tables):
    assert tables[""] and sorted(tables[""] - _tracked("")) == []


def test_the_rule_can_fail(tables, monkeypatch):
    """A table with a row removed is caught: the check is not vacuous."""
    rows = set(tables["knight/"])
    rows.discard("knight/cli/parser.py")
    assert "knight/cli/parser.py" in _tracked("knight/") - rows
