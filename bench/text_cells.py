"""This module writes the numbers and tables that every section of REPORT.md shares."""


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
    """A Markdown table."""
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(cell) for cell in line) + " |" for line in lines]
    return "\n".join(out)
