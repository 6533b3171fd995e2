"""The bit instructions, compiled and interpreted."""

import os
import subprocess
import sys

import numpy as np

from knight import _bits


def test_python_popcount_counts_bits():
    for word in (0, 1, 0b1011, 2**64 - 1, 2**63):
        assert _bits._popcount_python(np.uint64(word)) == bin(word).count("1")


def test_prefetch_is_a_hint_compiled_and_interpreted():
    from knight._jit import jit

    @jit
    def total(values):
        sum_ = 0
        for index in range(values.shape[0]):
            _bits.prefetch(values, (index * 7) % values.shape[0])
            sum_ += values[index]
        return sum_

    values = np.arange(100, dtype=np.uint64)
    assert total(values) == 4950
    assert _bits._prefetch_python(values, 3) is None


def test_solve_and_count_run_with_the_jit_disabled():
    """Issue 13, item 10: coverage runs (NUMBA_DISABLE_JIT=1) failed on every
    board, as the popcount intrinsic cannot run in the interpreter."""
    code = (
        "import knight\n"
        "assert knight.solve(8, 8).found\n"
        "assert knight.count_tours(3, 4, depth=0).total_tours == 16\n"
        # the DP: the prefetch hint is a no-op in the interpreter
        "assert knight.count_tours(3, 4, method='dp').total_tours == 16\n"
    )
    environment = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
