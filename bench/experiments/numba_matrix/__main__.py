"""This module runs the Numba matrix as ``python -m bench.experiments.numba_matrix`` (``make bench-matrix``)."""

import sys

from bench.experiments.numba_matrix.matrix_run import main

sys.exit(main())
