"""The worker of another revision: a search its knight cannot run is
reported as such and the worker carries on."""

import sys

import pytest

from bench.commits import revisions
from bench.commits.named_search import Search

GOOD = Search("greedy", 8, 8, (0, 0), closed=False, budget=1_000)
UNKNOWN = Search("no-such-method", 8, 8, (0, 0), closed=False, budget=1_000)


def test_a_search_the_revision_cannot_run_is_reported_and_the_worker_goes_on():
    with revisions.worker_at("HEAD", sys.executable) as worker:
        with pytest.raises(revisions.SearchFailed, match="no-such-method"):
            worker.run(UNKNOWN)
        assert worker.run(GOOD).nodes == GOOD.run().nodes


def test_commits_lists_a_range_oldest_first():
    listed = revisions.commits("HEAD~3..HEAD")
    assert listed[-1] == revisions.git("rev-parse", "HEAD").stdout.strip()
    excluded = revisions.git("rev-parse", "HEAD~3").stdout.strip()
    assert excluded not in listed and len(set(listed)) == len(listed)
