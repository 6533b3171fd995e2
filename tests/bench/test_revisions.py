"""The worker of another revision: a search its knight cannot run is
reported as such and the worker carries on."""

import ast
import shutil
import sys

import pytest

from bench.timing import revisions
from bench.timing.named_search import Search
from tests import python_source

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


def test_the_worker_imports_its_own_search_module_whatever_the_other_tree_holds(tmp_path):
    """The other revision may be an old commit, its bench/ flat (with a
    searches.py) or anything else: the worker takes named_search from its
    own folder and only knight from the tree."""
    tree = tmp_path / "other"
    shutil.copytree(revisions.ROOT / "knight", tree / "knight", ignore=shutil.ignore_patterns("__pycache__"))
    planted = "raise ImportError('the other tree shadowed the worker: {}')\n"
    (tree / "named_search.py").write_text(planted.format("named_search.py"))
    (tree / "bench").mkdir()
    for name in ("__init__.py", "searches.py", "named_search.py"):
        (tree / "bench" / name).write_text(planted.format(f"bench/{name}"))
    worker = revisions.Worker(tree, sys.executable)
    try:
        assert worker.run(GOOD).nodes == GOOD.run().nodes
    finally:
        worker.close()


def test_the_worker_and_its_search_module_import_only_each_other_and_the_standard_library():
    """Nothing from bench/ (another revision's bench/ is whatever it is) and
    nothing of knight but ``import knight``, done inside a function. The
    worker's neighbours ``named_search`` and ``worker_main`` are its own."""
    folder = revisions.WORKER.parent
    for path in (revisions.WORKER, folder / "named_search.py", folder / "worker_main.py"):
        for node in ast.walk(python_source.parse_file(path)):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or name in ("named_search", "worker_main", "knight"), (
                    f"{path.name}: {name}"
                )


def test_the_guards_plants_never_reach_another_revision(monkeypatch):
    """Both self-test plants (the speed check's and the A/B worker's) are
    named under ``PLANTS``, so the workers' environment drops them."""
    from bench.guard import speed_check

    for name in (speed_check.PLANT, revisions.TIME_PLANT):
        assert name.startswith(revisions.PLANTS)
        monkeypatch.setenv(name, "2")
    monkeypatch.setenv("KNIGHT_NOT_A_PLANT", "kept")
    cleaned = revisions.clean_environment()
    assert speed_check.PLANT not in cleaned and revisions.TIME_PLANT not in cleaned
    assert cleaned["KNIGHT_NOT_A_PLANT"] == "kept"
