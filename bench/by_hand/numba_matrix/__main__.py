"""This module runs the Numba matrix as ``python -m bench.by_hand.numba_matrix`` (``make bench-matrix``)."""

import sys

from bench.by_hand.numba_matrix.matrix_run import main

sys.exit(main())
