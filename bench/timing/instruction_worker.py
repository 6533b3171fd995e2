"""This script counts the instructions of one revision of knight for ``make bench-check``.

It is one side of the count of bench/guard/instructions.py, run under
``valgrind --tool=callgrind --instr-atstart=no``.

Started as ``python bench/timing/instruction_worker.py SHIM`` with ``PYTHONPATH``
set to that revision's tree, as bench/timing/ab_worker.py is (and for the same
reason it imports nothing of bench/ but its neighbour named_search). SHIM is
the built bench/guard/callgrind_shim.c. Reads one JSON request on stdin:
``{"searches": [...], "repeats": n, "plant": {"key": k, "fraction": f} | null}``.

Every search runs ``WARM_CALLS`` times uninstrumented (compilation or the
cache's load, the first calls of everything); then instrumentation is switched on, once (each
switch throws away valgrind's translations, seconds a time), and each search
runs ``repeats`` times, its count zeroed before the call and dumped as
``INDEX#REPEAT`` right after it. One JSON line per search on stdout: the
outcome of its first call, or ``{"error": why}``.

The plant (the self-test's): search ``key`` is counted ``repeats`` times
more, dumped as ``P#REPEAT``, each window holding after the call the same
search again with its budget cut to ``fraction`` of the nodes the call
placed: that much more work counted through the real measuring path. Its
answer is one more line, after the others.
"""

import ctypes
import json
import sys
from dataclasses import asdict, replace

from named_search import Search, pin_allocator
from worker_main import run_worker


def _with_plant(search, fraction):
    """``search``'s call, then the planted extra work inside the same window."""

    def run():
        outcome = search.run()
        replace(search, budget=max(1, round(fraction * outcome.nodes))).run()
        return outcome

    return run


# uncounted calls before the counted ones: the first compiles or loads the
# cache; Python 3.11's interpreter specialises its bytecode over the first
# calls, and after one the DP's first counted call read above the rest
# (journal: "bench/'s comments")
WARM_CALLS = 2
# seconds: longer than any counted call runs under valgrind
SWITCH_INTERVAL = 1000.0


def _first_calls(searches):
    """Each search's uncounted calls: the first's outcome as a dict, or its error."""
    return [_warmed(search) for search in searches]


def _warmed(search):
    try:
        first = asdict(search.run())
        for _ in range(WARM_CALLS - 1):
            search.run()
    except Exception as problem:  # an older knight may lack an option: reported, not fatal
        return {"error": f"{type(problem).__name__}: {problem}"}
    return first


def _count(shim, calls, repeats):
    """``calls`` (dump name -> call) each counted ``repeats`` times."""
    shim.knight_callgrind_instrument()
    for name, call in calls.items():
        for repeat in range(repeats):
            shim.knight_callgrind_zero()
            call()
            shim.knight_callgrind_dump(f"{name}#{repeat}".encode())
    shim.knight_callgrind_stop()


def main():
    shim = ctypes.CDLL(sys.argv[1])
    shim.knight_callgrind_dump.argtypes = [ctypes.c_char_p]
    pin_allocator()
    # Threads change hands only where one blocks, never on Python's 5 ms
    # switch timer: under valgrind that timer fires wherever the slow clock
    # has got to, and the counts of the count's thread pool moved with it
    # (journal: "What the check's design rests on")
    sys.setswitchinterval(SWITCH_INTERVAL)
    request = json.loads(sys.stdin.read())
    searches = [Search.from_json(fields) for fields in request["searches"]]
    answers = _first_calls(searches)
    runnable = [index for index, answer in enumerate(answers) if "error" not in answer]
    calls = {str(index): searches[index].run for index in runnable}
    plant = request["plant"]
    planted = [search for search in searches if plant and search.key == plant["key"]]
    if planted:
        calls["P"] = _with_plant(planted[0], plant["fraction"])
        answers.append(answers[searches.index(planted[0])])
    if request["repeats"]:
        _count(shim, calls, request["repeats"])
    for answer in answers:
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    run_worker(main)
