"""The packed table's byte code (knight.counting.dp.tables.packed_kernels) against a
plain-Python reference: random tables of sorted blocks, counts of 1..4
limbs up to 2^256 - 1, packed to the reference's bytes and decoded back
exactly; the merge of runs' pieces against a dictionary; the radix sort
of a block's keys against NumPy's stable argsort; a packed table
read back a chunk at a time whatever the chunk."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from knight.counting.dp.steps.step_arrays import StepArrays
from knight.counting.dp.tables import packed_kernels, packed_table, table_kernels


def _leb128(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _reference(blocks):
    """Each block's (key, count) pairs, ascending, as gaps and counts in LEB128."""
    data = bytearray()
    ends = []
    for block in blocks:
        previous = 0
        for key, count in sorted(block):
            data += _leb128(key - previous) + _leb128(count)
            previous = key
        ends.append(len(data))
    return bytes(data), ends


def _arrays(blocks, limbs):
    rows = [entry for block in blocks for entry in block]
    keys = np.array([key for key, _ in rows], dtype=np.uint64)
    counts = np.array(
        [[(count >> (64 * limb)) & (2**64 - 1) for limb in range(limbs)] for _, count in rows], dtype=np.uint64
    ).reshape(len(rows), limbs)
    bounds = np.cumsum([0] + [len(block) for block in blocks]).astype(np.int64)
    return keys, counts, bounds


def _counts_of(counts):
    return [sum(int(limb) << (64 * place) for place, limb in enumerate(row)) for row in counts.tolist()]


@st.composite
def tables(draw):
    limbs = draw(st.integers(1, 4))
    count = st.one_of(st.integers(0, 300), st.integers(0, 2 ** (64 * limbs) - 1), st.just(2 ** (64 * limbs) - 1))
    key = st.one_of(st.integers(0, 2**64 - 2), st.integers(0, 5000))
    blocks = draw(
        st.lists(
            st.dictionaries(key, count, max_size=30).map(lambda block: list(block.items())), min_size=1, max_size=6
        )
    )
    # a block is in hash order: the kernel sorts it
    blocks = [draw(st.permutations(block)) for block in blocks]
    return blocks, limbs


@settings(max_examples=150, deadline=None)
@given(tables())
def test_packing_matches_the_reference_and_decodes_exactly(table):
    blocks, limbs = table
    keys, counts, bounds = _arrays(blocks, limbs)
    out = np.empty(packed_kernels.most_bytes(keys.shape[0], limbs), dtype=np.uint8)
    ends = packed_kernels.encode_blocks(keys, counts, bounds, out)
    data, expected_ends = _reference(blocks)
    assert ends.tolist() == expected_ends and bytes(out[: len(data)]) == data
    starts = np.array([0, *expected_ends[:-1]], dtype=np.int64)
    out.setflags(write=False)  # read from a file's read-only map, as a run does
    for wider in (limbs, limbs + 1):  # decoded into more limbs: the same numbers
        back_keys = np.empty(keys.shape[0], dtype=np.uint64)
        back_counts = np.zeros((keys.shape[0], wider), dtype=np.uint64)
        rows = packed_kernels.decode_blocks(out, starts, np.diff(bounds), back_keys, back_counts, 0)
        assert rows == keys.shape[0]
        decoded = list(zip(back_keys.tolist(), _counts_of(back_counts), strict=True))
        assert decoded == [entry for block in blocks for entry in sorted(block)]


def _hash_tables(blocks, limbs, bits, random):
    """Each block as a partition's table of ``2**bits`` entries, at random
    places among empty ones, as the partitioned step leaves them."""
    entry = 1 + limbs
    tables = np.zeros(len(blocks) * entry << bits, dtype=np.uint64)
    tables[::entry] = table_kernels.EMPTY
    for part, block in enumerate(blocks):
        keys, counts, _ = _arrays([block], limbs)
        for place, row in zip(random.sample(range(1 << bits), len(block)), range(len(block)), strict=True):
            word = (part << bits) * entry + place * entry
            tables[word] = keys[row]
            tables[word + 1 : word + entry] = counts[row]
    return tables


@settings(max_examples=100, deadline=None)
@given(tables(), st.randoms(), st.integers(0, 400))
def test_packing_from_hash_tables_gives_the_same_bytes_in_turns(table, random, spare):
    """``encode_tables`` packs each partition's table as ``encode_blocks``
    packs its rows, the reference's bytes, in as many turns as a buffer
    of the largest partition's worst case (and ``spare`` bytes) asks."""
    blocks, limbs = table
    bits = 5  # 32 entries a table, for blocks of up to 30
    tables_array = _hash_tables(blocks, limbs, bits, random)
    out = np.empty(max(packed_kernels.most_bytes(len(block), limbs) for block in blocks) + spare, dtype=np.uint8)
    data, ends, done = bytearray(), [], 0
    while done < len(blocks):
        packed, turn_ends = packed_kernels.encode_tables(tables_array, bits, 1 + limbs, done, len(blocks), out)
        assert packed > done and len(turn_ends) == packed - done
        ends += [len(data) + int(end) for end in turn_ends]
        data += bytes(out[: int(turn_ends[-1])])
        done = packed
    expected, expected_ends = _reference(blocks)
    assert ends == expected_ends and bytes(data) == expected


# keys of every width, few distinct digits (passes skipped) and many, repeats
_sort_keys = st.lists(
    st.one_of(st.integers(0, 2**64 - 1), st.integers(0, 3), st.sampled_from([0, 2**11, 2**63, 2**64 - 1])),
    max_size=300,
)


@settings(max_examples=150, deadline=None)
@given(_sort_keys)
def test_the_radix_order_is_the_stable_sort(values):
    """``ascending_order`` against NumPy's stable argsort: the same rows,
    equal keys in row order, from scratch larger than the keys too."""
    keys = np.array(values, dtype=np.uint64)
    scratch = packed_kernels.sort_scratch(keys.shape[0] + 5)
    order = packed_kernels.ascending_order(keys, *scratch)
    assert order.tolist() == np.argsort(keys, kind="stable").tolist()


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 12), st.integers(1, 4), tables(), st.randoms())
def test_merging_pieces_adds_equal_keys_across_runs(runs, parts, table, random):
    """Runs of several partitions each, a piece of any size (none too) a
    partition and a run, the same keys in many runs or in one: the merge
    holds each partition's keys once, ascending, with their counts added,
    carry-checked."""
    blocks, limbs = table
    # run r's piece of partition p: one of the drawn blocks, a random part of it
    pieces = [
        [random.sample(block, random.randint(0, len(block))) for block in random.choices(blocks, k=parts)]
        for _ in range(runs)
    ]
    data, starts = bytearray(), np.zeros((runs, parts), dtype=np.int64)
    for run, run_pieces in enumerate(pieces):
        keys, counts, bounds = _arrays(run_pieces, limbs)
        encoded = np.empty(packed_kernels.most_bytes(keys.shape[0], limbs) + 1, dtype=np.uint8)
        ends = packed_kernels.encode_blocks(keys, counts, bounds, encoded)
        starts[run] = len(data) + np.array([0, *ends[:-1]])
        data += bytes(encoded[: ends[-1]])
    data = np.frombuffer(bytes(data) + b"\0", dtype=np.uint8)  # read-only, as the runs' maps are
    states = np.array([[len(piece) for piece in run_pieces] for run_pieces in pieces], dtype=np.int64)
    out = np.empty(packed_kernels.most_bytes(int(states.sum()), limbs) + 1, dtype=np.uint8)
    block_ends, held, overflow = packed_kernels.merge_pieces(data, starts, states, limbs, out)
    sums = [{} for _ in range(parts)]
    for run_pieces in pieces:
        for part, piece in enumerate(run_pieces):
            for key, count in piece:
                sums[part][key] = sums[part].get(key, 0) + count
    assert overflow == int(any(value >= 2 ** (64 * limbs) for part in sums for value in part.values()))
    if not overflow:
        assert held.tolist() == [len(part) for part in sums]
        expected, expected_ends = _reference([list(part.items()) for part in sums])
        assert block_ends.tolist() == expected_ends
        assert bytes(out[: block_ends[-1]]) == expected


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 3000),
    st.integers(1, 2),
    st.integers(1, 4000),
    st.integers(0, 2**32),
    st.integers(1, 3),
    st.booleans(),
)
def test_a_packed_table_reads_back_whatever_the_chunk(tmp_path_factory, rows, limbs, chunk, seed, threads, held):
    """Whatever the chunk and the threads that decode it, and over the
    input that the chunk before left (``held``: counts of several limbs
    are decoded over old ones), the table reads back exactly."""
    folder = tmp_path_factory.mktemp("packed")
    generator = np.random.default_rng(seed)
    keys = np.unique(generator.integers(0, 2**63, size=rows, dtype=np.uint64))
    generator.shuffle(keys)
    counts = generator.integers(1, 2**63, size=(keys.shape[0], limbs), dtype=np.uint64)
    old = packed_table.BLOCK_ROWS, packed_table.FILE_BLOCKS
    packed_table.BLOCK_ROWS, packed_table.FILE_BLOCKS = 97, 3  # many blocks and files
    try:
        table = packed_table.pack(keys, counts, str(folder))
    finally:
        packed_table.BLOCK_ROWS, packed_table.FILE_BLOCKS = old
    assert table.shape == counts.shape
    reader = packed_table.Reader(table, table)
    arrays = StepArrays() if held else None
    pieces = []
    while not reader.done():
        # a copy: the next chunk is decoded over the arrays held
        pieces.append(tuple(array.copy() for array in reader.take(chunk, arrays, threads)))
        assert pieces[-1][0].shape[0] <= max(chunk, 97) and reader.read <= keys.shape[0]
    back = sorted(
        (key, tuple(row)) for piece in pieces for key, row in zip(piece[0].tolist(), piece[1].tolist(), strict=True)
    )
    assert back == sorted(zip(keys.tolist(), map(tuple, counts.tolist()), strict=True))
    dense_keys, dense_counts = packed_table.dense(table, table)
    assert sorted(zip(dense_keys.tolist(), map(tuple, dense_counts.tolist()), strict=True)) == back
    table.remove()
    assert list(folder.iterdir()) == []


_repeated_keys = st.lists(st.tuples(st.integers(0, 40), st.one_of(st.integers(0, 9), st.integers(0, 2**64 - 1))))


@settings(max_examples=40, deadline=None)
@given(st.lists(_repeated_keys, min_size=1, max_size=12))
def test_merging_adds_a_key_repeated_within_a_piece(pieces):
    """One partition's pieces, a key repeated within a piece too (a gap of
    0): whether the runs are merged as streams (up to ``STREAM_RUNS``) or
    sorted, each key is written once with every count added, and a count
    that passes one limb is an overflow."""
    data, starts = bytearray(), []
    for piece in pieces:
        starts.append(len(data))
        data += _reference([piece])[0]
    data = np.frombuffer(bytes(data) + b"\0", dtype=np.uint8)
    starts = np.array(starts, dtype=np.int64).reshape(-1, 1)
    states = np.array([len(piece) for piece in pieces], dtype=np.int64).reshape(-1, 1)
    out = np.empty(packed_kernels.most_bytes(int(states.sum()), 1) + 1, dtype=np.uint8)
    block_ends, held, overflow = packed_kernels.merge_pieces(data, starts, states, 1, out)
    sums = {}
    for key, count in (entry for piece in pieces for entry in piece):
        sums[key] = sums.get(key, 0) + count
    assert overflow == int(any(value >= 2**64 for value in sums.values()))
    if not overflow:
        expected, expected_ends = _reference([list(sums.items())])
        assert held.tolist() == [len(sums)] and block_ends.tolist() == expected_ends
        assert bytes(out[: block_ends[-1]]) == expected
