"""This package times knight's kernels under several Numba releases (``make bench-matrix``).

matrix_run runs the matrix, numba_environments makes each release's
environment, matrix_worker times the kernels under one release, and
matrix_report writes the run's MATRIX.md."""
