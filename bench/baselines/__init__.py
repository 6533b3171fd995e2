"""This package runs the same searches outside Numba, so that their speeds can be compared side by side.

C is built by gcc and by clang, which is the practical limit on one core.
Cython and plain Python under CPython and PyPy stand for what the classic
programs amount to. The prepared inputs and the one timing the baselines
share are in prepared.py and call_clock.py."""
