"""Measure what a Dask cluster costs the frontier DP on one machine.

It makes the same run (an open or closed total, one DP with no forced end)
in this process and on a loopback ``LocalCluster`` of 1 and 2
single-threaded worker processes. From the cluster's per-step summaries it
shows where the cluster's time goes: the step kernel, the merges, and the
rest (scheduling, serialisation and transfer). It is not part of a sweep, so
run it by hand.

    python -m bench.by_hand.dp_cluster_overhead 6x6 6x7

and read ``uptime`` beside it (the numbers move with the machine's load).

The counting study (``count_study``, engines ``dp-1-worker`` and
``dp-2-workers``) now times the same totals on 5x5 and 6x6 in every sweep,
so the cluster's overhead against the one process is measured there; this
script stays for what the study does not show: where the time goes (kernel,
merges, the busiest worker, the bytes moved) and boards past the study's.
"""

import sys
import time

from bench import command
from knight import InvalidArgument, harness_api


def _single(rows, cols, closed):
    began = time.perf_counter()
    found, work = harness_api.total_with_work(rows, cols, closed)
    return found, time.perf_counter() - began, work


def _on_cluster(client, rows, cols, closed, parts):
    run = harness_api.ClusterRun(client, parts=parts)
    harness_api.total_with_work(3, 4, closed, None, run)  # every worker compiles and loads its kernels first
    began = time.perf_counter()
    found, work = harness_api.total_with_work(rows, cols, closed, None, run)
    wall = time.perf_counter() - began
    moved = sum(step["moved"] for step in run.steps)
    busy = {}
    for step in run.steps:
        for worker, seconds in step["busy"].items():
            busy[worker] = busy.get(worker, 0.0) + seconds
    return {
        "found": found,
        "wall": wall,
        "kernel": sum(step["step_seconds"] for step in run.steps),
        "merge": sum(step["merge_seconds"] for step in run.steps),
        "moved": moved,
        "busiest": max(busy.values()),
        "states": work.transitions,
    }


def _boards(texts):
    """``6x6 6x8c`` as ``[(6, 6, False), (6, 8, True)]``: a trailing ``c`` is closed."""
    boards = []
    for text in texts:
        closed = text.endswith("c")
        try:
            ((rows, cols),) = command.parse_boards(text[:-1] if closed else text)
        except ValueError:
            raise InvalidArgument(f"a board is RxC (open) or RxCc (closed), like 6x8c, got {text!r}") from None
        boards.append((rows, cols, closed))
    return boards


@command.ends_in_one_line
def main(argv=None):
    import distributed

    parser = command.Parser(prog="python -m bench.by_hand.dp_cluster_overhead", description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="+", help="RxC, open; RxCc closed")
    args = parser.parse_args(argv)
    boards = _boards(args.boards)
    harness_api.total_with_work(3, 4, False)  # compiled before the clock starts
    print("| board | engine | seconds | x single | kernel s | merge s | busiest worker s | moved MB |")
    print("|---|---|---|---|---|---|---|---|")
    for rows, cols, closed in boards:
        found, single, _ = _single(rows, cols, closed)
        name = f"{rows}x{cols} {'closed' if closed else 'open'}"
        print(f"| {name} | single process | {single:.2f} | 1.0 | | | | |", flush=True)
        for workers in (1, 2):
            with (
                distributed.LocalCluster(
                    n_workers=workers, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
                ) as cluster,
                distributed.Client(cluster) as client,
            ):
                got = _on_cluster(client, rows, cols, closed, workers)
            if got["found"] != found:
                raise AssertionError(f"{name}: the cluster counted {got['found']}, the process {found}")
            print(
                f"| {name} | {workers} worker{'s' if workers > 1 else ''} ({workers} part"
                f"{'s' if workers > 1 else ''}) | {got['wall']:.2f} | {got['wall'] / single:.2f} | "
                f"{got['kernel']:.2f} | {got['merge']:.2f} | {got['busiest']:.2f} | {got['moved'] / 1e6:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    sys.exit(main())
