"""What the benchmark harness (bench/) may use of knight beyond its public
API (``knight.__all__``), and why: the one internal surface it measures
through. Nothing in bench/ imports any other knight module; a test
(tests/bench/test_harness_api.py) holds it to that.

The harness is a user of knight that also has to agree with it on facts a
user never sees, so that its records, options and comparisons say what
knight says:

- ``validate``: the checks and limits of knight's own options
  (``integer_text``, ``choice``, ``board``, ``budget``, ``start_text``,
  ``fits_in_memory``, ``memory_needed``, ``METHODS``, ``TIEBREAKS``,
  ``MAX_SQUARES``, ``MAX_INT64``), so a bad ``python -m bench`` option
  fails in the same words as a bad ``knight`` one.
- ``status``: the status codes and their ``WORDS``, so run records,
  figures and the references of the speed guard spell a status as
  ``Result.status`` does.
- ``journal``: the append-only, crash-safe file format of knight's unit
  store, which a run folder's runs.csv uses for ``--resume``.
- ``strict_json``: JSON that refuses NaN and infinity, for meta.json and
  the committed baselines.
- ``representatives``: one start square per symmetry class, the sweep's
  ``--starts symmetry``.
- ``total_with_work``: the frontier DP's open total with its work counters
  (transitions, peak states, merges): the counting study's "DP open total"
  engine; ``count_tours`` counts per start and has no total-only mode.
- ``BITBOARD_SQUARES``: the board size up to which ``solve`` takes the
  bitboard kernel, so the C baseline searches with the same kind of kernel.
- ``kernels`` and ``neighbour_table``: the compiled searches themselves,
  their scratch makers and their inputs, so that the toolchain comparison
  (bench/studies/versus.py) hands Numba, C and Cython the same prepared
  arrays and times the kernel call alone, as no public call can.
- ``jit``: the one compile policy (knight/_jit.py), so that the empty
  function that measures Numba's fixed call cost is dispatched as the
  kernels are.

All but ``neighbour_table`` load Numba, so they are looked up on first use, as
``knight.solve`` is; the rest is plain Python, cheap to import.
"""

from knight import journal, status, strict_json, validate
from knight.symmetry import representatives

# the names imported here; the rest are _LAZY's
__all__ = ["journal", "representatives", "status", "strict_json", "validate"]

# name -> the module that defines it, imported on first use (loads Numba)
_LAZY = {
    "BITBOARD_SQUARES": "knight.search",
    "total_with_work": "knight.frontier",
    "kernels": "knight.kernels",
    "jit": "knight._jit",
    "neighbour_table": "knight.board",
}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        module = importlib.import_module(_LAZY[name])
        # a module named for itself (kernels) is the module, not one of its names
        return module if module.__name__.rpartition(".")[2] == name else getattr(module, name)
    raise AttributeError(f"module 'knight.harness_api' has no attribute {name!r}")
