"""This module writes JSON that every parser reads, and reads it back within bounds.

The reader is bounded against what a user's file can hold.

Python's ``json`` writes NaN and Infinity, which are not JSON: a float that
is not finite (a rate measured over no work, say) is written as null
instead. ``loads`` refuses text nested deeper than ``MAX_DEPTH`` before
``json.loads`` sees it: the parser recurses once a bracket, so a line of
100,000 ``[`` would end in a RecursionError, not in one line naming the
file. Pure Python: cheap to import."""

import json
import math
import re

# knight's own files nest 4 deep at most (meta.json); far below Python's
# recursion limit of 1000
MAX_DEPTH = 32
# what nests, and the strings (a bracket inside one is text): an unclosed
# string runs to the end, where json.loads refuses it
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\Z)|[\[\]{}]', re.DOTALL)


def finite(value):
    """``value`` with every non-finite float, at any depth, replaced by None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(item) for item in value]
    return value


def dumps(value, **options):
    """``json.dumps`` of ``finite(value)``; raises rather than write NaN."""
    return json.dumps(finite(value), allow_nan=False, **options)


def check_depth(text, most=MAX_DEPTH):
    """ValueError if ``text`` nests arrays and objects deeper than ``most``,
    found by one scan without recursion (brackets inside strings skipped)."""
    if text.count("[") + text.count("{") <= most:  # cannot nest deeper: no scan (a resume record has two)
        return
    depth = 0
    for token in _TOKENS.finditer(text):
        found = token.group()
        if found in ("[", "{"):
            depth += 1
            if depth > most:
                raise ValueError(f"nested deeper than {most} levels")
        elif found in ("]", "}"):
            depth -= 1


def loads(text):
    """``json.loads`` of ``text`` (str or bytes) once ``check_depth`` has
    passed it; ValueError (JSONDecodeError, UnicodeDecodeError) if it is
    not JSON or nests too deep."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8")
    check_depth(text)
    return json.loads(text)
