"""This module writes index.html of a run folder, which is REPORT.md as one self-contained page.

The figures are embedded as base64 data (PNG, and SVG for the tours), there are no scripts and no
external URLs, so the file opens from disk in any browser, alone (mailed,
downloaded from a CI artifact) as well as in its folder. The converter reads
the subset of Markdown that bench/report/run_report.py writes: headings, paragraphs,
lists, pipe tables, images, inline code and bold.
"""

import base64
import html
import re
from pathlib import Path

from bench.report import summary
from knight.harness_api import atomic_write

INDEX = "index.html"

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 1200px; margin: 2em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: left; }
th { background: #f3f3f3; }
tr:nth-child(even) td { background: #fafafa; }
img { max-width: 100%; height: auto; display: block; margin: 1em 0; }
code { background: #f3f3f3; padding: 0 3px; border-radius: 3px; }
"""
_IMAGE = re.compile(r"^!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)\)$")


# a backslash before ASCII punctuation makes it a plain character, as in
# CommonMark (bench/text_cells.py's ``plain`` writes such escapes)
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_HELD = re.compile("\x00([0-9]+)\x00")


def _inline(text):
    """Escape, then `code` and **bold**; a backslash-escaped character stays itself."""
    held = []

    def hold(match):
        held.append(match[1])
        return f"\x00{len(held) - 1}\x00"

    kept = _ESCAPE.sub(hold, text.replace("\x00", ""))
    escaped = html.escape(kept, quote=False)
    escaped = re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)
    escaped = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", escaped)
    return _HELD.sub(lambda match: html.escape(held[int(match[1])]), escaped)


def _cells(line):
    """A table line's cells, split at each pipe that no backslash escapes."""
    cells, cell, characters = [], "", iter(line.strip().removeprefix("|").removesuffix("|"))
    for character in characters:
        if character == "\\":
            cell += character + next(characters, "")
        elif character == "|":
            cells.append(cell.strip())
            cell = ""
        else:
            cell += character
    return [*cells, cell.strip()]


def _table(lines):
    header, body = _cells(lines[0]), [_cells(line) for line in lines[2:]]
    head = "".join(f"<th>{_inline(cell)}</th>" for cell in header)
    rows = "".join("<tr>" + "".join(f"<td>{_inline(cell)}</td>" for cell in row) + "</tr>" for row in body)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def inside(folder, name):
    """The file ``name`` names in ``folder``, or None when it is not a file inside it.

    Parameters
    ----------
    folder : path-like
        The run folder.
    name : str
        A path relative to ``folder``, as an image line of REPORT.md gives it.

    Returns
    -------
    pathlib.Path or None
        The resolved path (symbolic links followed), when that is a file
        inside the resolved ``folder``; None for an absolute path, a
        ``../`` way out, a link that leads out, or no file.

    Examples
    --------
    >>> inside("/tmp", "/etc/hostname") is None
    True
    """
    root = Path(folder).resolve()
    try:
        path = (root / name).resolve()
    except (OSError, RuntimeError, ValueError):  # a loop of links, a NUL
        return None
    return path if path.is_relative_to(root) and path.is_file() else None


def _image(match, folder):
    """An <img> with the image's bytes inside; a missing file, or one outside
    the run folder, becomes a note: the page is shared, so it embeds
    nothing but the run's own files."""
    path = inside(folder, match["src"])
    alt = html.escape(match["alt"])
    if path is None:
        return f"<p><em>(figure {html.escape(match['src'])} is missing)</em></p>"
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    kind = "svg+xml" if path.suffix == ".svg" else "png"
    return f'<img alt="{alt}" title="{alt}" src="data:image/{kind};base64,{data}">'


def _blocks(text):
    """Runs of non-blank lines: each is a heading, table, list, image or paragraph."""
    block = []
    for line in text.splitlines():
        if line.strip():
            block.append(line)
        elif block:
            yield block
            block = []
    if block:
        yield block


def _block(lines, folder):
    first = lines[0]
    heading = re.match(r"^(#{1,6}) (.*)$", first)
    if heading and len(lines) == 1:
        level = len(heading[1])
        return f"<h{level}>{_inline(heading[2])}</h{level}>"
    if first.startswith("|") and len(lines) >= 2 and set(lines[1].replace("|", "").strip()) <= set("-: "):
        return _table(lines)
    image = _IMAGE.match(first.strip())
    if image and len(lines) == 1:
        return _image(image, folder)
    if all(line.startswith(("- ", "  ")) for line in lines):
        return _list(lines)
    return "<p>" + _inline(" ".join(line.strip() for line in lines)) + "</p>"


def _list(lines):
    items, current = [], []
    for line in lines:
        if line.startswith("- ") and current:
            items.append(" ".join(current))
            current = []
        current.append(line[2:].strip() if line.startswith("- ") else line.strip())
    items.append(" ".join(current))
    return "<ul>" + "".join(f"<li>{_inline(item)}</li>" for item in items) + "</ul>"


def render(markdown, folder, title="Knight's-tour benchmark"):
    """The page for ``markdown``, whose images are files in ``folder``."""
    body = summary.linked("\n".join(_block(lines, folder) for lines in _blocks(markdown)))
    # a folder's name that is not UTF-8 is shown as escapes, and the page still writes
    title = title.encode("utf-8", "backslashreplace").decode("utf-8")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>\n<body>\n{body}\n</body></html>\n"
    )


def write(folder, markdown, title="Knight's-tour benchmark"):
    """Write ``folder/index.html`` from the text of its report; return its path."""
    folder = Path(folder)
    path = folder / INDEX
    text = render(markdown, folder, title)
    atomic_write.replace(path, lambda file: file.write(text), shared=True)
    return path
