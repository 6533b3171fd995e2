"""This module gives the executors that DFS work units run on.

An executor is a local thread pool, since the kernels release the GIL, or a
Dask cluster's ``concurrent.futures`` executor. The cluster's waits are
bounded and its failures are one line (``cluster.cluster_faults``)."""

import concurrent.futures
import contextlib

from knight.counting.cluster import cluster_faults, dask_client
from knight.runtime import machine


def local_executor(workers=None):
    """A thread pool over this machine's cores: the kernels release the GIL."""
    workers = workers or machine.usable_cores()
    return concurrent.futures.ThreadPoolExecutor(max_workers=workers)


def dask_executor(address):
    """An executor on the Dask cluster whose scheduler is at ``address``."""
    return _DaskExecutor(dask_client.connect(address))


class _DaskExecutor:
    """The client's concurrent.futures executor: ``first_done`` waits a
    slice at a time, the cluster looked at between (``Watch``); a failure
    of Dask's is a ``ClusterLost`` (``failures``); shutting down never
    waits on work a lost cluster cannot finish, and closes the connection."""

    def __init__(self, client):
        self.client = client
        self.watch = cluster_faults.Watch(client, client.scheduler.address)
        self._executor = client.get_executor()
        self.workers = max(1, sum(client.nthreads().values()))

    def submit(self, fn, *args):
        with self.failures():
            return self._executor.submit(fn, *args)

    def first_done(self, pending):
        return self.watch.wait(pending, first=True)

    def failures(self):
        return cluster_faults.translated(self.watch.where)

    def shutdown(self, wait=True, cancel_futures=False):
        # what is pending is cancelled, never waited for: with its workers
        # or its scheduler gone it would never finish (the units a count
        # still runs there are lost; those finished are kept)
        with contextlib.suppress(Exception):
            self._executor.shutdown(wait=False)
        cluster_faults.close(self.client)


def first_done(executor, pending):
    """The futures of ``pending`` that have finished, at least one: waited
    for as ``executor`` bounds its waits (a local pool's end by the stop
    signal; a cluster's a slice at a time)."""
    if hasattr(executor, "first_done"):
        return executor.first_done(pending)
    return concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)[0]


def failures(executor):
    """A context in which ``executor``'s failures are raised as one line."""
    return executor.failures() if hasattr(executor, "failures") else contextlib.nullcontext()


def parallelism(executor):
    """How many tasks ``executor`` runs at once, as far as it says."""
    return getattr(executor, "workers", None) or getattr(executor, "_max_workers", None) or machine.usable_cores()
