"""This module runs the work units of a split DFS count on an executor.

The units run in batches sized by time. Each finished unit is recorded in
the resume file as its batch ends. On any exception, Ctrl-C included, the
count's stop signal is raised."""

from knight.counting.dfs.executors import failures, first_done, parallelism
from knight.counting.dfs.unit_count import count_units, stop_signal
from knight.runtime import status

# Units go to the executor in batches sized to run about BATCH_SECONDS each
# (from the last batch's time; the first is one unit): one task per unit
# cost some 0.1 ms of pool overhead each, which on the plain 5x5 count
# (2,800 units of 14,000 nodes) was a third of its CPU time. Short enough
# that progress moves and Ctrl-C loses little.
BATCH_SECONDS = 0.05
MAX_BATCH = 1024


def _next_batch(answers, seconds):
    """Units per task that take about ``BATCH_SECONDS``, going by the last task."""
    if seconds <= 0:
        return MAX_BATCH
    return max(1, min(MAX_BATCH, int(BATCH_SECONDS * answers / seconds)))


def run_units(plan, executor, budget, store=None, progress=None, stop=None):
    """Count every unit of ``plan`` not already in ``store`` on
    ``executor``, in batches of about ``BATCH_SECONDS`` each; record each
    unit in ``store`` as its batch finishes. Returns ``{unit index:
    (status, tours, nodes)}``. On any exception (Ctrl-C among them)
    ``stop`` (this count's ``stop_signal``) is raised: units in flight give
    up and are lost; every unit that finished is recorded."""
    stop = stop_signal() if stop is None else stop
    results = dict(store.finished) if store is not None else {}
    total = len(plan.units)
    if progress is not None:
        progress(len(results), total)

    def keep(indices, answers):
        # a batch that saw the stop signal answers for fewer units, the
        # last of them perhaps STOPPED: neither those nor the rest are kept
        for index, answer in zip(indices, answers, strict=False):
            if answer[0] != status.STOPPED:
                results[index] = answer
                if store is not None:
                    store.record(index, plan.units[index].tolist(), *answer)

    todo = [index for index in range(total) if index not in results]
    in_flight = 2 * parallelism(executor)
    pending = {}
    position, batch = 0, 1
    try:
        while position < len(todo) or pending:
            while position < len(todo) and len(pending) < in_flight:
                indices = todo[position : position + batch]
                position += len(indices)
                prefixes = [plan.units[index].tolist() for index in indices]
                future = executor.submit(
                    count_units, plan.rows, plan.cols, plan.closed, plan.pruned, budget, prefixes, stop
                )
                pending[future] = indices
            for future in first_done(executor, pending):
                with failures(executor):
                    answers, seconds = future.result()
                keep(pending.pop(future), answers)
                batch = _next_batch(len(answers), seconds)
                if progress is not None:
                    progress(len(results), total)
    except BaseException:
        stop[0] = 1
        for future in pending:
            future.cancel()
        executor.shutdown(wait=True, cancel_futures=True)
        # units that finished while the loop was away, or before the stop
        # reached them, are as good as any: keep them for --resume
        for future, indices in pending.items():
            if not future.done() or future.cancelled() or future.exception() is not None:
                continue
            keep(indices, future.result()[0])
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
    return results
