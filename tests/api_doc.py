"""Write docs/api.md, the reference of the Python API, from the docstrings of ``knight.__all__``.

Run ``python -m tests.api_doc`` (``make api-doc``) after a docstring or an
export changes. ``tests/test_api_doc.py`` fails while the committed page
differs from what this module writes, so that the page and the docstrings
cannot drift apart.
"""

import inspect
import re
import sys
import warnings
from pathlib import Path

from numpydoc.docscrape import NumpyDocString

import knight

PAGE = Path(__file__).resolve().parents[1] / "docs" / "api.md"

INTRODUCTION = """\
# The Python API

This page is written by `python -m tests.api_doc` (`make api-doc`) from the
docstrings of the names that `knight` exports. Do not edit it by hand; edit
the docstrings and run that command again.

`import knight` gives the functions and classes below. Squares are 0-based
`(row, col)` pairs in the library, while the command line numbers them from 1.
Every function raises `knight.InvalidArgument`, a `ValueError`, for a bad
argument. Importing `knight` does not load Numba: the first search or count
does. With `NUMBA_DISABLE_JIT=1` everything runs as plain Python. Each
docstring also holds examples, which `help(knight.solve)` shows and the tests
run.

How a count is made (engines, work units, resume files, Dask) is explained in
[counting.md](counting.md) and [counting-dp.md](counting-dp.md). The terms
(square, node, status) are defined in [layout.md](layout.md).
"""

# the sections listed under each name, in this order
SECTIONS = ("Parameters", "Attributes", "Returns", "Raises")
_LITERAL = re.compile(r"``([^`]+)``")


def markdown(text):
    """Return reStructuredText's inline literals as Markdown code spans."""
    return _LITERAL.sub(r"`\1`", text)


def paragraphs(lines):
    """Return docstring lines as Markdown paragraphs, each joined onto one line."""
    text = "\n".join(lines).strip()
    return [markdown(" ".join(block.split())) for block in text.split("\n\n") if block.strip()]


def signature(name, obj):
    """Return the call signature of a public function or class as one line."""
    try:
        found = inspect.signature(obj)
    except ValueError:
        # a class that keeps its base's built-in constructor, such as an exception
        return f"class {name}({obj.__base__.__name__})"
    if "." in name:  # a method: its instance is not an argument the reader passes
        found = found.replace(parameters=list(found.parameters.values())[1:])
    shown = str(found)
    if inspect.isclass(obj):
        shown = shown.removesuffix(" -> None")
    return f"{name}{shown}"


def parsed(obj):
    """Return the numpydoc sections of an object's docstring."""
    with warnings.catch_warnings():
        # a docstring still in prose has no sections to warn about
        warnings.simplefilter("ignore")
        return NumpyDocString(inspect.getdoc(obj) or "")


def section(title, entries):
    """Return one Parameters, Returns or Raises section as a Markdown list."""
    lines = [f"**{title}**", ""]
    for entry in entries:
        described = " ".join(paragraphs(entry.desc))
        if entry.name:
            kind = f" ({markdown(entry.type)})" if entry.type else ""
            lines.append(f"- `{entry.name}`{kind}: {described}".rstrip(": "))
        else:
            lines.append(f"- {markdown(entry.type)}: {described}".rstrip(": "))
    return [*lines, ""]


def entry(name, obj, level, called=True):
    """Return the Markdown of one public name: its heading, signature, description and sections."""
    doc = parsed(obj)
    lines = [f"{level} {name}", ""]
    if called:
        lines += ["```", signature(name, obj), "```", ""]
    for paragraph in paragraphs(doc["Summary"]) + paragraphs(doc["Extended Summary"]):
        lines += [paragraph, ""]
    for title in SECTIONS:
        if doc[title]:
            lines += section(title, doc[title])
    return lines


def members(name, cls):
    """Return the Markdown of the public methods and properties a class defines itself."""
    lines = []
    for member, value in vars(cls).items():
        if member.startswith("_"):
            continue
        if inspect.isfunction(value):
            lines += entry(f"{name}.{member}", value, "####")
        elif isinstance(value, property):
            lines += entry(f"{name}.{member}", value.fget, "####", called=False)
    return lines


def render():
    """Return the text of docs/api.md for the current docstrings.

    Returns
    -------
    str
        The page: an introduction, then each function of ``knight.__all__``,
        then each class with its public members.
    """
    objects = {name: getattr(knight, name) for name in knight.__all__}
    functions = [name for name, obj in objects.items() if not inspect.isclass(obj)]
    classes = [name for name, obj in objects.items() if inspect.isclass(obj)]
    lines = [INTRODUCTION, "## Functions", ""]
    for name in functions:
        lines += entry(name, objects[name], "###")
    lines += ["## Classes", ""]
    for name in classes:
        lines += entry(name, objects[name], "###")
        lines += members(name, objects[name])
    return "\n".join(lines).rstrip("\n") + "\n"


def main():
    """Write docs/api.md from the docstrings.

    Returns
    -------
    int
        0, the exit status.
    """
    PAGE.write_text(render())
    print(f"wrote {PAGE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
