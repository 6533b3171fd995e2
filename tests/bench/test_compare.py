"""bench-compare's plumbing, untimed: a worker imports the knight of its own
tree, answers like an in-process run, and the temporary worktree goes away."""

import subprocess
import sys

from bench import compare
from bench.searches import Search

SEARCH = Search("warnsdorff", 6, 6, (0, 0), closed=True, budget=5_000)


def _worktrees():
    listing = subprocess.run(["git", "-C", str(compare.ROOT), "worktree", "list"], capture_output=True, text=True)
    return listing.stdout.count("\n")


def test_a_worker_runs_its_own_revision_and_the_checkout_is_removed():
    before = _worktrees()
    with compare.checkout("HEAD") as tree:
        worker = compare.Worker(tree, sys.executable)
        try:
            outcome = worker.run(SEARCH)
        finally:
            worker.close()
        assert _worktrees() == before + 1
    assert not tree.exists() and _worktrees() == before
    expected = SEARCH.run()
    assert (outcome.status, outcome.nodes) == (expected.status, expected.nodes)


def test_verdict_against_the_threshold():
    assert [compare.verdict(ratio, 0.25) for ratio in (0.74, 0.8, 1.0, 1.3)] == ["SLOWER", "ok", "ok", "faster"]
