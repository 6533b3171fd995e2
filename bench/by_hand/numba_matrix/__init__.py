"""``make bench-matrix``: knight's kernels under several Numba releases
(matrix_run), each release's environment (numba_environments) and worker
(matrix_worker), and the run's MATRIX.md (matrix_report)."""
