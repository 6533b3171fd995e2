"""bench-compare's plumbing, untimed: a worker imports the knight of its own
tree, answers like an in-process run, and the temporary worktree goes away."""

import subprocess
import sys

from bench import revisions
from bench.searches import Search

SEARCH = Search("warnsdorff", 6, 6, (0, 0), closed=True, budget=5_000)


def _worktrees():
    listing = subprocess.run(["git", "-C", str(revisions.ROOT), "worktree", "list"], capture_output=True, text=True)
    return listing.stdout.count("\n")


def test_a_worker_runs_its_own_revision_and_the_checkout_is_removed():
    before = _worktrees()
    with revisions.checkout("HEAD") as tree:
        worker = revisions.Worker(tree, sys.executable)
        try:
            outcome = worker.run(SEARCH)
        finally:
            worker.close()
        assert _worktrees() == before + 1
    assert not tree.exists() and _worktrees() == before
    expected = SEARCH.run()
    assert (outcome.status, outcome.nodes) == (expected.status, expected.nodes)

