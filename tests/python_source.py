"""Python source parsed for the house-rule tests, with the collector paused.

CPython 3.11 keeps the depth of ``ast.parse``'s tree building in one state
shared by every call. If the cyclic collector runs in the middle of a parse
(the parse allocates a node for every token, so it often does) and a
finalizer it calls parses too, the inner parse resets that depth, and the
outer one ends in ``SystemError: AST constructor recursion depth mismatch``.
A finalizer that parses is not exotic: an asyncio task that Dask's gather
left with an exception logs it when collected, and 3.11's traceback module
parses the failing line to place its carets. The cluster tests leave such
tasks behind, and one was collected inside a later test's parse, failing a
house rule that had nothing wrong with it. With the collector paused no
finalizer runs during the parse; what it would have collected waits for the
next collection.
"""

import ast
import gc
from pathlib import Path


def parse(source, filename="<unknown>"):
    """``ast.parse(source, filename)`` with no collection during it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(source, filename)
    finally:
        if enabled:
            gc.enable()


def parse_file(path):
    """The tree of the Python file at ``path``, named by its path."""
    path = Path(path)
    return parse(path.read_text(), str(path))
