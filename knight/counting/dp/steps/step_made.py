"""The named result that every step engine returns."""

from typing import NamedTuple

import numpy as np


class StepMade(NamedTuple):
    """What one step of the frontier DP made.

    Attributes
    ----------
    keys : numpy.ndarray or PackedTable
        The next table's states, one a row.
    counts : numpy.ndarray or PackedTable
        Their multi-limb counts.
    found : int
        The tours that the step completed.
    emitted : int
        The successors that the step made.
    dead : int
        The options that the relaxation dropped.
    overflow : int
        1 if a count carried out of the top limb; the run then widens the
        limbs and takes the step again.
    """

    keys: np.ndarray
    counts: np.ndarray
    found: int
    emitted: int
    dead: int
    overflow: int


def from_limbs(limbs):
    """Return a count held in 64-bit limbs, least significant first, as an int.

    Examples
    --------
    >>> import numpy as np
    >>> from_limbs(np.array([5, 1], dtype=np.uint64))
    18446744073709551621
    """
    return sum(int(limb) << (64 * place) for place, limb in enumerate(limbs))
