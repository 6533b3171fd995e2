"""Fixtures of the DP's cluster tests: one loopback Dask cluster a test
module (two worker processes, a thread each) and a client of it."""

import pytest


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
    ) as running:
        yield running


@pytest.fixture(scope="module")
def client(cluster):
    distributed = pytest.importorskip("distributed")
    with distributed.Client(cluster) as connected:
        yield connected
