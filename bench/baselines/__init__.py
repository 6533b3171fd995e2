"""The same searches outside Numba, for side-by-side speed ratios: C built
by gcc and by clang (the practical limit on one core), Cython, and plain
Python under CPython and PyPy (what the classic programs amount to); the
prepared inputs and the one timing they share (prepared.py, call_clock.py)."""
