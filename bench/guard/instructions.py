"""This module counts instructions under callgrind, the speed guard's primary figure.

Each side (a revision's tree) runs bench/timing/instruction_worker.py under
``valgrind --tool=callgrind --instr-atstart=no``: Python, numba's import and
the kernels' cache load run uninstrumented (several times faster than
instrumented; journal: "bench/'s comments"), and the client requests of
bench/guard/callgrind_shim.c switch instrumentation on around each
measured call alone and dump its count
(``--collect-atstart`` keeps its default: code that is not instrumented
collects nothing, and the window begins with CALLGRIND_ZERO_STATS). The
count is callgrind's ``totals:`` of that dump, every thread of the process
together. An instruction count does not depend on the load or on the other
side running at the same moment, so both sides run at once, one per core.

Before valgrind, each side's worker runs once natively with no measured
repeat: that compiles its kernels into its tree's numba cache (a cold
compile under valgrind takes many times the cache's load:
journal: "bench/'s comments"), for the CPU named by
``CPU_NAME`` in both runs.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench import repo_paths
from bench.timing import revisions
from bench.timing.named_search import Outcome

SHIM_SOURCE = Path(__file__).resolve().with_name("callgrind_shim.c")
SHIM_CACHE = repo_paths.ROOT / "build" / "callgrind"
WORKER = Path(__file__).resolve().parents[1] / "timing" / "instruction_worker.py"
# the first call is never counted; three counted calls must agree (SPREAD)
REPEATS = 3
VALGRIND = ("valgrind", "--tool=callgrind", "--instr-atstart=no", "--dump-line=no", "--quiet")
# PYTHONHASHSEED fixed: the order of a set or dict of strings is the work Python does
HASH_SEED = "0"
# Numba keys its cache by the CPU it compiles for, and valgrind shows the
# program another CPU than the native warm-up sees: a base checked out afresh
# compiled everything again under valgrind (minutes). Compiled for
# numba's generic x86-64 on both sides, native and counted runs share one
# cache, and the counts no longer depend on this machine's CPU model.
CPU_NAME = "generic"


class InstructionsUnavailable(RuntimeError):
    """valgrind, a C compiler or callgrind.h is missing here: one line says which."""


class CountFailed(RuntimeError):
    """A side's worker under valgrind did not finish: its last words."""


@dataclass(frozen=True)
class Counted:
    """One search on one side: its first call's outcome and the instructions
    of each counted call, or why that revision could not run it."""

    outcome: Outcome | None
    instructions: tuple = ()
    error: str = ""

    @property
    def median(self):
        ordered = sorted(self.instructions)
        return ordered[len(ordered) // 2]

    @property
    def spread(self):
        """Largest over smallest count, less one: how far repeats disagree."""
        return max(self.instructions) / min(self.instructions) - 1


def shim():
    """The built shim, compiled on first use into build/callgrind/ (named by
    the source's hash), or InstructionsUnavailable saying what is missing."""
    if shutil.which("valgrind") is None:
        raise InstructionsUnavailable("valgrind is not on PATH")
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        raise InstructionsUnavailable("no C compiler (cc, gcc, clang) on PATH to build the callgrind shim")
    source = SHIM_SOURCE.read_bytes()
    built = SHIM_CACHE / f"callgrind_shim-{hashlib.sha256(source).hexdigest()[:16]}.so"
    if built.exists():
        return built
    SHIM_CACHE.mkdir(parents=True, exist_ok=True)
    partial = built.with_suffix(f".{os.getpid()}.part")
    done = subprocess.run(
        [compiler, "-shared", "-fPIC", "-O2", "-o", str(partial), str(SHIM_SOURCE)], capture_output=True, text=True
    )
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        first = next(iter(done.stderr.strip().splitlines()), "failed")
        raise InstructionsUnavailable(f"the callgrind shim did not build ({first})")
    os.replace(partial, built)
    return built


def parse_dump(text):
    """``(name, instructions)`` of one callgrind dump: the name its client
    request gave it (None for the dump at exit) and its ``totals:`` Ir."""
    name, total = None, None
    for line in text.splitlines():
        if line.startswith("desc: Trigger: Client Request: "):
            name = line.removeprefix("desc: Trigger: Client Request: ")
        elif line.startswith("totals:"):
            total = int(line.split()[1])
    if total is None:
        raise CountFailed("a callgrind dump without a totals: line")
    return name, total


def _environment(tree):
    return {
        **revisions.clean_environment(),
        "PYTHONPATH": str(tree),
        "PYTHONHASHSEED": HASH_SEED,
        "NUMBA_CPU_NAME": CPU_NAME,
    }


@dataclass
class _Side:
    process: subprocess.Popen
    folder: Path
    # the worker's dump names (a search's index, P for the plant) -> the keys they count
    names: dict


def _start(tree, searches, repeats, python, folder, plant, under_valgrind):
    """A worker for ``tree`` on ``searches``, its dumps and log in ``folder``."""
    folder.mkdir()
    # a file, not a pipe: a pipe read only after stdout could fill and stall the worker
    stderr = open(folder / "stderr.txt", "w")  # noqa: SIM115 (closed when the worker has ended)
    wrapper = [*VALGRIND, f"--callgrind-out-file={folder / 'callgrind.out'}", f"--log-file={folder / 'valgrind.log'}"]
    command = [*(wrapper if under_valgrind else ()), revisions.interpreter(python), str(WORKER), str(shim())]
    process = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        cwd=tree,
        env=_environment(tree),
    )
    stderr.close()  # the worker holds its own copy
    request = {"searches": [search.to_json() for search in searches], "repeats": repeats, "plant": plant}
    process.stdin.write(json.dumps(request))
    process.stdin.close()
    names = {str(index): search.key for index, search in enumerate(searches)}
    names.update({"P": planted(plant["key"])} if plant and plant["key"] in names.values() else {})
    return _Side(process, folder, names)


def planted(key):
    """The name under which the planted count of workload ``key`` is returned."""
    return f"{key} (planted)"


def _finish(side):
    """``{key: Counted}`` of a started side, once its worker has ended
    (its plant's, if it has one, under ``planted(key)``)."""
    with side.process.stdout:
        answers = [json.loads(line) for line in side.process.stdout]
    if side.process.wait() != 0 or len(answers) != len(side.names):
        logs = [side.folder / name for name in ("stderr.txt", "valgrind.log")]
        words = "\n".join(log.read_text() for log in logs if log.exists()).strip().splitlines()
        raise CountFailed(
            f"the counting worker ended with status {side.process.returncode}: {words[-1] if words else ''}"
        )
    counts = {}
    for dump in side.folder.glob("callgrind.out.*"):
        name, total = parse_dump(dump.read_text())
        if name is not None:
            call, repeat = name.split("#")
            counts.setdefault(call, []).append((int(repeat), total))
    counted = {}
    for (call, key), answer in zip(side.names.items(), answers, strict=True):
        if "error" in answer:
            counted[key] = Counted(None, error=answer["error"])
        else:
            counted[key] = Counted(Outcome(**answer), tuple(total for _, total in sorted(counts.get(call, []))))
    return counted


@contextmanager
def _ended(sides):
    """Kill whatever worker is still running when the count stops early."""
    try:
        yield
    finally:
        for side in sides:
            if side.process.poll() is None:
                side.process.kill()
                side.process.wait()
            side.process.stdout.close()


@dataclass(frozen=True)
class Job:
    """What one side counts: the searches of a tree, with a plant or none."""

    tree: Path
    searches: tuple
    plant: dict | None = None


def count(jobs, repeats=REPEATS, python=sys.executable):
    """``{side: {key: Counted}}`` for ``jobs`` (side -> Job), every side at
    once: first natively with no counted call (the numba cache filled),
    then under valgrind."""
    with tempfile.TemporaryDirectory(prefix="knight-callgrind-") as folder:
        for under_valgrind, todo in ((False, 0), (True, repeats)):
            sides = {
                name: _start(
                    job.tree, job.searches, todo, python, Path(folder) / f"{name}-{todo}", job.plant, under_valgrind
                )
                for name, job in jobs.items()
            }
            with _ended(sides.values()):
                counted = {name: _finish(side) for name, side in sides.items()}
        return counted
