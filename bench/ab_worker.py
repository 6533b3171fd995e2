"""One side of `make bench-compare`: runs searches against one revision of knight.

Started as ``python bench/ab_worker.py`` with ``PYTHONPATH`` set to that
revision's tree, so ``import knight`` finds that revision. Python puts this
script's own folder first on ``sys.path``: that is how ``searches`` (this
tree's bench/searches.py, which needs nothing but knight's public API) is
found whatever the other revision's bench/ holds.

Protocol: a first line ``{"knight": path}`` says which knight was imported;
then for each JSON search read on stdin, one JSON outcome on stdout.
"""

import json
import sys
from dataclasses import asdict

from searches import Search


def main():
    import knight

    print(json.dumps({"knight": knight.__file__}), flush=True)
    for line in sys.stdin:
        outcome = Search.from_json(json.loads(line)).run()
        print(json.dumps(asdict(outcome)), flush=True)


if __name__ == "__main__":
    main()
