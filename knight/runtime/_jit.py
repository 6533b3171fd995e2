"""This module is the one place that decides how knight's kernels are compiled.

Every kernel module imports ``jit`` from here, so a change of policy (say,
turning on ``boundscheck`` to hunt a bug) is one edit, not a search.
"""

import functools
import os
import sys

from knight.runtime import _stale_cache, machine

machine.check_numba_threads()  # before Numba reads it: one line, not its traceback

import numba  # noqa: E402
import numpy as np  # noqa: E402

# cache=True: a fresh process loads machine code from __pycache__ instead of
#   recompiling, which keeps `knight solve` start-up well under a second
#   (False only where no cache folder can be written: _can_cache).
# nogil=True: kernels hold no Python objects, so releasing the GIL is free and
#   lets a thread pool run independent searches side by side.
# error_model="numpy": integer kernels never divide by a value that can be
#   zero; skipping Python's ZeroDivisionError checks keeps loops tight.
# fastmath stays off: the kernels are integer code, and exact, reproducible
#   tie-breaking matters more than any float speed-up.


def _probe():
    return 0


def _can_cache():
    """Whether Numba can cache this package's kernels; if not, say so once.

    Numba looks for a writable cache folder as it decorates a function:
    the ``__pycache__`` beside the module, ``NUMBA_CACHE_DIR``, or the
    user's cache folder. A read-only install run by a user whose home is
    not writable has none, and every decoration raised RuntimeError
    ("cannot cache function ...: no locator available"). Such a run
    compiles its kernels each time instead."""
    try:
        numba.njit(cache=True)(_probe)
    except RuntimeError as error:
        if "cannot cache" not in str(error):
            raise
        print(
            "knight: no writable cache folder for compiled kernels (beside knight's modules, NUMBA_CACHE_DIR "
            "or the home folder's cache); running uncached, so each run compiles its kernels again",
            file=sys.stderr,
        )
        return False
    return True


POLICY = {
    "cache": _can_cache(),
    "nogil": True,
    "error_model": "numpy",
    "fastmath": False,
    "boundscheck": False,
}
_PACKAGE_FOLDER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def jit(function=None, **options):
    """Compile a function with Numba under knight's one policy.

    A kernel of knight's own checks its cache folder first: a folder cached
    from other sources of the package is emptied (``_stale_cache``).

    Parameters
    ----------
    function : callable, optional
        The function to compile. None returns a decorator that takes it, so
        that both ``@jit`` and ``@jit(inline="always")`` work.
    **options
        Numba options that add to the policy or override it.

    Returns
    -------
    numba.core.registry.CPUDispatcher or functools.partial
        The compiled function, or the decorator when ``function`` is None.

    Examples
    --------
    A function typed at a prompt has no file for Numba to cache beside, so
    this one is compiled uncached:

    >>> from knight.harness_api import jit
    >>> @jit(cache=False)
    ... def twice(value):
    ...     return 2 * value
    >>> twice(21)
    42
    """
    if function is None:
        return functools.partial(jit, **options)
    dispatcher = numba.njit(function, **{**POLICY, **options})
    if function.__module__.partition(".")[0] == "knight":
        _stale_cache.forget_if_stale(dispatcher, _PACKAGE_FOLDER)
    return dispatcher


# Numba wraps negative indices (x[-1] is the last item), which costs a
# compare and a conditional move on every array access. Every index the
# kernels write as ``array[_u(i)]`` is non-negative, and an unsigned index
# skips the check: 1.25x faster backtracking, measured against the same
# kernel without it.
_u = np.uintp
