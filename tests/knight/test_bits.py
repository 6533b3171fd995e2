"""The bit instructions, compiled and interpreted."""

import os
import subprocess
import sys

import numpy as np
import pytest

from knight.runtime import _bits


def test_python_popcount_counts_bits():
    for word in (0, 1, 0b1011, 2**64 - 1, 2**63):
        assert _bits._popcount_python(np.uint64(word)) == bin(word).count("1")


def test_prefetch_is_a_hint_compiled_and_interpreted():
    from knight.runtime._jit import jit

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
        # 3x10's 16 closed tours (OEIS A070030), from each of 30 starts, both ways
        "assert knight.count_tours(3, 10, closed=True, method='dp').total_tours == 16 * 30 * 2\n"
    )
    environment = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    # -W error: issue 19, the interpreted hash warned of the overflow it is made of
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], env=environment, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("a, b", [(0, 0), (1, 2**64 - 1), (2**63, 2), (0x9E3779B97F4A7C15, 0xFF51AFD7ED558CCD)])
def test_wrapping_multiply_is_the_product_modulo_two_to_the_64(a, b):
    expected = (a * b) % 2**64
    assert int(_bits._wrapping_multiply_python(np.uint64(a), np.uint64(b))) == expected
    assert int(_bits.wrapping_multiply(np.uint64(a), np.uint64(b))) == expected
