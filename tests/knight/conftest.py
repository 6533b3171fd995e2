"""Fixtures of the DP's cluster tests: one loopback Dask cluster (two
worker processes, a thread each) and a client of it, for the whole session:
``make test`` runs the files that use them on one worker
(tests/conftest.py's ``SHARED_CLUSTER_FILES``), which starts it once."""

import pytest


@pytest.fixture(scope="session")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
    ) as running:
        yield running


@pytest.fixture(scope="session")
def client(cluster):
    distributed = pytest.importorskip("distributed")
    with distributed.Client(cluster) as connected:
        yield connected
