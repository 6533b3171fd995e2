"""The cluster DP's table exchange (``table_merge``) against plain Python:
a split puts each key in exactly one part, the same for equal keys; a merge
adds equal keys' multi-limb counts exactly and flags a carry out of the top
limb instead of wrapping."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from knight.counting.dp.tables.table_merge import merge_tables, part_numbers, split_table

TOP = 2**64 - 1
# limbs near the top as often as small ones: carries between limbs and out
# of the last one happen in most examples
limb_values = st.one_of(st.integers(0, 5), st.integers(TOP - 5, TOP), st.integers(0, TOP))


@st.composite
def tables(draw):
    limbs = draw(st.integers(1, 3))
    keys = st.integers(0, 40) if draw(st.booleans()) else st.integers(0, TOP - 1)  # few keys: many equal ones
    made = []
    for _ in range(draw(st.integers(0, 5))):
        size = draw(st.integers(0, 12))
        table_keys = draw(st.lists(keys, min_size=size, max_size=size, unique=True))
        rows = draw(st.lists(st.lists(limb_values, min_size=limbs, max_size=limbs), min_size=size, max_size=size))
        made.append((np.array(table_keys, dtype=np.uint64), np.array(rows, dtype=np.uint64).reshape(size, limbs)))
    return made, limbs


def _value(row):
    return sum(int(limb) << (64 * place) for place, limb in enumerate(row))


def _reference(made):
    summed = {}
    for keys, counts in made:
        for key, row in zip(keys.tolist(), counts.tolist(), strict=True):
            summed[key] = summed.get(key, 0) + _value(row)
    return summed


# deadline=None: the first example compiles (or loads) the kernels
@settings(deadline=None)
@given(tables())
def test_merge_adds_equal_keys_exactly_or_flags_the_carry(drawn):
    made, limbs = drawn
    keys, counts, overflow = merge_tables(made, limbs)
    expected = _reference(made)
    assert overflow == int(any(value >= 2 ** (64 * limbs) for value in expected.values()))
    assert sorted(keys.tolist()) == sorted(expected) and len(set(keys.tolist())) == keys.shape[0]
    assert counts.shape == (len(expected), limbs)
    if not overflow:
        assert {key: _value(row) for key, row in zip(keys.tolist(), counts.tolist(), strict=True)} == expected


@settings(deadline=None)
@given(tables(), st.integers(1, 9))
def test_split_puts_every_key_in_its_one_part(drawn, parts):
    made, _ = drawn
    for keys, counts in made:
        pieces = split_table(keys, counts, parts)
        assert len(pieces) == parts
        numbers = part_numbers(keys, parts) if keys.shape[0] else np.zeros(0, dtype=np.int64)
        seen = {}
        for part, (piece_keys, piece_counts) in enumerate(pieces):
            for key, row in zip(piece_keys.tolist(), piece_counts.tolist(), strict=True):
                assert key not in seen
                seen[key] = row
            assert all(numbers[keys.tolist().index(key)] == part for key in piece_keys.tolist())
        assert seen == dict(zip(keys.tolist(), counts.tolist(), strict=True))
