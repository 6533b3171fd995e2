"""This module lets a module offer names that it imports only on first use.

It uses PEP 562's module ``__getattr__``. The public API and the harness API
load Numba only when a search or a count is asked for, so ``import knight``
stays cheap."""

import importlib


def lazy_getattr(module, table):
    """A module ``__getattr__`` that imports ``table[name]`` (a module
    path) on first use of ``name`` and gives that module's ``name``, or the
    module itself where it is named ``name``; AttributeError for any other."""

    def __getattr__(name):
        if name in table:
            found = importlib.import_module(table[name])
            return found if found.__name__.rpartition(".")[2] == name else getattr(found, name)
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__
