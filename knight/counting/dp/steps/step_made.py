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
