"""This module runs other revisions of knight, each in a process of its own.

`make bench-check`, `make bench-compare`, `make bench-history` and `make
bench-find` share it, so that neither bench/guard/ nor bench/commits/ owns
it.

``checkout(rev)`` makes a detached git worktree of a revision in a temporary
folder and removes it afterwards; ``Worker(tree, python)`` starts this
tree's bench/timing/ab_worker.py with that tree first on ``PYTHONPATH``, so the
searches it runs import that revision's ``knight`` and nothing of its
bench/; ``interleaved`` times a worker per tree round by round.
"""

import json
import os
import shutil
import subprocess
from contextlib import ExitStack, contextmanager
from pathlib import Path

from bench import repo_paths
from bench.timing import owned_folders, paired
from bench.timing.named_search import Outcome
from knight import InvalidArgument

ROOT = repo_paths.ROOT
WORKER = Path(__file__).resolve().parent / "ab_worker.py"
# read by ab_worker.py (which imports nothing of bench/, so it spells it too)
TIME_PLANT = "KNIGHT_GUARD_TIME_PLANT"
# every variable that plants a slowdown for a self-test of the guard starts
# so (TIME_PLANT, bench/guard/speed_check.py's PLANT): none may leak into a
# run of another revision
PLANTS = "KNIGHT_GUARD_"


# a checkout's temporary folder: owned_folders names it with this process's id
CHECKOUT_PREFIX = "knight-ab-"


class KnightDoesNotImport(InvalidArgument):
    """The knight of a revision does not import (a syntax error, a missing
    module): the revision cannot be compared, and the run ends in one line."""


class SearchFailed(RuntimeError):
    """The worker's knight could not run a search (an old revision may lack
    an option or a method); the worker itself carries on."""


class Worker:
    """A process that runs searches against the knight of ``tree``;
    ``time_plant`` ``{"key": k, "fraction": f}`` makes search k take a
    fraction f longer (the speed guard's self-test: bench/timing/ab_worker.py)."""

    def __init__(self, tree, python, time_plant=None):
        planted = {} if time_plant is None else {TIME_PLANT: json.dumps(time_plant)}
        self.tree = tree
        self.process = subprocess.Popen(
            [interpreter(python), str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=tree,
            env={**clean_environment(), **planted, "PYTHONPATH": str(tree)},
        )
        try:
            imported = Path(self._read()["knight"]).resolve()
        except (RuntimeError, KnightDoesNotImport):
            self.close()
            raise
        if Path(tree).resolve() not in imported.parents:
            self.close()
            raise RuntimeError(f"worker for {tree} imported knight from {imported}")

    def run(self, search):
        self.process.stdin.write(json.dumps(search.to_json()) + "\n")
        self.process.stdin.flush()
        answer = self._read()
        if "error" in answer:
            raise SearchFailed(answer["error"])
        return Outcome(**answer)

    def _read(self):
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"worker exited with status {self.process.wait()}")
        answer = json.loads(line)
        if "import_error" in answer:
            why = " ".join(str(answer["import_error"]).split())
            raise KnightDoesNotImport(f"the knight of {self.tree} does not import ({why})")
        return answer

    def close(self):
        self.process.stdin.close()  # end of input: the worker exits
        self.process.wait()
        self.process.stdout.close()


def unrunnable(worker, searches):
    """Run each search once on ``worker`` (a warm-up: compiles, faults
    memory in); ``{key: why}`` for those its knight cannot run."""
    failed = {}
    for search in searches:
        try:
            worker.run(search)
        except SearchFailed as problem:
            failed[search.key] = str(problem)
    return failed


def clean_environment():
    """This process's environment less the guard's plants (``PLANTS``)."""
    return {name: value for name, value in os.environ.items() if not name.startswith(PLANTS)}


def interpreter(python):
    """``python`` (a path or a name on PATH) as a path that runs, or
    InvalidArgument naming it: a bad ``--base-python`` is bad input."""
    found = shutil.which(python)
    if found is None:
        raise InvalidArgument(f"interpreter {python!r}: not an executable file, nor a command on PATH")
    return found


@contextmanager
def checkout(rev, repository=ROOT):
    """A detached worktree of ``rev`` in a temporary folder, removed after
    (in ``finally``: an interrupt or SIGTERM removes it too), once the
    checkouts that dead runs left are gone (``remove_stale_checkouts``)."""
    commit = commit_of(rev, repository)
    remove_stale_checkouts(repository)
    folder = Path(owned_folders.make(CHECKOUT_PREFIX))
    tree = folder / "tree"
    try:
        git("worktree", "add", "--quiet", "--detach", str(tree), commit, repository=repository)
        yield tree
    finally:
        git("worktree", "remove", "--force", str(tree), check=False, repository=repository)
        shutil.rmtree(folder, ignore_errors=True)
        git("worktree", "prune", check=False, repository=repository)


def remove_stale_checkouts(repository=ROOT):
    """Remove the checkouts that runs killed before their ``finally`` left
    in ``$TMPDIR``, and their entries in ``git worktree list``.

    Parameters
    ----------
    repository : path-like
        The repository whose worktree list is pruned.

    Returns
    -------
    list of str
        The temporary folders removed.

    Examples
    --------
    >>> remove_stale_checkouts()  # doctest: +SKIP
    []
    """

    def unregister(folder):
        git("worktree", "remove", "--force", str(Path(folder) / "tree"), check=False, repository=repository)

    removed = owned_folders.remove_stale(CHECKOUT_PREFIX, before=unregister)
    if removed:
        git("worktree", "prune", check=False, repository=repository)
    return removed


@contextmanager
def worker_at(rev, python, repository=ROOT):
    """A Worker running the knight of ``rev``, with its worktree; both go away after."""
    with checkout(rev, repository) as tree:
        worker = Worker(tree, python)
        try:
            yield worker
        finally:
            worker.close()


def git(*arguments, check=True, repository=ROOT):
    """git's answer; with ``check``, a failure (an unknown revision, a range
    of nothing) is InvalidArgument with git's own first line, not a
    CalledProcessError traceback."""
    done = subprocess.run(["git", "-C", str(repository), *arguments], check=False, capture_output=True, text=True)
    if check and done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        reason = next((line for line in lines if line.startswith("fatal:")), lines[0] if lines else "failed")
        raise InvalidArgument(f"git {arguments[0]}: {reason.removeprefix('fatal: ')}")
    return done


def commit_of(rev, repository=ROOT):
    """The full hash of the commit ``rev`` names, or InvalidArgument naming it."""
    done = git(
        "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}", check=False, repository=repository
    )
    if done.returncode != 0:
        raise InvalidArgument(f"unknown revision {rev!r}: not a commit of {repository}")
    return done.stdout.strip()


def commits(revisions, repository=ROOT, paths=(), limit=None):
    """Full hashes of ``revisions`` (a rev-list range such as ``A..B`` or a
    single rev), oldest first; only those touching ``paths`` when given.

    First parents only, as asv does: the line of main, where a merged branch
    is its merge commit. A branch's own commits start from older code, so
    mixed into the line they would read as steps back and forth."""
    limited = [f"--max-count={limit}"] if limit else []
    listed = git("rev-list", "--first-parent", *limited, *revisions.split(), "--", *paths, repository=repository)
    return listed.stdout.split()[::-1]


def describe(commit, repository=ROOT):
    """``(short hash, subject, ISO commit date)`` of one commit."""
    shown = git("show", "--no-patch", "--format=%h%x00%s%x00%cI", commit, repository=repository)
    short, subject, date = shown.stdout.strip().split("\x00")
    return short, subject, date


def interleaved(trees, pythons, searches, rounds, time_plants=None):
    """``paired.measure`` of one worker per side (side -> tree, its
    interpreter in ``pythons``; ``time_plants``: side -> a planted fraction
    of more time) on the ``searches`` every side can run, and
    ``{side: {workload: why}}`` for the others."""
    time_plants = time_plants or {}
    with ExitStack() as stack:
        workers = {}
        for side, tree in trees.items():
            try:
                workers[side] = Worker(tree, pythons[side], time_plants.get(side))
            except KnightDoesNotImport as error:
                raise KnightDoesNotImport(f"{side}: {error}".replace(f"of {tree} ", "")) from None
            stack.callback(workers[side].close)
        untimed = {side: unrunnable(worker, searches) for side, worker in workers.items()}
        timed = [search for search in searches if not any(search.key in failed for failed in untimed.values())]
        sides = {side: worker.run for side, worker in workers.items()}
        return paired.measure(sides, timed, rounds), untimed
