"""Refusals of a comparison that could compare a thing with itself.

The speed guard, `make bench-compare`, `make bench-find` and `make
bench-history` each read one revision against another. Two sides that hold
the same files measure the same program, so such a run passes whatever the
code does. A shallow or grafted clone has a second way to mislead: its
oldest commit has no parents as git walks it, so it reads as the commit
that added every file, and a search for "the last commit that changed X"
finds it. Each check here ends in one ``InvalidArgument`` line before any
work starts.
"""

from pathlib import Path

from bench.timing.revisions import ROOT, git
from knight import InvalidArgument

# what a refusal tells a user of a shallow or grafted clone to do
UNSHALLOW = "fetch the whole history (git fetch --unshallow) or name the base with BASE=<rev>"


def is_shallow(repository=ROOT):
    """Whether ``repository`` is a shallow clone.

    Parameters
    ----------
    repository : path-like
        A folder inside the git repository.

    Returns
    -------
    bool
        True when git says that the repository's history is cut short.

    Examples
    --------
    >>> is_shallow() in (True, False)
    True
    """
    done = git("rev-parse", "--is-shallow-repository", check=False, repository=repository)
    return done.stdout.strip() == "true"


def _recorded_parents(commit, repository):
    """The parents that the commit object itself names."""
    shown = git("--no-replace-objects", "cat-file", "commit", commit, repository=repository).stdout
    header = shown.split("\n\n", 1)[0]
    return [line.split()[1] for line in header.splitlines() if line.startswith("parent ")]


def _walked_parents(commit, repository):
    """The parents that git's walk follows (after shallow cuts, grafts and replacements)."""
    listed = git("rev-list", "--parents", "-n", "1", commit, repository=repository).stdout.split()
    return listed[1:]


def is_grafted(commit, repository=ROOT):
    """Whether git walks ``commit`` with other parents than the ones it records.

    Parameters
    ----------
    commit : str
        A full commit hash.
    repository : path-like
        A folder inside the git repository.

    Returns
    -------
    bool
        True for the cut edge of a shallow clone, a commit in
        ``info/grafts`` and a commit replaced by ``git replace --graft``.

    Examples
    --------
    >>> is_grafted(git("rev-parse", "HEAD").stdout.strip()) in (True, False)
    True
    """
    return _recorded_parents(commit, repository) != _walked_parents(commit, repository)


def _history_rewritten(repository):
    """Whether any commit of ``repository`` may be walked with other parents than it records."""
    if is_shallow(repository):
        return True
    grafts = git("rev-parse", "--git-path", "info/grafts", repository=repository).stdout.strip()
    if (Path(repository) / grafts).exists():
        return True
    return bool(git("replace", "--list", repository=repository).stdout.strip())


def refuse_grafted(commits, what, repository=ROOT):
    """Refuse ``commits`` if one of them is walked with other parents than it records.

    Parameters
    ----------
    commits : iterable of str
        Full commit hashes that a comparison would read.
    what : str
        What the commits are, for the refusal ("the commits of main").
    repository : path-like
        A folder inside the git repository.

    Raises
    ------
    InvalidArgument
        Naming the first such commit: a grafted commit reads as a change
        to every file.

    Examples
    --------
    >>> refuse_grafted([], "no commits")
    """
    commits = list(commits)
    if not commits or not _history_rewritten(repository):
        return
    for commit in commits:
        if is_grafted(commit, repository):
            raise InvalidArgument(
                f"{what} include {commit[:12]}, a grafted commit whose parents this clone lacks: {UNSHALLOW}"
            )


def tree_of(commit, repository=ROOT):
    """The hash of the tree that ``commit`` holds.

    Parameters
    ----------
    commit : str
        A commit hash or any revision git resolves to a commit.
    repository : path-like
        A folder inside the git repository.

    Returns
    -------
    str
        The full hash of the commit's tree.

    Examples
    --------
    >>> len(tree_of("HEAD"))
    40
    """
    return git("rev-parse", "--verify", "--quiet", f"{commit}^{{tree}}", repository=repository).stdout.strip()


def same_as_working_tree(commit, repository=ROOT):
    """Whether the tracked files of the working tree hold just what ``commit`` holds.

    Parameters
    ----------
    commit : str
        A commit hash.
    repository : path-like
        A folder inside the git repository.

    Returns
    -------
    bool
        True when ``git diff`` finds no difference.

    Examples
    --------
    >>> same_as_working_tree("HEAD") in (True, False)
    True
    """
    return git("diff", "--quiet", commit, "--", check=False, repository=repository).returncode == 0


def refuse_same(base, head, names=("the base", "the head"), repository=ROOT):
    """Refuse a comparison of ``base`` with ``head`` when both hold the same files.

    Parameters
    ----------
    base : str
        A full commit hash.
    head : str or None
        A full commit hash, or None for the working tree.
    names : tuple of str
        What the two sides are called in the refusal (the second names
        the working tree itself when ``head`` is None).
    repository : path-like
        A folder inside the git repository.

    Raises
    ------
    InvalidArgument
        When both sides hold the same files: the comparison would pass
        whatever the code does.

    Examples
    --------
    >>> refuse_same("HEAD", "HEAD")
    Traceback (most recent call last):
    knight.errors.InvalidArgument: the base HEAD and the head HEAD hold the same files: ...
    """
    if head is None:
        same = same_as_working_tree(base, repository)
    else:
        same = tree_of(base, repository) == tree_of(head, repository)
    if same:
        other = names[1] if head is None else f"{names[1]} {head[:12]}"
        raise InvalidArgument(
            f"{names[0]} {base[:12]} and {other} hold the same files: "
            "the comparison would check nothing; name another revision"
        )
