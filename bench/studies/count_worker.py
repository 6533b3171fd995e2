"""One count at a time in a process of its own: the counting study's worker
(bench/studies/count_study.py), and the handle the study holds on it.

A count cannot be interrupted from outside once its kernels run, and a count
one board past an engine's reach can take days. So each count runs in this
worker, under a time cap: it stops itself from its progress callback when
the cap has passed (the DP checks after each step, the DFS after each batch
of work units), and a worker that has not answered ``GRACE`` after the cap
(a batch of huge units) is killed by the study; the next count starts a
fresh one.

Started as ``python -m bench.studies.count_worker``. It first compiles (or loads)
every engine on 3x4, so that no count's time includes it, and says how long
that took: ``{"warm_up_seconds": s}``. Then, for each request on stdin
(``{"engine", "rows", "cols", "seconds", "budget"}``), one JSON answer on
stdout: ``status`` (``DONE``, ``STOPPED`` or ``REFUSED``) and, for a count
that finished, its per-start ``grid`` (None for the DP's total), ``tours``,
``seconds`` (the engine's own: ``Count.seconds``, as ``knight count``
prints; for the total, the wall time of schedule and run), ``cpu_seconds``
(the worker's CPU time over the whole call, every thread) and ``work``.
"""

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

from bench import repo_paths

# the engines of the study: the DFS plain and pruned, the DP's per-start
# grid (what `knight count --method dp` prints) and its open total alone
# (one run with no forced end, `knight.count_total`)
ENGINES = ("dfs-plain", "dfs-pruned", "dp", "dp-total")
DONE, STOPPED, REFUSED = "done", "stopped at cap", "refused"
# how long past its cap a count may take to stop itself before it is killed
GRACE = 1.0


class _PastCap(Exception):
    pass


def count(engine, rows, cols, budget=None, progress=None):
    """One open count through knight's public API: ``(grid or None, tours,
    seconds, work, complete)``."""
    import knight

    if engine == "dp-total":
        from knight.harness_api import total_with_work

        began = time.perf_counter()
        tours, work = total_with_work(rows, cols, False, progress=progress)
        seconds = time.perf_counter() - began
        measures = {"transitions": work.transitions, "states_peak": work.states_peak, "merges": work.merges}
        return None, tours, seconds, {**measures, "runs": 1}, True
    if engine == "dp":
        counted = knight.count_tours(rows, cols, method="dp", progress=progress)
        work = {name: int(getattr(counted, name)) for name in ("transitions", "states_peak", "merges", "runs")}
    else:
        counted = knight.count_tours(
            rows, cols, budget=budget, progress=progress, method="dfs", pruned=engine == "dfs-pruned"
        )
        work = {"nodes": counted.total_nodes, "units": counted.units}
    return counted.tours.tolist(), counted.total_tours, counted.seconds, work, counted.complete


def answer(engine, rows, cols, seconds, budget=None):
    """Run one count under its time cap of ``seconds``: the JSON answer."""
    from knight import InvalidArgument

    deadline = time.perf_counter() + seconds

    def progress(*_):
        if time.perf_counter() > deadline:
            raise _PastCap

    began_cpu = time.process_time()
    try:
        grid, tours, took, work, complete = count(engine, rows, cols, budget, progress)
    except _PastCap:
        return {"status": STOPPED, "why": f"stopped at its time cap of {seconds:g} s"}
    except InvalidArgument as refusal:  # the DP's memory projection, say
        return {"status": REFUSED, "why": str(refusal)}
    if not complete:
        return {"status": STOPPED, "why": f"a work unit hit the node budget of {budget:,}"}
    return {
        "status": DONE,
        "grid": grid,
        "tours": tours,
        "seconds": took,
        "cpu_seconds": time.process_time() - began_cpu,
        "work": work,
    }


def warm_up():
    """Compile (or load from Numba's cache) every engine; the seconds taken."""
    began = time.perf_counter()
    for engine in ENGINES:
        count(engine, 3, 4, 10**6)
    return time.perf_counter() - began


def main():
    print(json.dumps({"warm_up_seconds": warm_up()}), flush=True)
    for line in sys.stdin:
        print(json.dumps(answer(**json.loads(line))), flush=True)


class Worker:
    """The study's handle on a worker process: ``count`` starts one when
    there is none, and kills it (by its own handle) when a count runs
    ``GRACE`` past its cap. ``warm_ups`` lists each start's warm-up seconds.

    A worker's temporary folder (``TMPDIR``, where a DP too big for memory
    shards its tables) is one of the study's own, removed with the worker:
    a killed count leaves nothing behind."""

    def __init__(self, python=sys.executable):
        self.python = python
        self.process = None
        self.scratch = None
        self.warm_ups = []

    def count(self, engine, rows, cols, seconds, budget=None):
        if self.process is None:
            self._start()
        request = {"engine": engine, "rows": rows, "cols": cols, "seconds": seconds, "budget": budget}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self._line(seconds + GRACE)
        if line is None:
            self.close()
            return {"status": STOPPED, "why": f"killed {GRACE:g} s past its time cap of {seconds:g} s"}
        return json.loads(line)

    def _start(self):
        self.scratch = tempfile.mkdtemp(prefix="knight-count-study-")
        self.process = subprocess.Popen(
            [self.python, "-m", "bench.studies.count_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=repo_paths.ROOT,
            env={**os.environ, "TMPDIR": self.scratch},
        )
        line = self._line(None)
        self.warm_ups.append(json.loads(line)["warm_up_seconds"])

    def _line(self, timeout):
        """The worker's next line; None if none came within ``timeout`` seconds."""
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            return None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the count worker exited with status {self.process.wait()}")
        return line

    def close(self):
        """Stop the worker, if one runs (killed: a count may be under way)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process.stdin.close()
            self.process.stdout.close()
            self.process = None
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None


if __name__ == "__main__":
    main()
