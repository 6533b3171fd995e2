"""Fixtures of the DP's cluster tests: one loopback Dask cluster (two
worker processes, a thread each) and a client of it, shared by the files
that use them: ``make test`` runs those files on one worker, one after the
other (tests/conftest.py's ``SHARED_CLUSTER_FILES``), which starts the
cluster once. The cluster is closed as soon as the next test to run needs
none: an idle cluster still spends CPU on its heartbeats, and the rest of
the run needs that CPU."""

import contextlib

import pytest

# the running cluster and client, with the stack that closes them; empty
# while none runs
_LOOPBACK = {}


def _loopback():
    """The shared cluster and client, started on first use, and again after a close."""
    if not _LOOPBACK:
        distributed = pytest.importorskip("distributed")
        with contextlib.ExitStack() as stack:
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
                )
            )
            client = stack.enter_context(distributed.Client(cluster))
            _LOOPBACK.update(stack=stack.pop_all(), cluster=cluster, client=client)
    return _LOOPBACK


# module scope: a module's tests and its module fixtures share one object,
# and the cluster is closed only between modules (below)
@pytest.fixture(scope="module")
def cluster():
    return _loopback()["cluster"]


@pytest.fixture(scope="module")
def client(cluster):
    return _loopback()["client"]


def _needs_cluster(item):
    return not {"cluster", "client"}.isdisjoint(getattr(item, "fixturenames", ()))


def pytest_runtest_teardown(item, nextitem):
    leaving = nextitem is None or (nextitem.path != item.path and not _needs_cluster(nextitem))
    if _LOOPBACK and leaving:
        _LOOPBACK.pop("stack").close()
        _LOOPBACK.clear()
