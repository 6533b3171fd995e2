"""This module binds knight's Numba kernels to prepared searches for the toolchain comparison.

The kernels are those that ``knight.solve`` runs, called directly with the
arrays of bench/baselines/prepared.py. Beside them are empty jitted
functions of the same arguments. The time of an empty function is Numba's
fixed cost of one call, which unboxes each array and boxes the returned
tuple.

The bitboard kernel allocates its few hundred bytes of scratch inside its
call; C and Cython get those arrays prepared (``prepared.bits_scratch``).
"""

import functools

from knight import harness_api


@functools.cache
def _empties():
    jit = harness_api.jit

    @jit
    def backtrack(neighbours, start, closed, budget, first_only, path, closes, visited, move_index):
        return 0, 0, 0

    @jit
    def warnsdorff(
        neighbours, keys, start, closed, budget, path, closes, degree, candidates, n_candidates, next_candidate
    ):
        return 0, 0

    @jit
    def warnsdorff_bits(neighbours, keys, start, closed, budget, path):
        return 0, 0

    @jit
    def greedy(rows, cols, start, tiebreak, closed, budget, path, degree):
        return 0, 0

    return {
        "backtrack": backtrack,
        "count": backtrack,
        "warnsdorff": warnsdorff,
        "warnsdorff_bits": warnsdorff_bits,
        "greedy": greedy,
    }


class NumbaKernels:
    """``bind(prepared)`` -> ``(call, empty)``, as bench/baselines/c.py's
    ``ScratchC``."""

    name = "numba"

    def __init__(self):
        import numba

        self.version = f"numba {numba.__version__}"
        self._kernels = harness_api.search_kernels

    def bind(self, prepared):
        kernels = self._kernels
        kind = prepared.kind
        arguments = prepared.arguments(bits_scratch=False)
        kernel = kernels.backtrack if kind == "count" else getattr(kernels, kind)
        return functools.partial(kernel, *arguments), functools.partial(_empties()[kind], *arguments)
