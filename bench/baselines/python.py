"""The plain-Python baseline: what the classic recursive programs amount to.

One implementation serves two jobs: ``tests/naive.py`` is the reference the
kernels must match node for node, and the benchmark times the very same
code as the "plain Python" column. It is loaded from its file so that bench
does not depend on tests being a package.
"""

import importlib.util
from pathlib import Path

_NAIVE = Path(__file__).resolve().parents[2] / "tests" / "naive.py"


def load():
    """The module ``tests/naive.py``: backtrack, warnsdorff, greedy, count."""
    spec = importlib.util.spec_from_file_location("knight_naive_baseline", _NAIVE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
