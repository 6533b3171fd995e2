"""This script, run by each Numba release's Python, times knight's kernels under that release.

bench/by_hand/numba_matrix/matrix_run.py starts it. It times the kernels
as the toolchain comparison does, with the arrays of
bench/baselines/prepared.py and the timing of call_clock. It reads one JSON
request a line on stdin and writes one JSON answer a line on stdout.

A request is a search's fields (bench/named_search.Search); the
answer ``status``, ``nodes``, ``seconds``, ``cpu_seconds`` of one call, or,
for ``{"version": true}``, the versions of Numba, llvmlite and NumPy loaded.
It imports only the standard library, NumPy, Numba and the repository (on
``sys.path`` from this file's place): no matplotlib, nothing of the bench
extra, which these environments do not have.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.baselines import call_clock, numba_bound, prepared  # after the path it needs
from bench.timing.named_search import Search
from bench.timing.worker_main import run_worker

_bound = {}


def _call(search):
    if search.key not in _bound:
        ready = prepared.prepare(search)
        call, _ = numba_bound.NumbaKernels().bind(ready)
        _bound[search.key] = ready, call
    return _bound[search.key]


def versions():
    import llvmlite
    import numba
    import numpy
    from llvmlite import binding

    return {
        "numba": numba.__version__,
        "llvmlite": llvmlite.__version__,
        "numpy": numpy.__version__,
        "llvm": ".".join(map(str, binding.llvm_version_info)),
    }


def answer(request):
    if request.get("version"):
        return versions()
    ready, call = _call(Search.from_json(request))
    measured = call_clock.timed(call)
    status, nodes = prepared.answer_words(ready, measured.answer)
    return {"status": status, "nodes": nodes, "seconds": measured.seconds, "cpu_seconds": measured.cpu_seconds}


def main():
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=True)


if __name__ == "__main__":
    run_worker(main)
