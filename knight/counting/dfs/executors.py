"""Where DFS work units run: a local thread pool (the kernels release the
GIL) or a Dask cluster's ``concurrent.futures`` executor."""

import concurrent.futures

from knight import machine
from knight.counting.dfs import dask_client

DASK_CONNECT_SECONDS = 5
# how long a count waits for a scheduler with no workers to get one
DASK_WORKER_SECONDS = 30


def local_executor(workers=None):
    """A thread pool over this machine's cores: the kernels release the GIL."""
    workers = workers or machine.usable_cores()
    return concurrent.futures.ThreadPoolExecutor(max_workers=workers)


def dask_executor(address):
    """An executor on the Dask cluster whose scheduler is at ``address``."""
    return _DaskExecutor(dask_client.connect(address, DASK_CONNECT_SECONDS, DASK_WORKER_SECONDS))


class _DaskExecutor:
    """The client's concurrent.futures executor; shutting it down also
    closes the connection."""

    def __init__(self, client):
        self.client = client
        self._executor = client.get_executor()
        self.workers = max(1, sum(client.nthreads().values()))

    def submit(self, fn, *args):
        return self._executor.submit(fn, *args)

    def shutdown(self, wait=True, cancel_futures=False):
        self._executor.shutdown(wait=wait)
        self.client.close()


def parallelism(executor):
    """How many tasks ``executor`` runs at once, as far as it says."""
    return getattr(executor, "workers", None) or getattr(executor, "_max_workers", None) or machine.usable_cores()
