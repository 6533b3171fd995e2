"""This module records the facts about the machine, the software and the source tree that meta.json keeps.

These facts make a measurement reproducible."""

import os
import platform
import subprocess
import sys
from importlib import metadata

from bench import repo_paths
from knight.harness_api import usable_cores


def cpu_model():
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine():
    return {
        "cpu_model": cpu_model(),
        "logical_cores": os.cpu_count(),
        "usable_cores": usable_cores(),
        "os": platform.platform(),
        "hostname": platform.node(),
    }


def _version(package):
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def software():
    return {
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        # knight's key names the package; its distribution is knight-tours
        "knight": _version("knight-tours"),
        **{package: _version(package) for package in ("numba", "llvmlite", "numpy", "matplotlib", "tqdm")},
    }


def numba_settings():
    """Numba's threading layer and every NUMBA_* variable that was set.

    The kernels are single-threaded, so the threading layer cannot change
    their speed; it is recorded because it is the first thing asked when
    two machines disagree.
    """
    import numba

    try:
        layer = numba.threading_layer()
    except ValueError:
        # only known once a parallel kernel has run, and none of ours is
        layer = f"not started (configured: {numba.config.THREADING_LAYER})"
    return {
        "threading_layer": layer,
        "num_threads": numba.config.NUMBA_NUM_THREADS,
        "disable_jit": bool(numba.config.DISABLE_JIT),
        "environment": {name: value for name, value in sorted(os.environ.items()) if name.startswith("NUMBA_")},
    }


def _git(*args):
    done = subprocess.run(["git", *args], cwd=repo_paths.ROOT, capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise OSError(done.stderr.strip())
    return done.stdout.strip()


def git():
    """The commit the sweep ran from and whether the tree had changes."""
    try:
        commit = _git("rev-parse", "HEAD")
        dirty = _git("status", "--porcelain") != ""
    except (OSError, subprocess.SubprocessError):
        return {"commit": "unknown", "short": "nogit", "dirty": False}
    return {"commit": commit, "short": commit[:7], "dirty": dirty}
