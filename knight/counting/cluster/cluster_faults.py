"""This module makes a count on a failed Dask cluster end in one line.

Every wait is bounded, and every failure of Dask becomes one line that names
the cluster.

Dask waits for ever on work no worker can run: a future whose only worker
died stays pending until a worker comes, and one whose scheduler died is
cancelled, raised as a bare ``CancelledError``. So no wait of knight's on a
cluster is a plain one: ``Watch.wait`` waits ``POLL_SECONDS`` at a time
(a Ctrl-C or SIGTERM gets in between) and looks at the cluster each time:
a scheduler that no longer answers, or no worker for ``LOST_SECONDS``,
ends the count. ``translated`` turns what Dask raises when it loses work
(``CancelledError``, ``KilledWorker``, ``CommClosedError``, ``TimeoutError``,
the ``OSError`` of a comm) into ``ClusterLost``: an ``OSError`` whose one
line names the cluster and why (exit status 74, as a stream that failed
while working; what finished is kept: the DFS's resume file, the DP's
cluster checkpoint). Dask's own log lines are silenced (``quiet``): the one
line is knight's.
"""

import contextlib
import errno
import logging
import time
from concurrent.futures import CancelledError

from knight.errors import InvalidArgument

# how long a count waits, mid-count, for a cluster that has no worker left
# to get one back (a nanny restarts a killed worker in a few seconds)
LOST_SECONDS = 20.0
# a wait on the cluster looks at it, and lets a signal in, this often
POLL_SECONDS = 0.5
# the most a question to the scheduler (its workers) or the client's close may take
ASK_SECONDS = 5.0
# the loggers whose lines would otherwise reach stderr beside knight's one
_DASK_LOGGERS = ("distributed", "tornado", "asyncio")


class ClusterLost(OSError):
    """A count's cluster lost its work: ``filename`` names the cluster, as
    the command line prints an OSError ("WHERE: REASON"), exit status 74."""


def lost(where, reason):
    """The ``ClusterLost`` of the cluster at ``where``."""
    return ClusterLost(errno.EIO, reason, f"the Dask cluster at {where}")


def quiet():
    """Dask's log lines (its errors on losing a worker or the scheduler)
    kept off stderr: the count ends in knight's one line instead."""
    # Dask gives several of its loggers a stderr handler of their own
    # (``distributed.client`` among them): each one's is replaced
    names = [name for name in list(logging.root.manager.loggerDict) if name.split(".")[0] in _DASK_LOGGERS]
    for name in {*_DASK_LOGGERS, *names}:
        logger = logging.getLogger(name)
        logger.handlers = [logging.NullHandler()]
        logger.propagate = False


def _dask_kinds():
    from distributed import KilledWorker
    from distributed.comm.core import CommClosedError

    return KilledWorker, CommClosedError


def is_lost_work(error):
    """Whether ``error`` is Dask's word that the cluster lost work (a
    worker, the scheduler, a connection), not a task's own failure nor a
    file of knight's (an OSError naming a file)."""
    killed_worker, comm_closed = _dask_kinds()
    if isinstance(error, ClusterLost | InvalidArgument):
        return False
    if isinstance(error, killed_worker | comm_closed | CancelledError | TimeoutError):
        return True
    return isinstance(error, OSError) and error.filename is None


def reason(error):
    """One line on what Dask's ``error`` says the cluster lost."""
    killed_worker, _ = _dask_kinds()
    if isinstance(error, killed_worker):
        return "its workers died running a task, each time it was tried (KilledWorker: a memory limit?): no count"
    if isinstance(error, CancelledError):
        return "the scheduler dropped the count's tasks (CancelledError: the scheduler lost?): no count"
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return f"lost the connection to the scheduler ({text[:120]}): no count"


@contextlib.contextmanager
def translated(where):
    """What Dask raises on losing work, raised inside, as ``ClusterLost``
    naming the cluster at ``where``; everything else as it was."""
    try:
        yield
    except Exception as error:
        if not is_lost_work(error):
            raise
        raise lost(where, reason(error)) from None


class Watch:
    """The health of the cluster of ``client`` (at ``where``), looked at
    between the slices of every wait."""

    def __init__(self, client, where):
        self.client = client
        self.where = where
        self._empty_since = None

    def workers(self):
        """The scheduler's workers now, ``{address: info}``, fetched afresh
        (``client.scheduler_info()`` is a cache its periodic update refills
        without them) within ``ASK_SECONDS``; ``ClusterLost`` if the
        scheduler does not answer."""
        with translated(self.where):
            identity = self.client.sync(self.client.scheduler.identity, n_workers=-1, callback_timeout=ASK_SECONDS)
        return dict(identity.get("workers", {}))

    def check(self):
        """``ClusterLost`` if the scheduler is gone, or has had no worker
        for ``LOST_SECONDS``."""
        if self.client.status not in ("running", "connecting", "newly-created"):
            raise lost(self.where, f"lost the scheduler (the client is {self.client.status}): no count")
        if self.workers():
            self._empty_since = None
            return
        now = time.monotonic()
        if self._empty_since is None:
            self._empty_since = now
        elif now - self._empty_since >= LOST_SECONDS:
            raise lost(self.where, f"has had no workers for {LOST_SECONDS:g} s (its last one died?): no count")

    def wait(self, futures, first=False):
        """Wait for ``futures`` (Dask's own, or the ``concurrent.futures``
        ones of its executor): all, or with ``first`` the first to finish;
        returns the finished ones. Bounded: ``check`` between slices."""
        import concurrent.futures

        import distributed

        futures = list(futures)
        dask_futures = bool(futures) and isinstance(futures[0], distributed.Future)
        while True:
            with translated(self.where):
                if dask_futures:
                    with contextlib.suppress(TimeoutError):
                        distributed.wait(
                            futures, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED" if first else "ALL_COMPLETED"
                        )
                    done = {future for future in futures if future.done()}
                else:
                    when = concurrent.futures.FIRST_COMPLETED if first else concurrent.futures.ALL_COMPLETED
                    done, _ = concurrent.futures.wait(futures, timeout=POLL_SECONDS, return_when=when)
            if (done and first) or len(done) == len(futures):
                return done
            self.check()

    def gather(self, futures):
        """``client.gather(futures)``, waited for by ``wait``: a task's
        error, or Dask's on losing its work, raised as it is (the DP may run
        the step again; ``translated`` makes one line of what is left).

        The gather itself is bounded too (``ASK_SECONDS``; what is gathered
        is small: summaries, a partition file's name): a result lost
        between the wait and the gather (its worker died after the task
        finished) makes Dask's gather wait for a rerun, for ever if no
        worker is left. Past the bound, the wait goes round again, looking
        at the cluster between its slices."""
        import asyncio

        while True:
            self.wait(futures)
            try:
                # Client.gather takes no timeout: the coroutine behind it,
                # run through client.sync as ``workers`` runs its question, does
                return self.client.sync(self.client._gather, futures, callback_timeout=ASK_SECONDS)
            except (TimeoutError, asyncio.TimeoutError):  # one class from Python 3.11, two before
                self.check()


def close(client):
    """Close ``client`` within ``ASK_SECONDS``, whatever state its
    scheduler is in: a count that ends never waits on a dead one."""
    with contextlib.suppress(Exception):
        client.close(timeout=ASK_SECONDS)
