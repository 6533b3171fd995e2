"""Every worker the bench starts with ``python -m`` starts without a
warning: runpy warns when the worker's package has already imported the
module that it is about to run, and ``make bench`` would print that warning
in the middle of its progress lines."""

import ast
import re
import subprocess
import sys

import pytest

from bench import repo_paths
from tests import python_source

# a dotted module of bench/ that the bench names as a worker to start
_WORKER = re.compile(r"bench(\.\w+)+_worker")


def started_workers():
    """The dotted names of the workers that bench/ starts with ``python -m``:
    each string constant of its source that names a ``*_worker`` module."""
    found = set()
    for path in sorted((repo_paths.ROOT / "bench").rglob("*.py")):
        for node in ast.walk(python_source.parse_file(path)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and _WORKER.fullmatch(node.value):
                found.add(node.value)
    return sorted(found)


def runpy_start(module):
    """Start ``module`` as ``python -m`` does, up to its first line: runpy
    imports the package, checks it, and finds the module's code, which
    this stops short of running (a worker first warms up for seconds).
    Every warning is an error here; the finished process is returned."""
    code = f"import runpy; runpy._get_module_details({module!r})"
    return subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "-c", code],
        cwd=repo_paths.ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_scan_finds_the_workers_of_the_studies():
    assert {"bench.studies.counts.count_worker", "bench.studies.dp_steps.dp_step_worker"} <= set(started_workers())


@pytest.mark.parametrize("module", started_workers())
def test_a_worker_starts_without_a_warning(module):
    started = runpy_start(module)
    assert "Warning" not in started.stderr, started.stderr
    assert started.returncode == 0, started.stderr
