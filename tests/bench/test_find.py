"""bench-find: the bisection by speed, first with a fake timer (every
position of the culprit, missing probes), then on a scratch repository with
a real planted slowdown."""

import contextlib
import importlib
import inspect
import io
import math
import shutil
import subprocess

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bench.commits import find
from bench.timing import revisions
from bench.timing.named_search import Search


def fake_probe(culprit, calls, missing=(), noise=0.0):
    """Ratios of 1.0 before the culprit, 0.6 from it on; ``missing`` cannot run."""

    def probe(index):
        calls.append(index)
        if index in missing:
            return {}
        wobble = noise * (-1) ** index
        return {"w": (1.0 if index < culprit else 0.6) + wobble, "other": 2.0}

    return probe


@pytest.mark.parametrize("count", [2, 3, 8, 21])
def test_every_position_of_the_culprit_is_found_in_few_probes(count):
    for culprit in range(1, count):
        calls = []
        assert find.first_slower(count, fake_probe(culprit, calls), 0.25) == culprit
        assert len(calls) == len(set(calls)) <= math.ceil(math.log2(count)) + 2


def test_nothing_to_find_when_the_last_commit_is_not_slower():
    calls = []
    assert find.first_slower(10, fake_probe(99, calls, noise=0.05), 0.25) is None
    assert calls == [0, 9]


def test_a_fall_within_the_threshold_is_not_a_slowdown():
    assert find.first_slower(6, fake_probe(3, []), 0.5) is None


def test_commits_that_cannot_run_the_workload_are_stepped_over():
    assert find.first_slower(12, fake_probe(8, [], missing={5, 6}), 0.25) == 8
    assert find.first_slower(12, fake_probe(7, [], missing={5, 6}), 0.25) == 7
    # the culprit could not be timed: the first slower one that could be is named
    assert find.first_slower(12, fake_probe(6, [], missing={5, 6}), 0.25) == 7


SMALL = Search("greedy", 400, 400, (0, 0), closed=False, budget=10**8, tiebreak="roth")


def planted_greedy():
    """Source of a ``greedy`` that walks twice. Its arguments are read off
    today's kernel: a copy written out by hand went stale when ``greedy``
    gained its ``degree`` scratch, and every probe then failed to run."""
    from knight.search import search_kernels

    arguments = ", ".join(inspect.signature(search_kernels.greedy.py_func).parameters)
    return f"""

@jit
def greedy({arguments}):
    # planted by tests/bench/test_find.py: the walk done twice
    _greedy_once({arguments})
    return _greedy_once({arguments})
"""


def _git(repository, *arguments):
    subprocess.run(["git", "-C", str(repository), *arguments], check=True, capture_output=True)


def _commit(repository, message):
    _git(repository, "add", "-A")
    _git(repository, "-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-q", "-m", message)


def scratch_repository(folder):
    """This tree's knight in a new repository: a good commit, a neutral one,
    the planted slowdown, two more neutral ones."""
    shutil.copytree(revisions.ROOT / "knight", folder / "knight", ignore=shutil.ignore_patterns("__pycache__"))
    _git(folder, "init", "-q")
    _commit(folder, "good")
    for number, message in enumerate(["neutral 1", "plant", "neutral 2", "neutral 3"]):
        if message == "plant":
            kernels = folder / "knight" / "search" / "search_kernels.py"
            source = kernels.read_text().replace("def greedy(", "def _greedy_once(", 1)
            kernels.write_text(source + planted_greedy())
        else:
            (folder / f"notes-{number}.txt").write_text(message)
        _commit(folder, message)
    return folder


# four probes, each a worker compiling greedy in a fresh worktree: 10-12 s on the
# idle 2-core machine (2026-12-01), 55 s once under a load of 7; the fake-timer
# tests above cover the bisection itself in every run. Nine rounds a probe: with
# three, a neutral commit read 20% below the good one and 1 run in 7 named it.
@pytest.mark.slow
def test_the_planted_slowdown_is_named(tmp_path):
    repository = scratch_repository(tmp_path / "repo")
    culprit = find.find("HEAD~4", "HEAD", [SMALL], rounds=9, threshold=0.25, repository=repository, say=lambda _: None)
    subject = subprocess.run(
        ["git", "-C", str(repository), "log", "-1", "--format=%s", culprit], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert subject == "plant"


@pytest.mark.parametrize(
    ("good", "bad", "said"),
    [
        ("nonexistent", "HEAD", "unknown revision 'nonexistent'"),
        ("HEAD", "nonexistent", "unknown revision 'nonexistent'"),
        ("HEAD", "HEAD~1", "is not an ancestor of HEAD~1"),
        ("HEAD", "HEAD", "no commit after HEAD up to HEAD"),
    ],
)
def test_a_range_that_cannot_be_bisected_is_refused_before_measuring(capsys, monkeypatch, good, bad, said):
    """Issue 19: unknown revisions ended in a CalledProcessError traceback,
    and a reversed range measured for 11 s and found 'nothing to find'."""
    monkeypatch.setattr(find, "prober", lambda *args: pytest.fail("measured before refusing"))
    assert find.main([good, bad]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bench: error: ") and said in err and err.count("\n") == 1


@settings(max_examples=40, deadline=None)
@given(text=st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(repr), st.text(max_size=8)))
def test_a_threshold_that_is_not_a_fraction_is_one_line_and_status_2(text):
    """Issue 29: --threshold -1 read as 'more than -100% slower', nan was taken."""
    try:
        value = float(text)
    except ValueError:
        value = None
    assume(value is None or not 0 < value < 1)
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert find.main(["HEAD~1", "HEAD", f"--threshold={text}"]) == 2
    said = err.getvalue()
    # an empty value is the one-line parser's ("needs a value"), the rest the threshold's own
    why = "--threshold needs a value" if text.strip() == "" else "threshold must be a fraction"
    assert said.startswith(f"bench: error: {why}") and said.count("\n") == 1


@pytest.mark.parametrize(
    ("module", "argv", "said"),
    [
        ("find", ["HEAD~1", "HEAD", "--workload", "zzz"], "no workload's name contains 'zzz'"),
        ("find", ["HEAD~1", "HEAD", "--python", "/nonexistent"], "interpreter '/nonexistent'"),
        ("compare", ["HEAD", "--base-python", "/nonexistent"], "interpreter '/nonexistent'"),
        ("history", ["--bogus"], "unrecognized arguments: --bogus"),
        ("history", ["--rounds", "x"], "rounds must be an integer"),
    ],
)
def test_bad_options_of_the_revision_tools_are_one_bench_error_line(module, argv, said, capsys):
    """Issue 29: exit 1 without the prefix, exit 74 for bad input, a 5-line usage."""
    main = importlib.import_module(f"bench.commits.{module}").main
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("bench: error: ") and said in err and err.count("\n") == 1
