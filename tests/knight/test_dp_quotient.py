"""One DP state for each mirror pair (``StepPolicy.quotient``;
knight/counting/dp/model/mirror_quotient.py, ``states.canonical_key``,
``cell_order.mirror_map``): the counts with the quotient are the counts
without it, on every board up to 6 x 7, open and closed, for totals, for
every width and for forced ends on the middle row. The canonical key is the
member of a pair that a plain reference picks, whichever member it meets; the
live patterns after a closed cut hold the mirror image of each; the hash
step's threads never hold one key twice; and a checkpoint made with the
quotient is refused by a run without it.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knight import cli, count_total
from knight.counting import driver
from knight.counting.dp import engine
from knight.counting.dp.model import cell_order, degree_relaxation, mirror_quotient, states
from knight.counting.dp.planning.policy import StepPolicy
from knight.counting.dp.runs.run_loop import count_hamiltonian
from knight.counting.dp.steps import hash_step
from knight.counting.dp.steps.step_arguments import step_arguments
from knight.errors import InvalidArgument

WITH, WITHOUT = StepPolicy(quotient=True), StepPolicy(quotient=False)

# every board of 2 squares or more up to 6 x 7, in either orientation; those
# of more than 30 squares are slow
BOARDS = [(rows, cols) for rows in range(1, 8) for cols in range(1, 8) if rows * cols >= 2 and min(rows, cols) <= 6]
FAST = [board for board in BOARDS if board[0] * board[1] <= 30]
SLOW = [board for board in BOARDS if board[0] * board[1] > 30]


def _both(plan, closed, forced=None, policy_options=None):
    options = policy_options or {}
    made = [
        count_hamiltonian(plan, closed, forced, policy=StepPolicy(quotient=quotient, **options))
        for quotient in (False, True)
    ]
    return made


def _check_total(rows, cols):
    plan = cell_order.schedule(rows, cols)
    for closed in (False, True):
        (plain, plain_work), (quotient, quotient_work) = _both(plan, closed)
        assert quotient == plain, (rows, cols, closed)
        assert quotient_work.states_peak <= plain_work.states_peak
        assert sum(quotient_work.saved) <= sum(plain_work.held)


@pytest.mark.parametrize(("rows", "cols"), FAST, ids=[f"{r}x{c}" for r, c in FAST])
def test_the_quotient_keeps_every_total(rows, cols):
    _check_total(rows, cols)


@pytest.mark.slow
@pytest.mark.parametrize(("rows", "cols"), SLOW, ids=[f"{r}x{c}" for r, c in SLOW])
def test_the_quotient_keeps_every_total_of_larger_boards(rows, cols):
    _check_total(rows, cols)


@settings(max_examples=12, deadline=None)
@given(
    board=st.sampled_from([(rows, cols) for rows, cols in FAST if min(rows, cols) % 2 and min(rows, cols) > 1]),
    data=st.data(),
)
def test_the_quotient_keeps_a_forced_end_on_the_middle_row(board, data):
    rows, cols = board
    plan = cell_order.schedule(rows, cols)
    middle = [square for square in range(rows * cols) if plan.symmetric(square)]
    forced = data.draw(st.sampled_from(middle))
    (plain, plain_work), (quotient, quotient_work) = _both(plan, False, forced)
    assert quotient == plain
    assert quotient_work.transitions <= plain_work.transitions


def test_a_forced_end_off_the_middle_row_takes_no_quotient():
    plan = cell_order.schedule(5, 5)
    (plain, plain_work), (quotient, quotient_work) = _both(plan, False, forced=0)
    assert quotient == plain
    assert quotient_work.held == plain_work.held
    assert not any(quotient_work.saved)


@pytest.mark.parametrize("table", ["hash", "partitioned"])
def test_the_quotient_halves_the_states_of_5x6(table):
    plan = cell_order.schedule(5, 6)
    (plain, plain_work), (quotient, quotient_work) = _both(plan, False, policy_options={"table": table})
    assert quotient == plain == 18_784
    assert quotient_work.states_peak < 0.6 * plain_work.states_peak
    assert quotient_work.transitions < 0.6 * plain_work.transitions
    assert sum(quotient_work.saved) > 0


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize(("rows", "cols"), [(3, 10), (5, 6), (6, 5), (4, 7), (7, 4)])
def test_the_quotient_keeps_every_width(rows, cols, closed):
    job = driver.prepare(rows, cols, None, closed, method="dp", total=True, every_width=True)
    widths = [[width.tours for width in engine.every_width(job, policy=policy).widths] for policy in (WITHOUT, WITH)]
    assert widths[0] == widths[1]


def _shape(key, size):
    """The digits of ``key`` with every label made 3, highest slot first."""
    digits = [key // states.RADIX**slot % states.RADIX for slot in range(size)]
    return [min(value, states.FIRST_LABEL) for value in reversed(digits)]


def _reference_canonical(plan, step, key):
    """The member of ``key`` and its mirror image with the smaller shape,
    or where the shapes are equal the smaller key."""
    image, size = _reference_mirror(plan, step, key), len(plan.frontiers[step])
    return min((_shape(key, size), key), (_shape(image, size), image))[1]


def _reference_mirror(plan, step, key):
    """The mirror image of ``key`` after ``step`` of ``plan``, digit by digit."""
    frontier = plan.frontiers[step]
    digits = [key // states.RADIX**slot % states.RADIX for slot in range(len(frontier))]
    image = [0] * len(frontier)
    for slot, square in enumerate(frontier):
        image[frontier.index(cell_order.mirror_square(plan.rows, plan.cols, square))] = digits[slot]
    labels = {}
    for slot, value in enumerate(image):
        if value >= states.FIRST_LABEL:
            image[slot] = labels.setdefault(value, states.FIRST_LABEL + len(labels))
    return sum(value * states.RADIX**slot for slot, value in enumerate(image))


@pytest.mark.parametrize(("rows", "cols", "closed"), [(5, 6, False), (6, 5, True), (7, 4, False), (4, 7, True)])
def test_the_canonical_key_is_one_member_of_a_pair_whichever_it_meets(rows, cols, closed):
    plan = cell_order.schedule(rows, cols)
    tables = {}
    count_hamiltonian(
        plan, closed, policy=WITHOUT, on_step=lambda step, keys, counts, done: tables.update({step - 1: keys.copy()})
    )
    checked = 0
    for step, mirror in enumerate(plan.mirrors):
        if mirror is None or step not in tables:
            continue
        keys = tables[step][:300]
        for key in keys:
            image = _reference_mirror(plan, step, int(key))
            canonical = _reference_canonical(plan, step, int(key))
            assert canonical in (int(key), image)
            assert int(states.canonical_key(key, mirror)) == canonical
            assert int(states.canonical_key(np.uint64(image), mirror)) == canonical
            checked += 1
        asymmetric = sum(int(key) != _reference_mirror(plan, step, int(key)) for key in keys)
        assert states.asymmetric_states(keys, mirror) == asymmetric
    assert checked > 100


@pytest.mark.parametrize(("rows", "cols", "closed"), [(5, 6, False), (6, 5, True), (7, 4, False)])
def test_the_live_patterns_after_a_closed_cut_hold_each_ones_mirror_image(rows, cols, closed):
    plan = cell_order.schedule(rows, cols)
    live = mirror_quotient.mirror_closed(plan, degree_relaxation.live_patterns(plan, closed))
    dropped = 0
    for step, mirror in enumerate(plan.mirrors):
        if mirror is None:
            continue
        bits = live[step]
        codes = np.flatnonzero(np.unpackbits(bits.view(np.uint8), bitorder="little"))
        for code in codes[:: max(1, codes.shape[0] // 200)]:
            image = mirror_quotient.mirror_code(np.int64(code), mirror[0], mirror[1])
            assert degree_relaxation.has_bit(bits, image)
        dropped += int(np.bitwise_count(degree_relaxation.live_patterns(plan, closed)[step]).sum()) - codes.shape[0]
    assert dropped >= 0


@pytest.mark.parametrize("short", [6, 8])
def test_the_orders_for_6_and_8_rows_make_a_closed_cut_after_every_pair_of_cells(short):
    # the rows go in mirrored pairs, so that the quotient halves the states every second cell
    plan = cell_order.schedule(short, short + 2)
    cells = {step % short + 1 for step, mirror in enumerate(plan.mirrors) if mirror is not None}
    assert cells == set(range(2, short + 1, 2))


def _without_masks(mirror):
    """``mirror`` with its masks taken away: the nibble-by-nibble map."""
    nibbles, size = mirror[:2]
    return nibbles, size, np.uint64(0), np.uint64(0), np.uint64(0)


@pytest.mark.parametrize("short", range(1, 9))
def test_the_masks_move_each_slot_to_its_image(short):
    """Every mirror map of the default orders, short sides 1 to 8, carries
    masks, and the masks move every slot of a word where the map's
    nibbles say, as the loop over the nibbles does."""
    plan = cell_order.schedule(short, 9)
    rng = np.random.default_rng(short)
    maps = [mirror for mirror in plan.mirrors if mirror is not None]
    assert maps or short == 1
    for mirror in maps:
        nibbles, size, stay, up, down = mirror
        assert stay | up | down or size == 0, "a default order's map without masks"
        images = [int(nibbles) >> 4 * slot & 15 for slot in range(size)]
        for word in rng.integers(0, 16, size=(50, size)):
            packed = np.uint64(sum(int(value) << 4 * slot for slot, value in enumerate(word)))
            expected = sum(int(value) << 4 * images[slot] for slot, value in enumerate(word))
            assert int(states._mirrored_word(packed, mirror)) == expected
            assert int(states._mirrored_word(packed, _without_masks(mirror))) == expected


def test_the_hash_step_threads_never_hold_one_key_twice(monkeypatch):
    # every step on three threads: a key and its mirror image's part by one pattern code
    monkeypatch.setattr(hash_step, "PARALLEL_STATES", 0)
    monkeypatch.setattr(hash_step, "step_threads", lambda: 3)
    plan = cell_order.schedule(5, 6)
    repeated = []

    def on_step(step, keys, counts, done):
        repeated.append(keys.shape[0] - np.unique(keys).shape[0])

    count_hamiltonian(plan, False, policy=StepPolicy(table="hash", quotient=True), on_step=on_step)
    assert repeated and not any(repeated)


def test_a_checkpoint_names_the_quotient(tmp_path):
    path = tmp_path / "5x6.npz"
    expected = count_total(5, 6, resume=path).tours
    job = driver.prepare(5, 6, None, False, method="dp", total=True, resume=path)
    with pytest.raises(InvalidArgument, match="records a different count: order"):
        engine.total(job, policy=WITHOUT)
    assert engine.total(job, policy=WITH).tours == expected


@pytest.mark.parametrize(("rows", "cols", "closed"), [(5, 6, False), (6, 5, True)])
def test_the_word_path_makes_the_byte_paths_canonical_key(rows, cols, closed):
    """At each closed cut, the word path's successor made canonical in
    registers is ``canonical_key`` of the byte path's successor."""
    plan = cell_order.schedule(rows, cols)
    live = mirror_quotient.mirror_closed(plan, degree_relaxation.live_patterns(plan, closed))
    tables = {}
    count_hamiltonian(plan, closed, on_step=lambda step, keys, counts, done: tables.update({step: keys.copy()}))
    checked = 0
    slots = np.zeros(states.MAX_SLOTS + 1, dtype=np.uint8)
    work = np.zeros_like(slots)
    for step, mirror in enumerate(plan.mirrors):
        if mirror is None or step not in tables:
            continue
        keys = tables[step][:200]
        before = live[step - 1] if step else degree_relaxation.start_bits(0 if closed else 2)
        arguments = step_arguments(plan, step, keys, keys, closed, None, before, live[step], quotient=True)
        _, _, old_size, kept, leaving, stays, forced_slot, inserted_forced, final, closed_, options, taken = arguments[
            :12
        ]
        rank, before, _patterns, starts, firsts, seconds, _codes, _dropped = options
        narrow, layout = states.word_layout(old_size, kept, leaving)
        assert narrow
        flags = (forced_slot, inserted_forced, final, closed_)
        for key in keys:
            pattern, word = states.state_word(key, old_size, forced_slot, rank, before)
            states.state_pattern(key, slots, old_size, forced_slot, rank, before)
            for option in range(starts[pattern], starts[pattern + 1]):
                first, second = np.intp(firsts[option]), np.intp(seconds[option])
                by_word = states.word_successor(np.uint64(word), old_size, first, second, layout, stays, *flags, taken)
                by_bytes = states.successor(slots, work, old_size, first, second, kept, stays, leaving, *flags)
                assert by_word[0] == by_bytes[0]
                if by_bytes[0] == states._ALIVE:
                    assert by_word[1] == states.canonical_key(by_bytes[1], taken)
                    checked += 1
    assert checked > 100


def test_the_progress_line_and_the_json_report_the_states_saved():
    seen = []
    total = count_total(5, 6, progress=lambda now: seen.append((now.held, now.saved)))
    assert any(saved for _, saved in seen) and all(saved <= held for held, saved in seen)
    record = total.as_dict()
    assert record["states_saved"] == sum(record["states_saved_per_step"]) > 0
    assert len(record["states_saved_per_step"]) == len(record["states_per_step"])
    assert "(1,234 of them for two, by mirror image)" in cli.progress_text(5_000, 10, None, 1_234)
    assert "mirror" not in cli.progress_text(5_000, 10)
