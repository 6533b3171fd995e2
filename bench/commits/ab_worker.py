"""One side of `make bench-compare`, or one commit of `make bench-history`:
runs searches against one revision of knight.

Started as ``python bench/commits/ab_worker.py`` with ``PYTHONPATH`` set to
that revision's tree, so ``import knight`` finds that revision. Python puts
this script's own folder first on ``sys.path``: that is how
``named_search`` (this tree's bench/commits/named_search.py, which needs
nothing but knight's public API) is found whatever the other revision's
bench/ holds, an old flat one included. So this file and that one import
each other as top-level modules, and nothing else of bench/.

Protocol: a first line ``{"knight": path}`` says which knight was imported
(or ``{"import_error": why}``); then for each JSON search read on stdin, one
JSON outcome on stdout, or ``{"error": why}`` when that revision could not
run it (an old one may lack a later option): the worker carries on.
"""

import json
import sys
from dataclasses import asdict

from named_search import Search, pin_allocator


def _answer(search):
    try:
        return asdict(search.run())
    except Exception as problem:  # any failure of the old code is reported, not fatal
        return {"error": f"{type(problem).__name__}: {problem}"}


def main():
    pin_allocator()
    try:
        import knight
    except Exception as problem:  # a revision whose knight does not import at all
        print(json.dumps({"import_error": f"{type(problem).__name__}: {problem}"}), flush=True)
        return
    print(json.dumps({"knight": knight.__file__}), flush=True)
    for line in sys.stdin:
        print(json.dumps(_answer(Search.from_json(json.loads(line)))), flush=True)


if __name__ == "__main__":
    main()
