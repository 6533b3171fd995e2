"""`make bench-compare BASE=<rev>`: did this change slow anything down?

Checks BASE out into a temporary git worktree (removed afterwards), starts
one worker process per side, each importing its own tree's ``knight``, and
runs every workload of bench/workloads.py on both sides interleaved for
several rounds. Prints each workload's throughput ratio (this tree's nodes
per CPU second over BASE's, median of the rounds) with the middle half of the rounds as its
spread, and exits 1 when a ratio is below 1 - threshold.

``--head REV`` compares against another revision instead of the working
tree; ``--base-python`` and ``--head-python`` run a side under another
interpreter, which is how to A/B a numba or llvmlite upgrade.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import ExitStack, contextmanager
from pathlib import Path

from bench import paired
from bench.check import PLANT, THRESHOLD
from bench.searches import Outcome
from bench.workloads import WORKLOADS

ROOT = Path(__file__).resolve().parent.parent
WORKER = Path(__file__).resolve().parent / "ab_worker.py"
ROUNDS = 15


class Worker:
    """A process that runs searches against the knight of ``tree``."""

    def __init__(self, tree, python):
        self.process = subprocess.Popen(
            [python, str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=tree,
            env={**_environment(), "PYTHONPATH": str(tree)},
        )
        imported = Path(self._read()["knight"]).resolve()
        if Path(tree).resolve() not in imported.parents:
            self.close()
            raise RuntimeError(f"worker for {tree} imported knight from {imported}")

    def run(self, search):
        self.process.stdin.write(json.dumps(search.to_json()) + "\n")
        self.process.stdin.flush()
        return Outcome(**self._read())

    def _read(self):
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"worker exited with status {self.process.wait()}")
        return json.loads(line)

    def close(self):
        self.process.stdin.close()  # end of input: the worker exits
        self.process.wait()
        self.process.stdout.close()


def _environment():
    # the guard's planted slowdown must not leak into an A/B run
    return {name: value for name, value in os.environ.items() if name != PLANT}


@contextmanager
def checkout(rev):
    """A detached worktree of ``rev`` in a temporary folder, removed after."""
    folder = Path(tempfile.mkdtemp(prefix="knight-ab-"))
    tree = folder / "tree"
    try:
        _git("worktree", "add", "--quiet", "--detach", str(tree), rev)
        yield tree
    finally:
        _git("worktree", "remove", "--force", str(tree), check=False)
        shutil.rmtree(folder, ignore_errors=True)
        _git("worktree", "prune", check=False)


def _git(*arguments, check=True):
    return subprocess.run(["git", "-C", str(ROOT), *arguments], check=check, capture_output=True, text=True)


def table(samples, threshold):
    lines = [f"{'workload':<50} {'base Mn/cpu-s':>13} {'head Mn/cpu-s':>13} {'ratio':>6} {'middle half':>11}  verdict"]
    worst = float("inf")
    for search in WORKLOADS:
        base, head = samples["base"][search.key], samples["head"][search.key]
        ratios = paired.throughput_ratios(head, base)
        low, high = ratios.middle_half
        work = "" if base[0].nodes == head[0].nodes else f"  (nodes {base[0].nodes} -> {head[0].nodes})"
        lines.append(
            f"{search.key:<50} {paired.median_rate(base) / 1e6:>13.1f} {paired.median_rate(head) / 1e6:>13.1f} "
            f"{ratios.median:>6.3f} {f'{low:.3f}-{high:.3f}':>11}  {paired.verdict(ratios.median - 1, threshold)}{work}"
        )
        worst = min(worst, ratios.median)
    return "\n".join(lines), worst


def compare(base, head, rounds, pythons):
    """Interleaved samples of both sides; ``head`` None means the working tree."""
    with ExitStack() as stack:
        trees = {"base": stack.enter_context(checkout(base))}
        trees["head"] = ROOT if head is None else stack.enter_context(checkout(head))
        workers = {side: Worker(trees[side], pythons[side]) for side in ("base", "head")}
        for worker in workers.values():
            stack.callback(worker.close)
        sides = {side: worker.run for side, worker in workers.items()}
        return paired.measure(sides, WORKLOADS, rounds)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.compare", description=__doc__.split("\n")[0])
    parser.add_argument("base", help="the revision to compare against, e.g. HEAD~1 or main")
    parser.add_argument("--head", help="a revision for the other side; default: the working tree")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="interleaved rounds per workload")
    parser.add_argument("--threshold", type=float, default=THRESHOLD, help="largest allowed slowdown (0.25 = 25%%)")
    parser.add_argument("--base-python", default=sys.executable, help="interpreter for the BASE side")
    parser.add_argument("--head-python", default=sys.executable, help="interpreter for the other side")
    args = parser.parse_args(argv)
    pythons = {"base": args.base_python, "head": args.head_python}
    samples = compare(args.base, args.head, args.rounds, pythons)
    report, worst = table(samples, args.threshold)
    print(
        f"base {args.base} vs head {args.head or 'working tree'}: "
        f"ratio = head nodes per CPU second / base's, {args.rounds} interleaved rounds"
    )
    print(report)
    if worst < 1 - args.threshold:
        print(f"\nFAIL: a workload is more than {args.threshold:.0%} slower than at {args.base}")
        return 1
    print(f"\npass: no workload is more than {args.threshold:.0%} slower than at {args.base}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
