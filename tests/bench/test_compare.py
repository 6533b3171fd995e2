"""bench-compare's plumbing, untimed: a worker imports the knight of its own
tree, answers like an in-process run, and the temporary worktree goes away."""

import subprocess
import sys
from pathlib import Path

from bench.timing import revisions
from bench.timing.named_search import Search

SEARCH = Search("warnsdorff", 6, 6, (0, 0), closed=True, budget=5_000)


def _worktrees():
    """The repository's worktree folders, resolved (``git worktree list --porcelain``)."""
    listing = subprocess.run(
        ["git", "-C", str(revisions.ROOT), "worktree", "list", "--porcelain"], capture_output=True, text=True
    )
    lines = listing.stdout.splitlines()
    return {Path(line.split(" ", 1)[1]).resolve() for line in lines if line.startswith("worktree ")}


def test_a_worker_runs_its_own_revision_and_the_checkout_is_removed():
    # other worktrees of the same repository may come and go meanwhile:
    # only this checkout's own folder is looked for
    with revisions.checkout("HEAD") as tree:
        worker = revisions.Worker(tree, sys.executable)
        try:
            outcome = worker.run(SEARCH)
        finally:
            worker.close()
        assert Path(tree).resolve() in _worktrees()
    assert not tree.exists() and Path(tree).resolve() not in _worktrees()
    expected = SEARCH.run()
    assert (outcome.status, outcome.nodes) == (expected.status, expected.nodes)


def test_an_unknown_base_is_one_line_before_any_worktree(capsys):
    """Issue 19: `make bench-compare BASE=nonexistent` was a CalledProcessError traceback."""
    from bench.commits import compare

    assert compare.main(["nonexistent", "--rounds", "1"]) == 2
    err = capsys.readouterr().err
    assert err == f"bench: error: unknown revision 'nonexistent': not a commit of {revisions.ROOT}\n"
