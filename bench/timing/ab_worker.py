"""This module runs searches against one revision of knight, for an A/B comparison or a history.

`make bench-compare` runs it for each side, and `make bench-history` for
each commit.

Started as ``python bench/timing/ab_worker.py`` with ``PYTHONPATH`` set to
that revision's tree, so ``import knight`` finds that revision. Python puts
this script's own folder first on ``sys.path``: that is how
``named_search`` (this tree's bench/timing/named_search.py, which needs
nothing but knight's public API) is found whatever the other revision's
bench/ holds, an old flat one included. So this file imports that one as
a top-level module, and nothing else of bench/.

Protocol: a first line ``{"knight": path}`` says which knight was imported
(or ``{"import_error": why}``); then for each JSON search read on stdin, one
JSON outcome on stdout, or ``{"error": why}`` when that revision could not
run it (an old one may lack a later option): the worker carries on.

``KNIGHT_GUARD_TIME_PLANT={"key": k, "fraction": f}`` (JSON; the speed
guard's self-test sets it on one worker) makes search ``k`` take a fraction
``f`` longer: after the call the worker spins for ``f`` times the CPU time
the call took, and the outcome's clocks cover the spin too, read as they
read the call.
"""

import json
import os
import sys
import time
from dataclasses import asdict, replace

from named_search import Search, cpu_clock, pin_allocator
from worker_main import run_worker

TIME_PLANT = "KNIGHT_GUARD_TIME_PLANT"


def _spun(outcome, fraction):
    """``outcome`` with ``fraction`` of its CPU time more spent, on both clocks."""
    wall_began, cpu_began = time.perf_counter(), cpu_clock()
    while cpu_clock() - cpu_began < fraction * outcome.cpu_seconds:
        pass
    spin_wall, spin_cpu = time.perf_counter() - wall_began, cpu_clock() - cpu_began
    return replace(outcome, seconds=outcome.seconds + spin_wall, cpu_seconds=outcome.cpu_seconds + spin_cpu)


def _answer(search, plant):
    try:
        outcome = search.run()
    except Exception as problem:  # any failure of the old code is reported, not fatal
        return {"error": f"{type(problem).__name__}: {problem}"}
    planted = plant is not None and plant["key"] == search.key
    return asdict(_spun(outcome, plant["fraction"]) if planted else outcome)


def main():
    pin_allocator()
    try:
        import knight
    except Exception as problem:  # a revision whose knight does not import at all
        print(json.dumps({"import_error": f"{type(problem).__name__}: {problem}"}), flush=True)
        return
    print(json.dumps({"knight": knight.__file__}), flush=True)
    plant = json.loads(os.environ.get(TIME_PLANT, "null"))
    for line in sys.stdin:
        print(json.dumps(_answer(Search.from_json(json.loads(line)), plant)), flush=True)


if __name__ == "__main__":
    run_worker(main)
