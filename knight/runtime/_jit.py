"""This module is the one place that decides how knight's kernels are compiled.

Every kernel module imports ``jit`` from here, so a change of policy (say,
turning on ``boundscheck`` to hunt a bug) is one edit, not a search.
"""

import functools

from knight.runtime import machine

machine.check_numba_threads()  # before Numba reads it: one line, not its traceback

import numba  # noqa: E402
import numpy as np  # noqa: E402

# cache=True: a fresh process loads machine code from __pycache__ instead of
#   recompiling, which keeps `knight solve` start-up well under a second.
# nogil=True: kernels hold no Python objects, so releasing the GIL is free and
#   lets a thread pool run independent searches side by side.
# error_model="numpy": integer kernels never divide by a value that can be
#   zero; skipping Python's ZeroDivisionError checks keeps loops tight.
# fastmath stays off: the kernels are integer code, and exact, reproducible
#   tie-breaking matters more than any float speed-up.
jit = functools.partial(
    numba.njit,
    cache=True,
    nogil=True,
    error_model="numpy",
    fastmath=False,
    boundscheck=False,
)

# Numba wraps negative indices (x[-1] is the last item), which costs a
# compare and a conditional move on every array access. Every index the
# kernels write as ``array[_u(i)]`` is non-negative, and an unsigned index
# skips the check: 1.25x faster backtracking, measured against the same
# kernel without it.
_u = np.uintp
