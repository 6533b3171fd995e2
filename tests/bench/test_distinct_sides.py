"""No comparison of the revision tools can compare a thing with itself: a
shallow or grafted clone cannot pick the guard's base, and two sides that
hold the same files are refused in one line before any work."""

import subprocess

import pytest

from bench.commits import compare, find, history
from bench.guard import base_check
from bench.timing import distinct_sides
from knight import InvalidArgument


def _git(repository, *arguments):
    done = subprocess.run(["git", "-C", str(repository), *arguments], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def _commit(repository, name, text, message):
    path = repository / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    _git(repository, "add", name)
    _git(repository, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", message)
    return _git(repository, "rev-parse", "HEAD")


@pytest.fixture
def repository(tmp_path):
    """A history: a code commit, the baseline's, two code commits after it."""
    folder = tmp_path / "repo"
    folder.mkdir()
    _git(folder, "init", "--quiet")
    first = _commit(folder, "knight/code.py", "x = 1\n", "code")
    _commit(folder, "results/baseline/base.json", f'{{"on top of": "{first}"}}\n', "baseline")
    _commit(folder, "knight/code.py", "x = 2\n", "faster")
    _commit(folder, "knight/code.py", "x = 3\n", "slower")
    return folder


def _record(folder):
    return folder / "results" / "baseline" / "base.json"


def test_the_default_base_of_a_full_clone_is_the_commit_that_changed_the_baseline(repository):
    assert base_check.default_base(repository, _record(repository)) == _git(repository, "rev-parse", "HEAD~2")


def test_a_shallow_clone_is_refused_in_one_line(repository, tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", "--depth", "1", f"file://{repository}", str(clone)], check=True)
    assert distinct_sides.is_shallow(clone)
    with pytest.raises(InvalidArgument, match="shallow clone") as refused:
        base_check.default_base(clone, _record(clone))
    assert "\n" not in str(refused.value)


def test_a_grafted_root_is_not_taken_for_the_commit_that_changed_the_baseline(repository):
    """A grafted root reads as the commit that added every file."""
    head = _git(repository, "rev-parse", "HEAD")
    _git(repository, "replace", "--graft", head)
    assert not distinct_sides.is_shallow(repository) and distinct_sides.is_grafted(head, repository)
    assert _git(repository, "log", "-1", "--format=%H", "--", "results/baseline") == head
    with pytest.raises(InvalidArgument, match="grafted commit"):
        base_check.default_base(repository, _record(repository))


def test_the_history_refuses_grafted_commits(repository, tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", "--depth", "2", f"file://{repository}", str(clone)], check=True)
    listed = _git(clone, "rev-list", "HEAD").split()
    with pytest.raises(InvalidArgument, match="grafted commit"):
        distinct_sides.refuse_grafted(listed, "the commits", clone)
    distinct_sides.refuse_grafted(listed[:1], "the commits", clone)  # the newest is walked as it records


def test_the_commit_that_recorded_the_baseline_is_held_to_the_one_below_it(repository):
    """Checked out, the baseline's own commit would be its own base."""
    _git(repository, "reset", "--quiet", "--hard", "HEAD~2")
    on_top_of = _git(repository, "rev-parse", "HEAD~1")
    assert base_check.default_base(repository, _record(repository)) == on_top_of
    (repository / "knight" / "code.py").write_text("x = 9\n")  # a change of one's own is checked against it
    assert base_check.default_base(repository, _record(repository)) == _git(repository, "rev-parse", "HEAD")


def test_two_sides_with_the_same_files_are_refused(repository):
    head, below = _git(repository, "rev-parse", "HEAD"), _git(repository, "rev-parse", "HEAD~1")
    with pytest.raises(InvalidArgument, match="hold the same files"):
        distinct_sides.refuse_same(head, None, repository=repository)
    with pytest.raises(InvalidArgument, match="hold the same files"):
        distinct_sides.refuse_same(head, head, repository=repository)
    distinct_sides.refuse_same(below, head, repository=repository)
    distinct_sides.refuse_same(below, None, repository=repository)
    (repository / "knight" / "code.py").write_text("x = 9\n")
    distinct_sides.refuse_same(head, None, repository=repository)


def test_bisecting_between_two_commits_with_the_same_files_is_refused(repository):
    reverted = _commit(repository, "knight/code.py", "x = 2\n", "revert")
    good = _git(repository, "rev-parse", "HEAD~2")
    with pytest.raises(InvalidArgument, match=r"GOOD .* and BAD .* hold the same files"):
        find.find(good, reverted, [], 1, 0.25, repository=repository, say=lambda _: None)


def test_the_guard_refuses_the_tree_against_itself_before_any_work(monkeypatch, capsys):
    monkeypatch.setattr(distinct_sides, "same_as_working_tree", lambda *_: True)
    monkeypatch.setattr(base_check, "check_nodes", lambda: pytest.fail("measured before refusing"))
    assert base_check.main(["--base", "HEAD"]) == 2
    err = capsys.readouterr().err
    assert "hold the same files" in err and err.count("\n") == 1


def test_compare_refuses_a_revision_against_itself_before_any_work(monkeypatch, capsys):
    monkeypatch.setattr(compare, "compare", lambda *_: pytest.fail("measured before refusing"))
    assert compare.main(["HEAD", "--head", "HEAD"]) == 2
    err = capsys.readouterr().err
    assert "BASE" in err and "hold the same files" in err and err.count("\n") == 1


def test_history_refuses_a_shallow_clones_grafted_commits(monkeypatch, capsys):
    monkeypatch.setattr(history, "commits", lambda *_, **__: ["a" * 40])
    monkeypatch.setattr(distinct_sides, "_history_rewritten", lambda _: True)
    monkeypatch.setattr(distinct_sides, "is_grafted", lambda *_: True)
    monkeypatch.setattr(history, "run", lambda *_, **__: pytest.fail("measured before refusing"))
    assert history.main([]) == 2
    err = capsys.readouterr().err
    assert "grafted commit" in err and err.count("\n") == 1
