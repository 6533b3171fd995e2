"""This module is the step-engine study's worker, which counts one board's total by each step engine.

It runs in a process of its own, so that the memory it measures belongs to
this process alone.

The three engines (``ENGINES``), each ``engine.total_with_work`` of the
board (one run, no forced end) under its own ``StepPolicy`` (``policy_of``),
its steps that ran out of core counted by the run's ``Work``:

* ``hash``: ``table="hash"``, every step the hash step (one hash table per
  thread), the engine before the partitioned step;
* ``partitioned``: ``table="partitioned"``, every step partitioned in memory;
* ``out-of-core``: ``table="partitioned"`` under a memory budget of one
  byte, with ``min_room`` (the least room a step gets) at ``room`` and
  ``partitioned_states`` at 0: every step gets ``room`` bytes, whatever
  the process holds, and every step whose in-memory tables would pass it
  runs through run files on disk (``out_of_core_step``), its input mapped from
  disk too. ``room`` is ``ROOM_SHARE`` of what the largest step of the
  board takes in memory (``memory_model.step_bytes`` of the hash run's peak
  states), so the large steps of every board, and only those, go to disk.
  A budget of what the process holds plus ``room`` would leave each step
  what the last count left in the heap: the steps that spill moved from
  repeat to repeat.

Memory: ``RssAnon`` (what the kernel cannot reclaim; mapped spill files are
page cache, not in it), read before the count and then every
``SAMPLE_SECONDS`` by a thread (the kernels release the GIL) and after each
step; ``anon_peak`` is the largest reading, so a peak shorter than the
interval can be missed. Disk: the bytes the run's spill folders hold, read
with it (``PeakSampler``, as ``knight count --total --json`` reads both);
``disk_peak`` is the largest, 0 for a run that never left memory. glibc's
mmap threshold is pinned first (``named_search.pin_allocator``): a large
array freed by one count goes back to the system instead of staying in the
heap, where the next count would reuse it unseen.

Started as ``python -m bench.studies.dp_steps.dp_step_worker``: it first runs each
engine on 4x5 open and 5x6 closed (compiled or loaded from Numba's cache,
every kernel the engines take), says ``{"warm_up_seconds": s}``, then for
each request on stdin (``{"rows", "cols", "closed", "repeats",
"repeat_below"}``) answers one line: ``{engine: measured}`` for every
engine (``measure_board``).
"""

import json
import statistics
import sys
import time

from bench.timing.worker_main import run_worker

# what each engine is given of the memory its largest step takes in memory
ROOM_SHARE = 0.25
SAMPLE_SECONDS = 0.02
ENGINES = ("hash", "partitioned", "out-of-core")


def policy_of(engine, room=None):
    """The ``StepPolicy`` that makes the DP take every step by ``engine``
    (``room``: the out-of-core engine's room a step)."""
    from knight.harness_api import StepPolicy

    if engine == "hash":
        return StepPolicy(table="hash")
    if engine == "partitioned":
        return StepPolicy(table="partitioned")
    # a budget of one byte: every step gets ``min_room``, ``room``
    return StepPolicy(table="partitioned", partitioned_states=0, min_room=int(room), memory=1)


def room_for(states_peak):
    """The out-of-core engine's room on a board whose largest table holds
    ``states_peak`` states (one limb: every board of the study)."""
    from knight.harness_api import memory_model

    return max(int(ROOM_SHARE * memory_model.step_bytes(states_peak, 1)), 1)


def count_once(engine, rows, cols, closed, room=None):
    """One total by ``engine``: its count, time and memory (a dict)."""
    import functools

    from knight.harness_api import PeakSampler, anonymous_memory, count_hamiltonian, total_with_work

    before = anonymous_memory()
    run = functools.partial(count_hamiltonian, policy=policy_of(engine, room))
    with PeakSampler(SAMPLE_SECONDS) as peak:
        began, began_cpu = time.perf_counter(), time.process_time()
        tours, work = total_with_work(rows, cols, closed, peak.sample, run)
        seconds, cpu = time.perf_counter() - began, time.process_time() - began_cpu
    return {
        "tours": tours,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "transitions": work.transitions,
        "states_peak": work.states_peak,
        "steps": len(work.held),
        "out_of_core_steps": work.out_of_core_steps,
        "anon_before": before,
        "anon_peak": peak.ram,
        "disk_peak": peak.disk,
        "room": room if engine == "out-of-core" else None,
    }


def measure_engine(engine, rows, cols, closed, repeats, repeat_below, room=None):
    """``engine`` on the board, repeated ``repeats`` times when the first
    count took under ``repeat_below`` seconds: medians of the times, the
    largest memory and disk; AssertionError if a repeat counted differently."""
    runs = [count_once(engine, rows, cols, closed, room)]
    if runs[0]["seconds"] < repeat_below:
        runs += [count_once(engine, rows, cols, closed, room) for _ in range(repeats - 1)]
    fixed = ("tours", "transitions", "states_peak", "steps", "out_of_core_steps")
    for run in runs[1:]:
        moved = {key: (runs[0][key], run[key]) for key in fixed if run[key] != runs[0][key]}
        if moved:
            raise AssertionError(f"{engine} on {rows}x{cols} counted differently when repeated: {moved}")
    added = max(runs, key=lambda run: run["anon_peak"] - run["anon_before"])
    return {key: runs[0][key] for key in fixed} | {
        "seconds": statistics.median(run["seconds"] for run in runs),
        "cpu_seconds": statistics.median(run["cpu_seconds"] for run in runs),
        "repeats": len(runs),
        "anon_before": added["anon_before"],
        "anon_peak": added["anon_peak"],
        "disk_peak": max(run["disk_peak"] for run in runs),
        "room": runs[0]["room"],
    }


def measure_board(rows, cols, closed, repeats=3, repeat_below=0.5):
    """Every engine on one board, the hash step first: its peak states
    size the out-of-core engine's room."""
    measured = {"hash": measure_engine("hash", rows, cols, closed, repeats, repeat_below)}
    room = room_for(measured["hash"]["states_peak"])
    for engine in ENGINES[1:]:
        measured[engine] = measure_engine(engine, rows, cols, closed, repeats, repeat_below, room)
    return measured


def warm_up():
    """Compile (or load) every kernel the engines take; the seconds taken."""
    began = time.perf_counter()
    for rows, cols, closed in ((4, 5, False), (5, 6, True)):
        measure_board(rows, cols, closed, repeats=1)
    return time.perf_counter() - began


def main():
    from bench.timing.named_search import pin_allocator

    pin_allocator()
    print(json.dumps({"warm_up_seconds": warm_up()}), flush=True)
    for line in sys.stdin:
        print(json.dumps(measure_board(**json.loads(line))), flush=True)


if __name__ == "__main__":
    run_worker(main)
