"""Names a module offers but imports only on first use (PEP 562's module
``__getattr__``): the public API and the harness's loads Numba only when a
search or a count is asked for, so ``import knight`` stays cheap."""

import importlib


def lazy_getattr(module, table):
    """A module ``__getattr__`` that imports ``table[name]`` (a module
    path) on first use of ``name``; AttributeError for any other name."""

    def __getattr__(name):
        if name in table:
            return getattr(importlib.import_module(table[name]), name)
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__
