"""This module keeps the DP's worker threads, one pool for each thread count in a process.

The pools are kept from pass to pass and from step to step.

Why kept: a pool made and shut down around a pass cost more than handing
the pass to threads already running, and a small board's total made
dozens of such pools (journal: "Worker threads kept for the run"). The kernels
release the GIL, so the threads run them side by side.
"""

import concurrent.futures
import os
import threading

_pools = {}
_lock = threading.Lock()


def _forget_pools():
    # a forked child has none of its parent's threads: pools it inherited
    # would take work and never run it
    _pools.clear()


os.register_at_fork(after_in_child=_forget_pools)


def _pool(threads):
    with _lock:
        pool = _pools.get(threads)
        if pool is None:
            pool = concurrent.futures.ThreadPoolExecutor(threads, thread_name_prefix="knight-dp")
            _pools[threads] = pool
        return pool


def map_all(fn, *iterables, threads):
    """``[fn(*args) for args in zip(*iterables)]``, at most ``threads`` at a
    time on the process's pool (in this thread where there is one call or
    one thread). If a call raises, or the wait is interrupted, the calls not
    yet started are cancelled and those running are waited for before it
    propagates: no call outlives this one, as none outlived the ``with``
    block of a pool of its own. Never called from inside such a call: the
    pool's threads would wait on themselves."""
    calls = list(zip(*iterables, strict=True))
    if threads <= 1 or len(calls) <= 1:
        return [fn(*args) for args in calls]
    futures = [_pool(threads).submit(fn, *args) for args in calls]
    try:
        return [future.result() for future in futures]
    finally:
        for future in futures:
            future.cancel()
        concurrent.futures.wait(futures)
