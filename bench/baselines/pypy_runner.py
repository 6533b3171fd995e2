"""This module runs the plain-Python reference under PyPy in one long-lived process.

One pypy3 process (bench/baselines/pypy_worker.py) is kept for a whole
measurement, so that its JIT stays warm from one round to the next, as the
code of a compiled side does.

``$PYPY`` names the interpreter, else ``pypy3`` on PATH; where there is
none, ``PyPyMissing`` says so in one line and the comparison goes on
without it.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

WORKER = Path(__file__).with_name("pypy_worker.py")


class PyPyMissing(RuntimeError):
    """No PyPy here: its column is skipped."""


def interpreter():
    """The path of pypy3, or raise PyPyMissing."""
    found = shutil.which(os.environ.get("PYPY") or "pypy3")
    if not found:
        raise PyPyMissing("pypy3 not on PATH (Debian/Ubuntu: apt-get install pypy3; or set PYPY); skipped")
    return found


class PyPyWorker:
    """One running worker; ``close()`` (or ``with``) ends it."""

    name = "pypy"

    def __init__(self):
        pypy = interpreter()
        shown = subprocess.run([pypy, "--version"], capture_output=True, text=True, check=False).stdout
        self.version = " ".join(shown.split())
        self._process = subprocess.Popen(
            [pypy, "-u", str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, search, budget_cap, empty_calls=0, with_empty=False):
        """The worker's answer (a dict, pypy_worker.py) for a ``Search``."""
        request = {
            "method": search.method,
            "rows": search.rows,
            "cols": search.cols,
            "start": list(search.start),
            "closed": search.closed,
            "budget": search.budget,
            "tiebreak": search.tiebreak,
            "budget_cap": budget_cap,
            "empty_calls": empty_calls,
            "with_empty": with_empty,
        }
        self._process.stdin.write(json.dumps(request) + "\n")
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        if not line:
            raise PyPyMissing(f"the pypy3 worker ended (exit status {self._process.wait()})")
        return json.loads(line)

    def close(self):
        if self._process.poll() is None:
            self._process.stdin.close()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process.stdout.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
