"""This module makes one virtual environment for each Numba release of the Numba matrix.

An environment is made on first use under ``$KNIGHT_CACHE/numba-VERSION``
(default ``~/.cache/knight``), outside the repository, and kept. It holds
that Numba (the newest patch release of the version asked for) and whatever
NumPy and llvmlite pip pairs with it. It holds nothing of knight, because
the worker puts the repository on its path.

A release that does not install for this Python is a one-line reason, not
an error: the matrix goes on without it.
"""

import shutil
import subprocess
import sys

from bench.baselines import c as c_baseline

STAMP = ".knight-installed"


class VersionMissing(RuntimeError):
    """A Numba release that does not install (or run) here."""


def folder(version):
    return c_baseline.cache_dir() / f"numba-{version}"


def _reason(text):
    """pip's first ERROR line (what failed), else its last line."""
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("WARNING")]
    errors = [line for line in lines if line.startswith("ERROR:")]
    return (errors or lines or ["no output"])[0 if errors else -1]


def python_of(version):
    """The Python of ``version``'s environment, making it first when needed,
    or raise VersionMissing."""
    home = folder(version)
    python = home / "bin" / "python"
    if (home / STAMP).exists():
        return python
    made_here = not home.exists()
    try:
        _install(home, python, version)
    except VersionMissing:
        if made_here:
            # ours, half made: a later run starts it afresh
            shutil.rmtree(home, ignore_errors=True)
        raise
    return python


def _install(home, python, version):
    made = subprocess.run(
        [sys.executable, "-m", "venv", "--clear", str(home)], capture_output=True, text=True, check=False
    )
    if made.returncode != 0:
        raise VersionMissing(f"numba {version}: venv failed: {_reason(made.stderr)}")
    pinned = f"numba=={version}.*" if version.count(".") == 1 else f"numba=={version}"
    # --only-binary: a release without a wheel for this Python is missing, not a
    # source build of LLVM bindings that fails minutes later
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--only-binary", ":all:", pinned],
        capture_output=True,
        text=True,
        check=False,
    )
    if installed.returncode != 0:
        raise VersionMissing(
            f"numba {version} does not install for Python {sys.version.split()[0]}: {_reason(installed.stderr)}"
        )
    (home / STAMP).write_text(pinned + "\n")
