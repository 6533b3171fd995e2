"""``make test``'s work units (tests/conftest.py): the files that share a
loopback cluster exist and get one scope, every other file gets its own, and
the longest units are handed out first."""

import pathlib

import pytest

from tests import conftest

xdist_scheduler = pytest.importorskip("xdist.scheduler")


ROOT = pathlib.Path(__file__).parent.parent


def test_each_shared_cluster_file_exists():
    assert all((ROOT / name).is_file() for name in conftest.SHARED_CLUSTER_FILES)


def test_each_longest_unit_is_a_file_or_the_shared_scope_and_is_named_once():
    units = conftest.LONGEST_FIRST
    assert len(set(units)) == len(units)
    assert all(unit == conftest.SHARED_CLUSTER_SCOPE or (ROOT / unit).is_file() for unit in units)


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


class _Node:
    """What the scheduler asks of a worker: the indexes of the tests to run."""

    def __init__(self):
        self.sent = []

    def send_runtest_some(self, indexes):
        self.sent.append(indexes)


def test_the_longest_units_are_handed_out_first_in_their_order_and_then_the_rest():
    scheduling = conftest.pytest_xdist_make_scheduler(_Config("loadfile"), None)
    first, second = conftest.LONGEST_FIRST[1], conftest.LONGEST_FIRST[0]
    nodeids = ["tests/a.py::test_x", f"{conftest.SHARED_CLUSTER_FILES[0]}::test_y", f"{second}::test_z"]
    for nodeid in nodeids:
        scheduling.workqueue.setdefault(scheduling._split_scope(nodeid), {})[nodeid] = False
    node = _Node()
    scheduling.registered_collections[node] = nodeids
    for _ in nodeids:
        scheduling._assign_work_unit(node)
    assert list(scheduling.assigned_work[node]) == [second, first, "tests/a.py"]
    assert node.sent == [[2], [1], [0]]
