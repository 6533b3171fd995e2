"""This module writes the numbers, strings and tables that every section of REPORT.md shares.

Every string that a user or the machine controls (a command line, a folder
name, an environment variable, a compiler's version) goes through ``plain``
on its way into REPORT.md: Markdown must read it as text, never as a line
break, a table cell, a link or an image. Every cell of a table is plain.
"""

import re
import unicodedata

# what Markdown could read as syntax inside a line: escapes, code, emphasis,
# links and images, raw HTML and entities, table cells
_SYNTAX = re.compile(r"([\\`*\[\]<>!|&])")
# line breaks, other control characters and lone surrogates (a name that is
# not UTF-8): shown as escapes, so that no string adds a line or fails to encode
_HIDDEN = ("Cc", "Cs", "Zl", "Zp")


def _visible(character):
    if unicodedata.category(character) not in _HIDDEN:
        return character
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def plain(text):
    """``text`` as Markdown that reads as the text itself, on one line.

    Parameters
    ----------
    text : object
        Any value; its ``str`` is escaped.

    Returns
    -------
    str
        The text with Markdown's syntax characters escaped by a backslash,
        and line breaks, control characters and lone surrogates written as
        ``\\xNN`` or ``\\uNNNN``.

    Examples
    --------
    >>> plain("a|b ![x](y)")
    'a\\\\|b \\\\!\\\\[x\\\\](y)'
    >>> plain("two\\nlines")
    'two\\\\x0alines'
    """
    return "".join(_visible(character) for character in _SYNTAX.sub(r"\\\1", str(text)))


def count_text(value):
    """An exact count with thousands separators; blank for None."""
    return "" if value is None else f"{int(value):,}"


def seconds_text(value):
    """Seconds in the unit that reads best: 3.1 µs, 0.36 ms, 1.05 s."""
    if value is None:
        return ""
    for unit, scale in (("s", 1), ("ms", 1e-3), ("\u00b5s", 1e-6)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value * 1e9:.3g} ns"


def rate_text(value):
    """A rate in k, M or G: 3.1M."""
    if value is None:
        return ""
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g}{unit}"
    return f"{value:.3g}"


def markdown_table(header, lines):
    """A Markdown table whose every cell is ``plain`` text.

    Parameters
    ----------
    header : sequence
        The column headings.
    lines : iterable of sequences
        The rows, one value per column.

    Returns
    -------
    str
        The table's lines: one for the header, one for the rule, one a row.

    Examples
    --------
    >>> print(markdown_table(("a", "b"), [(1, "x|y")]))
    | a | b |
    |---|---|
    | 1 | x\\|y |
    """
    out = ["| " + " | ".join(map(plain, header)) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(map(plain, line)) + " |" for line in lines]
    return "\n".join(out)
