"""This module fits the degree relaxation to a run that keeps one state for each mirror pair.

At a cut where the inserted squares are closed under the reflection of the
rows, a symmetric count keeps only the canonical member of each pair of
mirror images (``states.canonical_key``). Two things must then agree with
the keys that the steps keep:

* The live patterns after such a cut must hold the pattern of whichever
  member is kept. ``mirror_closed`` keeps a pattern only when its mirror
  image is live too. That stays exact: a state with a completion is the
  restriction of a tour, its mirror image is the restriction of the
  mirror image of that tour, and the patterns of both are therefore live.
* The hash step splits the successors between its threads by their
  pattern, and equal keys must fall to one thread. ``part_codes`` gives
  each option the smaller of its pattern's code and its mirror image's,
  which the two members of a pair share.
"""

import numpy as np

from knight.counting.dp.model.degree_relaxation import POWERS_OF_THREE
from knight.runtime._bits import popcount
from knight.runtime._jit import jit


@jit(inline="always")
def mirror_code(code, nibbles, size):
    """The code of the mirror image of pattern ``code`` on a frontier of
    ``size`` slots, slot ``i`` going to the map's nibble ``i``: the need
    digits move, and the tour ends above them stay."""
    image = np.int64(0)
    for index in range(size):
        # one digit at a time, by the constant 3: a multiply, not a division
        need = code % 3
        code //= 3
        image += need * POWERS_OF_THREE[(nibbles >> np.uint64(4 * index)) & np.uint64(15)]
    return image + code * POWERS_OF_THREE[size]


@jit
def _closed_bits(bits, nibbles, size):
    """``bits`` less the patterns whose mirror image it does not hold."""
    kept = bits.copy()
    for word in range(bits.shape[0]):
        left = bits[word]
        while left:
            low = left & (~left + np.uint64(1))
            left ^= low
            image = mirror_code(np.int64(word * 64 + popcount(low - np.uint64(1))), nibbles, size)
            if not (bits[image >> 6] >> np.uint64(image & 63)) & np.uint64(1):
                kept[word] &= ~low
    return kept


@jit
def _smaller_codes(codes, nibbles, size):
    shared = np.empty_like(codes)
    for index in range(codes.shape[0]):
        shared[index] = min(codes[index], mirror_code(codes[index], nibbles, size))
    return shared


def mirror_closed(plan, live):
    """``live`` (``degree_relaxation.live_patterns``' bitmaps for ``plan``)
    with, after each cut that ``plan.mirrors`` marks, only the patterns
    whose mirror image is live too. A new list: the bitmaps given are
    shared, and those it changes are copies."""
    closed = list(live)
    for step, mirror in enumerate(plan.mirrors):
        if mirror is not None and closed[step] is not None:
            closed[step] = _closed_bits(closed[step], mirror[0], mirror[1])
    return closed


def part_codes(codes, mirror):
    """The code by which each option's successor picks its hash step's
    part: ``codes`` itself, or after a cut closed under the reflection
    (``mirror``, as ``cell_order.mirror_map`` gives it) the smaller code of
    each pattern and its mirror image."""
    if mirror is None:
        return codes
    return _smaller_codes(codes, mirror[0], mirror[1])
