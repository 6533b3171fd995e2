"""This script, run by pypy3, times the plain-Python reference under PyPy.

bench/baselines/pypy_runner.py starts it. It reads one JSON request a line
on stdin and writes one JSON answer a line on stdout. It uses the standard
library only and Python 3.9 syntax, since Debian's pypy3 is 3.9.

A request holds a search's fields (``method``, ``rows``, ``cols``,
``start``, ``closed``, ``budget``, ``tiebreak``, ``budget_cap``) and
``empty_calls``: 0 times the search once (``status``, ``nodes``, ``seconds``,
``cpu_seconds``), after one empty call of its arguments with ``with_empty``
(``empty_cpu_seconds``); more times that many empty calls back to back
(``seconds`` and ``cpu_seconds``, lists).
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.baselines import call_clock, python_bound  # after the path it needs
from bench.timing.worker_main import run_worker


def answer(request):
    empty_calls = request.pop("empty_calls")
    with_empty = request.pop("with_empty")
    call, empty = python_bound.bind(**request)
    if empty_calls:
        seconds, cpu_seconds = call_clock.empty_costs(empty, empty_calls)
        return {"seconds": seconds, "cpu_seconds": cpu_seconds}
    answer = {"empty_cpu_seconds": call_clock.timed(empty).cpu_seconds} if with_empty else {}
    measured = call_clock.timed(call)
    status, nodes = measured.answer
    return {
        **answer,
        "status": status,
        "nodes": nodes,
        "seconds": measured.seconds,
        "cpu_seconds": measured.cpu_seconds,
    }


def main():
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=True)


if __name__ == "__main__":
    run_worker(main)
