"""This module gives a study a handle on a worker process that answers one request at a time under a time cap.

The counting study (bench/studies/counts/) and the step-engine study
(bench/studies/dp_steps/) share it, so it lives in neither's folder.

A count cannot be interrupted from outside once its kernels run, so a
study runs it in a worker process and kills the process when no answer
comes in time. The worker is ``python -m MODULE [SIZES]``: it answers a
warm-up line first (``{"warm_up_seconds": s}``), then one JSON line for
each JSON request on its stdin.
"""

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys

from bench import repo_paths
from bench.timing import owned_folders

# a worker's temporary folder: owned_folders names it with this process's id
SCRATCH_PREFIX = "knight-count-study-"


class CappedWorker:
    """``ask`` starts the worker of ``module`` when none runs, and kills it
    (by its own handle) when no answer comes in time. ``warm_ups`` lists
    each start's warm-up seconds.

    A worker's temporary folder (``TMPDIR``, where a DP too big for memory
    shards its tables) is one of the study's own, removed with the worker:
    a killed count leaves nothing behind. ``clusters``: the sizes of the
    loopback clusters it starts while it warms up (the worker's SIZES); it
    runs in a process group of its own, killed whole, its clusters' worker
    processes with it."""

    def __init__(self, module, python=sys.executable, clusters=()):
        self.python = python
        self.clusters = tuple(sorted(set(clusters)))
        self.module = module
        self.process = None
        self.scratch = None
        self.warm_ups = []

    def ask(self, request, timeout):
        """Send ``request`` (JSON-ready) to the worker, starting one if
        none runs; its answer, or None when none came within ``timeout``
        seconds (the worker killed, its scratch removed)."""
        if self.process is None:
            self._start()
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self._line(timeout)
        if line is None:
            self.close()
            return None
        return json.loads(line)

    def _start(self):
        owned_folders.remove_stale(SCRATCH_PREFIX)
        self.scratch = owned_folders.make(SCRATCH_PREFIX)
        sizes = [",".join(str(size) for size in self.clusters)] if self.clusters else []
        self.process = subprocess.Popen(
            [self.python, "-m", self.module, *sizes],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=repo_paths.ROOT,
            env={**os.environ, "TMPDIR": self.scratch},
            start_new_session=True,
        )
        line = self._line(None)
        self.warm_ups.append(json.loads(line)["warm_up_seconds"])

    def _line(self, timeout):
        """The worker's next line; None if none came within ``timeout`` seconds."""
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            return None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker {self.module} exited with status {self.process.wait()}")
        return line

    def close(self):
        """Stop the worker, if one runs (killed: a count may be under way)."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)  # its group: the clusters' processes too
            self.process.wait()
            self.process.stdin.close()
            self.process.stdout.close()
            self.process = None
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None
