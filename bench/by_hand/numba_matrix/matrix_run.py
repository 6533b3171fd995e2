"""Time knight's kernels under several Numba releases against C compiled once, in one run.

Run it as ``make bench-matrix NUMBA="0.59 0.62 0.65 0.68"``. The releases
and C are interleaved.

Each release gets its environment (numba_environments.py, beside this
module) and a worker in it (matrix_worker.py) kept for the whole run, so
that each compiles once; the C side (knight.c by clang, else gcc, at the
toolchain comparison's flags) runs in this process. Every side gets the
toolchain comparison's prepared arrays and timing, and the sides run
interleaved round by round (bench/timing/paired.py), so a slow spell of the
machine lands on every release alike. A release that does not install, or
whose worker fails, is reported and left out.

The run folder, ``results/numba-matrix/DATE-COMMIT``, holds matrix.json,
matrix.png (each release's throughput over C's per search) and MATRIX.md.
Exit status: 0, or 2 for bad arguments, or 1 when no release ran.
"""

import argparse
import datetime
import json
import subprocess

from bench import repo_paths
from bench.baselines import c as c_baseline
from bench.baselines import call_clock, prepared
from bench.by_hand.numba_matrix import matrix_report, numba_environments
from bench.run_folder import environment, folders, record
from bench.studies.versus import versus_workloads
from bench.timing import paired
from bench.timing.named_search import Outcome

WORKER = repo_paths.ROOT / "bench" / "by_hand" / "numba_matrix" / "matrix_worker.py"
DEFAULT_VERSIONS = ("0.59", "0.62", "0.65", "0.68")
ROUNDS = 5
# the toolchain comparison's headline searches
WORKLOADS = versus_workloads.HEADLINE


class Worker:
    """One release's worker process; ``close()`` ends it."""

    def __init__(self, version, python):
        self.version = version
        cache = numba_environments.folder(version) / "numba-cache"
        # each release its own cache: releases never load each other's machine code
        env = {"NUMBA_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
        self._process = subprocess.Popen(
            [str(python), "-u", str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.loaded = self.ask({"version": True})

    def ask(self, request):
        self._process.stdin.write(json.dumps(request) + "\n")
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        if not line:
            self._process.wait()
            why = [text for text in self._process.stderr.read().splitlines() if text.strip()]
            raise numba_environments.VersionMissing(
                f"numba {self.version}: worker ended ({why[-1] if why else 'no message'})"
            )
        return json.loads(line)

    def run(self, search):
        answer = self.ask(search.to_json())
        return Outcome(answer["status"], answer["nodes"], answer["seconds"], answer["cpu_seconds"])

    def close(self):
        if self._process.poll() is None:
            self._process.stdin.close()
            self._process.wait(timeout=30)
        self._process.stdout.close()
        self._process.stderr.close()


def _c_side():
    for name in ("clang", "gcc"):
        try:
            return c_baseline.ScratchC(name)
        except c_baseline.CompilerMissing:
            continue
    raise c_baseline.CompilerMissing("neither clang nor gcc on PATH: the matrix needs C to compare with")


def _c_run(kernels):
    bound = {}

    def run(search):
        if search.key not in bound:
            ready = prepared.prepare(search)
            bound[search.key] = ready, kernels.bind(ready)[0]
        ready, call = bound[search.key]
        measured = call_clock.timed(call)
        status, nodes = prepared.answer_words(ready, measured.answer)
        return Outcome(status, nodes, measured.seconds, measured.cpu_seconds)

    return run


def _start_workers(versions, say):
    workers, missing = {}, {}
    for version in versions:
        say(f"numba {version}: environment")
        try:
            workers[version] = Worker(version, numba_environments.python_of(version))
        except numba_environments.VersionMissing as problem:
            missing[version] = str(problem)
            say(f"  left out: {problem}")
    return workers, missing


def _measure_workers(workers, missing, c_kernels, rounds, workloads, say):
    """Warm every worker up (the first call compiles); leave out any that fails."""
    for version, worker in list(workers.items()):
        try:
            for search in workloads:
                worker.run(search)
        except numba_environments.VersionMissing as problem:
            missing[version] = str(problem)
            say(f"  left out: {problem}")
            worker.close()
            del workers[version]
    sides = {f"numba {version}": worker.run for version, worker in workers.items()}
    sides["c"] = _c_run(c_kernels)
    say(f"{len(sides)} sides, {len(workloads)} searches, {rounds} interleaved round{'s' if rounds != 1 else ''}")
    return paired.measure(sides, workloads, rounds)


def measure(versions, rounds=ROUNDS, workloads=WORKLOADS, say=print):
    """What matrix.json holds."""
    c_kernels = _c_side()
    workers, missing = _start_workers(versions, say)
    try:
        samples = _measure_workers(workers, missing, c_kernels, rounds, workloads, say) if workers else {}
        loaded = {version: worker.loaded for version, worker in workers.items()}
    finally:
        for worker in workers.values():
            worker.close()
    rows = [_row(search, samples, loaded) for search in workloads] if samples else []
    return {
        "rounds": rounds,
        "c": c_kernels.version,
        "asked": list(versions),
        "loaded": loaded,
        "missing": missing,
        "workloads": rows,
    }


def _row(search, samples, loaded):
    c = samples["c"][search.key]
    row = {
        "key": search.key,
        "group": search.group,
        "closed": search.closed,
        "nodes": c[-1].nodes,
        "c_rate": paired.median_rate(c),
        "versions": {},
    }
    for version in loaded:
        outcomes = samples[f"numba {version}"][search.key]
        if [outcome.nodes for outcome in outcomes] != [outcome.nodes for outcome in c]:
            raise AssertionError(f"{search.key}: numba {version} placed {outcomes[-1].nodes} nodes, C {c[-1].nodes}")
        ratios = paired.throughput_ratios(outcomes, c)
        row["versions"][version] = {"rate": paired.median_rate(outcomes), "ratios": list(ratios.samples)}
    return row


def _arguments(argv):
    parser = argparse.ArgumentParser(prog="python -m bench.by_hand.numba_matrix", description=__doc__.split("\n")[0])
    parser.add_argument(
        "versions",
        nargs="*",
        default=list(DEFAULT_VERSIONS),
        help="Numba releases, e.g. 0.59 0.62 (the newest patch of each) or 0.59.1",
    )
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"interleaved rounds (default {ROUNDS})")
    parser.add_argument("--out", default=str(repo_paths.RESULTS / "numba-matrix"), help="parent of the run folder")
    arguments = parser.parse_args(argv)
    bad = [text for text in arguments.versions if not all(part.isdigit() for part in text.split("."))]
    if bad or arguments.rounds < 1:
        parser.error(f"versions are like 0.59 or 0.59.1, rounds at least 1 (got {' '.join(bad) or arguments.rounds})")
    return arguments


def main(argv=None):
    arguments = _arguments(argv)
    git = environment.git()
    folder = folders.new_run_folder(arguments.out, datetime.date.today().isoformat(), git["short"], git["dirty"])
    print(f"run folder {folder}")
    measured = measure(arguments.versions, arguments.rounds)
    measured["machine"] = environment.machine()
    record.write_json(folder / "matrix.json", measured)
    matrix_report.write(measured, folder)
    print(f"wrote {folder / 'MATRIX.md'}")
    return 0 if measured["loaded"] else 1
