"""The same searches outside Numba, for side-by-side speed ratios: C (the
practical limit on one core) and plain Python (what the classic programs
amount to)."""
