"""``make test``'s one work unit for the files that share a loopback
cluster (tests/conftest.py): they exist, and xdist's file distribution gives
them one scope and every other file its own."""

import pathlib

import pytest

from tests import conftest

xdist_scheduler = pytest.importorskip("xdist.scheduler")


def test_each_shared_cluster_file_exists():
    root = pathlib.Path(__file__).parent.parent
    assert all((root / name).is_file() for name in conftest.SHARED_CLUSTER_FILES)


class _Config:
    """What xdist's schedulers read of a run's options: ``-n 2 --dist DIST``."""

    def __init__(self, dist):
        self.options = {"dist": dist, "tx": ["2*popen"]}

    def getvalue(self, name):
        return self.options[name]


def test_loadfile_gives_the_shared_files_one_scope_and_the_others_their_own():
    scheduling = conftest.pytest_xdist_make_scheduler(_Config("loadfile"), None)
    scopes = {scheduling._split_scope(f"{name}::test_x") for name in conftest.SHARED_CLUSTER_FILES}
    assert len(scopes) == 1
    assert scheduling._split_scope("tests/knight/test_search.py::test_x") == "tests/knight/test_search.py"


def test_another_distribution_keeps_xdists_own():
    assert conftest.pytest_xdist_make_scheduler(_Config("load"), None) is None
