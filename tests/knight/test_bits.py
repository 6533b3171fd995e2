"""The bit instructions, compiled and interpreted."""

import os
import subprocess
import sys

import numpy as np

from knight import _bits


def test_python_popcount_counts_bits():
    for word in (0, 1, 0b1011, 2**64 - 1, 2**63):
        assert _bits._popcount_python(np.uint64(word)) == bin(word).count("1")


def test_solve_and_count_run_with_the_jit_disabled():
    """Issue 13, item 10: coverage runs (NUMBA_DISABLE_JIT=1) failed on every
    board, as the popcount intrinsic cannot run in the interpreter."""
    code = (
        "import knight\n"
        "assert knight.solve(8, 8).found\n"
        "assert knight.count_tours(3, 4, depth=0).total_tours == 16\n"
    )
    environment = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
