"""This module finds the degree patterns of a frontier that can still be completed to a tour.

This is the degree relaxation of the frontier DP. The DP drops every state
whose pattern cannot be completed, before the state takes a place in the
table.

Why: most states of the exact DP are dead weight. On 5 x 6 (open paths, no
forced end), a backward pass over the exact tables found that only 4-5% of
the states held at the peak step lead to any tour at all; the rest are
summed, stored and carried step after step, and die squares later. The
exact liveness of a state is what the DP computes, so it cannot be known
in advance; a relaxation of it can.

The relaxation forgets which path ends are joined to which and keeps only
what each frontier square still needs: 0 (finished, or a tour end with its
one edge), 1 (the end of a path) or 2 (bare), plus ``ends``, the tour ends
already committed (gone from the frontier, or the forced start once
inserted). A pattern is *live* if some choice of the edges still to be
decided gives every square its degree (2, or 1 for at most ``tour_ends``
tour ends) -- cycles allowed, connectivity ignored. Every completion of an
exact state is such a choice for its pattern, so a state whose pattern is
not live has no completion: dropping it changes no count. On 5 x 6 the
patterns that are live keep 8-11% of the states at the peak steps (the
exact ideal is 4-5%).

Patterns live in a domain small enough for bitmaps: base 3 over the
frontier's squares, ``ends`` above them (``code = sum(need[i] * 3**i) +
ends * 3**n``), at most 3^17 x 3 codes, one bit each. A forward pass over
the schedule marks the patterns that can occur (only those that pass two
quick necessary tests, ``_plausible``), a backward pass keeps those with a
live successor; both run over the marked bits only. ``option_lists`` then
turns a step's live sets into the options of each pattern, which the step
kernel looks up per state.
"""

import numpy as np

from knight.counting.dp.runs import worker_threads
from knight.runtime._bits import popcount
from knight.runtime._jit import jit

_WORD_BITS = 64
# 3^i for every frontier size (at most 17 squares) and the ends digit above
POWERS_OF_THREE = 3 ** np.arange(18, dtype=np.int64)
# options of one step for one pattern: no edge, an edge to one of at most
# 8 neighbours, or to two
MOST_OPTIONS = 1 + 8 + 28


@jit(inline="always")
def has_bit(bits, code):
    return (bits[code >> 6] >> np.uint64(code & 63)) & np.uint64(1)


@jit(inline="always")
def _set_bit(bits, code):
    bits[code >> 6] |= np.uint64(1) << np.uint64(code & 63)


@jit
def pattern_step(
    reach,
    first_word,
    end_word,
    old_size,
    new_size,
    neighbour_slots,
    kept_slots,
    leaving_slots,
    inserted_stays,
    forced_slot,
    inserted_forced,
    tour_ends,
    final,
    successors,
    backward,
    futures,
    colours,
    future_balance,
):
    """Insert one square into every pattern set in ``reach`` (the bitmap of
    the patterns before the step). Forward (``backward`` false): set the
    successors' bits in ``successors``. Backward: clear the bit of every
    pattern in ``reach`` with no successor set in ``successors`` (the live
    patterns after the step; at the last step, with no choice that
    completes). Only words ``first_word`` to ``end_word`` of ``reach`` are
    read (and, backward, written): threads take disjoint ranges.
    ``futures``, ``colours``, ``future_balance``: the step's entries of the
    ``cell_order.Schedule`` fields, for ``_plausible``. The other arguments
    are the exact kernel's (``hash_kernels.frontier_step``) for the
    same step. Returns how many patterns the range holds after."""
    need = np.zeros(old_size + 1, dtype=np.int64)
    candidates = np.zeros(8, dtype=np.intp)
    positions = slot_positions(old_size, kept_slots)
    weights = kept_weights(old_size, kept_slots)
    untouched = np.zeros(0, dtype=np.intp)
    if not backward and not final:
        untouched = _kept_apart_from(kept_slots, neighbour_slots)
    held = 0
    for word in range(first_word, end_word):
        bits = reach[word]
        while bits:
            low = bits & (~bits + np.uint64(1))
            bits ^= low
            code = np.int64(word * _WORD_BITS + popcount(low - np.uint64(1)))
            kept_code, ends = _decoded(code, old_size, weights, need)
            # what the squares the step leaves alone contribute to the
            # successors' plausibility: the same for every choice
            excess, balance = _contributions(need, untouched, futures, colours, forced_slot, tour_ends)
            alive = _any_successor(
                need,
                ends,
                kept_code,
                new_size,
                neighbour_slots,
                kept_slots,
                positions,
                leaving_slots,
                inserted_stays,
                forced_slot,
                inserted_forced,
                tour_ends,
                final,
                successors,
                backward,
                candidates,
                futures,
                colours,
                excess,
                balance + future_balance,
            )
            if backward and not alive:
                reach[word] &= ~low
            else:
                held += 1
    return held


@jit(inline="always")
def _decoded(code, old_size, weights, need):
    """Unpack a pattern ``code``: each old slot's need into ``need``;
    returns the code of the kept slots' needs (``weights``: their place
    values in the next frontier) and the number of tour ends used."""
    # digits by division by the constant 3 (a multiply and a shift), not
    # by a power looked up (a true division each)
    rest = code
    kept_code = np.int64(0)
    for index in range(old_size):
        need[index] = rest % 3
        kept_code += need[index] * weights[index]
        rest //= 3
    return kept_code, rest


@jit(inline="always")
def _any_successor(
    need,
    ends,
    kept_code,
    new_size,
    neighbour_slots,
    kept_slots,
    positions,
    leaving_slots,
    inserted_stays,
    forced_slot,
    inserted_forced,
    tour_ends,
    final,
    successors,
    backward,
    candidates,
    futures,
    colours,
    excess,
    balance,
):
    """Every choice of edges for the inserted square. Forward: mark each
    successor that is ``_plausible``. Backward (and at the last step): stop
    at the first live one. Returns whether one was found."""
    inserted_need = 1 if inserted_forced else 2
    if inserted_forced:
        ends += 1  # the forced start is a tour end from the moment it is in
    n_candidates = _candidates(need, neighbour_slots, candidates)
    found = False
    # no edge (-1, -1), one edge (-1, j), two edges (i, j > i)
    for first in range(-1, n_candidates):
        for second in range(-1 if first < 0 else first + 1, n_candidates):
            edges = (1 if first >= 0 else 0) + (1 if second >= 0 else 0)
            if edges > inserted_need:
                continue
            a_slot = candidates[first] if first >= 0 else -1
            b_slot = candidates[second] if second >= 0 else -1
            code = successor_pattern(
                kept_code,
                need,
                ends,
                inserted_need - edges,
                a_slot,
                b_slot,
                positions,
                leaving_slots,
                new_size,
                inserted_stays,
                forced_slot,
                inserted_forced,
                tour_ends,
                final,
            )
            if code < 0:
                continue
            found = True
            if final or (backward and has_bit(successors, code)):
                return True
            # a successor already marked needs no second test: most are
            # reached from many patterns
            if (
                not backward
                and not has_bit(successors, code)
                and _plausible(
                    code,
                    need,
                    new_size,
                    inserted_need - edges,
                    a_slot,
                    b_slot,
                    neighbour_slots,
                    positions,
                    inserted_stays,
                    inserted_forced,
                    forced_slot,
                    tour_ends,
                    futures,
                    colours,
                    excess,
                    balance,
                )
            ):
                _set_bit(successors, code)
    return found and not backward


@jit(inline="always")
def _candidates(need, neighbour_slots, candidates):
    """The inserted square's neighbours that can still take an edge, into
    ``candidates``; returns how many. The options of a step are no edge,
    an edge to one of them, or edges to two."""
    count = 0
    for index in range(neighbour_slots.shape[0]):
        if need[neighbour_slots[index]] > 0:
            candidates[count] = neighbour_slots[index]
            count += 1
    return count


@jit
def option_lists(
    before,
    old_size,
    new_size,
    neighbour_slots,
    kept_slots,
    leaving_slots,
    inserted_stays,
    forced_slot,
    inserted_forced,
    tour_ends,
    final,
    after,
):
    """The options of one step, per pattern the states before it can have:
    those set in ``before``. Pattern number ``r`` (the ``r``-th set bit)
    has options ``starts[r]`` to ``starts[r + 1]``: edges to slots
    ``firsts``/``seconds`` (-1: none) giving the live pattern ``codes``
    (set in ``after``; at the last step, 0: a complete tour), and
    ``dropped[r]`` options that lead to no live pattern.

    The step kernel looks a state's pattern up here (``rank`` and a
    popcount find ``r``) instead of trying every option on every state:
    options depend on the pattern alone, and a step's states share a few
    thousand patterns (6 x 6 open: at most 21,000 for up to 363,000 states).

    The options are listed a call deeper (``_word_options``), a run of
    words at a time, and the arrays grow between runs, not in the loop over
    patterns. With the growth in that loop (where Numba may count the
    arrays in and out on every pass, as ``hash_kernels._insert_pending``
    found for its table; not checked in this function's code), 6 x 6
    open's option lists took 0.056 s of its run, 0.022 s this way (6 x 8
    open: 0.26 s, 0.13 s)."""
    words = before.shape[0]
    rank = np.empty(words + 1, dtype=np.int64)
    total = 0
    for word in range(words):
        rank[word] = total
        total += popcount(before[word])
    rank[words] = total
    patterns = np.empty(total, dtype=np.int64)
    starts = np.zeros(total + 1, dtype=np.int64)
    dropped = np.zeros(total, dtype=np.int64)
    firsts = np.empty(4 * total + _WORD_OPTIONS, dtype=np.int8)
    seconds = np.empty_like(firsts)
    codes = np.empty(firsts.shape[0], dtype=np.int64)
    positions = slot_positions(old_size, kept_slots)
    weights = kept_weights(old_size, kept_slots)
    held = 0
    word = 0
    while word < words:
        if held + _WORD_OPTIONS > firsts.shape[0]:
            firsts, seconds, codes = _grown(firsts, held), _grown(seconds, held), _grown(codes, held)
        word, held = _word_options(
            before,
            word,
            rank,
            old_size,
            new_size,
            neighbour_slots,
            positions,
            weights,
            leaving_slots,
            inserted_stays,
            forced_slot,
            inserted_forced,
            tour_ends,
            final,
            after,
            patterns,
            starts,
            dropped,
            firsts,
            seconds,
            codes,
            held,
        )
    return rank, patterns, starts, firsts[:held], seconds[:held], codes[:held], dropped


# the most options one word of ``before`` can list: 64 patterns of at most
# MOST_OPTIONS each
_WORD_OPTIONS = _WORD_BITS * MOST_OPTIONS


@jit
def _word_options(
    before,
    word,
    rank,
    old_size,
    new_size,
    neighbour_slots,
    positions,
    weights,
    leaving_slots,
    inserted_stays,
    forced_slot,
    inserted_forced,
    tour_ends,
    final,
    after,
    patterns,
    starts,
    dropped,
    firsts,
    seconds,
    codes,
    held,
):
    """``option_lists``' options of the patterns in words ``word`` onwards
    of ``before``, into ``firsts``/``seconds``/``codes`` from ``held`` on,
    as long as a whole word's options fit. Returns ``(word, held)``: the
    first word not listed and the options listed so far."""
    need = np.zeros(old_size + 1, dtype=np.int64)
    candidates = np.zeros(8, dtype=np.intp)
    inserted_need = 1 if inserted_forced else 2
    while word < before.shape[0] and held + _WORD_OPTIONS <= firsts.shape[0]:
        bits = before[word]
        while bits:
            low = bits & (~bits + np.uint64(1))
            bits ^= low
            code = np.int64(word * _WORD_BITS + popcount(low - np.uint64(1)))
            pattern = rank[word] + popcount(before[word] & (low - np.uint64(1)))
            patterns[pattern] = code
            kept_code, ends = _decoded(code, old_size, weights, need)
            ends += 1 if inserted_forced else 0
            n_candidates = _candidates(need, neighbour_slots, candidates)
            for first in range(-1, n_candidates):
                for second in range(-1 if first < 0 else first + 1, n_candidates):
                    edges = (1 if first >= 0 else 0) + (1 if second >= 0 else 0)
                    a = candidates[first] if first >= 0 else -1
                    b = candidates[second] if second >= 0 else -1
                    successor = -1
                    if edges <= inserted_need:
                        successor = successor_pattern(
                            kept_code,
                            need,
                            ends,
                            inserted_need - edges,
                            a,
                            b,
                            positions,
                            leaving_slots,
                            new_size,
                            inserted_stays,
                            forced_slot,
                            inserted_forced,
                            tour_ends,
                            final,
                        )
                    if successor < 0 or not (final or has_bit(after, successor)):
                        dropped[pattern] += 1
                        continue
                    firsts[held] = a
                    seconds[held] = b
                    codes[held] = successor
                    held += 1
            starts[pattern + 1] = held
        word += 1
    return word, held


@jit(inline="always")
def _grown(array, used):
    grown = np.empty(2 * array.shape[0], dtype=array.dtype)
    grown[:used] = array[:used]
    return grown


@jit(inline="always")
def _kept_apart_from(kept_slots, neighbour_slots):
    """The kept slots that are not the inserted square's neighbours."""
    apart = np.empty(kept_slots.shape[0], dtype=np.intp)
    count = 0
    for position in range(kept_slots.shape[0]):
        slot = kept_slots[position]
        if not np.any(neighbour_slots == slot):
            apart[count] = slot
            count += 1
    return apart[:count]


@jit(inline="always")
def _excess(need, future, forced, tour_ends):
    """How many tour ends a square with ``need`` edges to find among
    ``future`` squares still to come forces: 0 or 1 (it must be an end);
    the forced start is one already, so it cannot absorb one more."""
    if need <= future:
        return 0
    return tour_ends + 1 if forced else need - future


@jit(inline="always")
def _contributions(need, slots, futures, colours, forced_slot, tour_ends):
    """``_excess`` and colour-weighted need summed over ``slots``."""
    excess = 0
    balance = 0
    for index in range(slots.shape[0]):
        slot = slots[index]
        excess += _excess(need[slot], futures[slot], slot == forced_slot, tour_ends)
        balance += colours[slot] * need[slot]
    return excess, balance


@jit(inline="always")
def _plausible(
    code,
    need,
    new_size,
    inserted_left,
    a,
    b,
    neighbour_slots,
    positions,
    inserted_stays,
    inserted_forced,
    forced_slot,
    tour_ends,
    futures,
    colours,
    excess,
    balance,
):
    """Two quick necessary conditions for the successor pattern ``code``
    to be live, checked in the forward pass so that the dead patterns they
    catch (and all they would lead to) are never marked: about a third of
    those the pass reached on 6 x 6 survive them. ``excess`` and
    ``balance`` arrive holding the untouched squares' shares.

    * Squares that need more edges than they have neighbours to come must
      be tour ends: at most the ends still free.
    * The knight's graph is bipartite: the edge ends still to be given on
      white squares (their needs, 2 for each square to come, less the
      white tour ends to come) equal those on black ones, so the colour
      imbalance is the difference of the free ends on either colour."""
    for index in range(neighbour_slots.shape[0]):
        slot = neighbour_slots[index]
        if positions[slot] < 0:
            continue  # it leaves: successor_pattern judged it
        left = need[slot] - (1 if slot == a else 0) - (1 if slot == b else 0)
        excess += _excess(left, futures[slot], slot == forced_slot, tour_ends)
        balance += colours[slot] * left
    if inserted_stays:
        inserted = futures.shape[0] - 1
        excess += _excess(inserted_left, futures[inserted], inserted_forced, tour_ends)
        balance += colours[inserted] * inserted_left
    free_ends = tour_ends - code // POWERS_OF_THREE[new_size]
    return excess <= free_ends and abs(balance) <= free_ends and (balance - free_ends) % 2 == 0


@jit(inline="always")
def kept_weights(old_size, kept_slots):
    """``weights[slot]``: the place value of an old slot's need in the
    pattern after the step, 0 for the slots that leave. The sum of need x
    weight, made as a state is decoded, is the pattern code of the
    squares that stay before any edge of the step: what
    ``successor_pattern`` adjusts per choice."""
    weights = np.zeros(old_size + 1, dtype=np.int64)
    for position in range(kept_slots.shape[0]):
        weights[kept_slots[position]] = POWERS_OF_THREE[position]
    return weights


@jit(inline="always")
def successor_pattern(
    kept_code,
    need,
    ends,
    inserted_left,
    a,
    b,
    positions,
    leaving_slots,
    new_size,
    inserted_stays,
    forced_slot,
    inserted_forced,
    tour_ends,
    final,
):
    """The pattern after giving the inserted square edges to slots ``a`` and
    ``b`` (-1: none), or -1 if that breaks a degree rule; at the last step,
    0 if the choice completes. ``kept_code``: the pattern before, summed
    with ``kept_weights``; ``positions[slot]``: the slot's place on the next frontier (-1:
    it leaves now). Constant work per choice: only the two squares that get
    an edge and the few that leave are looked at."""
    code = kept_code
    for slot in (a, b):
        if slot >= 0 and positions[slot] >= 0:
            code -= POWERS_OF_THREE[positions[slot]]
    for index in range(leaving_slots.shape[0]):
        slot = leaving_slots[index]
        left = need[slot] - (1 if slot == a else 0) - (1 if slot == b else 0)
        if left == 2 or (left == 1 and slot == forced_slot):
            return -1  # leaves with no edge (the forced start: with none)
        if left == 1:
            ends += 1  # leaves with one edge: a tour end
    if inserted_stays:
        code += inserted_left * POWERS_OF_THREE[new_size - 1]
    elif inserted_left == 2 or (inserted_left == 1 and inserted_forced):
        return -1
    elif inserted_left == 1:
        ends += 1
    if ends > tour_ends:
        return -1
    if final:
        return 0 if ends == tour_ends else -1
    return code + ends * POWERS_OF_THREE[new_size]


@jit(inline="always")
def slot_positions(old_size, kept_slots):
    """``positions[slot]``: each old slot's place on the next frontier, -1
    for the slots that leave."""
    positions = np.full(old_size + 1, -1, dtype=np.intp)
    for position in range(kept_slots.shape[0]):
        positions[kept_slots[position]] = position
    return positions


def domain_size(frontier_size, tour_ends):
    """The number of pattern codes of a frontier of ``frontier_size``."""
    return 3**frontier_size * (tour_ends + 1)


def empty_bits(frontier_size, tour_ends):
    return np.zeros(-(-domain_size(frontier_size, tour_ends) // _WORD_BITS), dtype=np.uint64)


def start_bits(tour_ends):
    """The patterns before the first step: the empty frontier alone."""
    bits = empty_bits(0, tour_ends)
    bits[0] = 1
    return bits


# Bitmaps of this many bytes in all, over the runs of one process, are
# kept for the next run of the same board (a benchmark's repeats, a grid's
# runs again): on 6 x 6 the passes are a third of a run's instructions. A
# large board's (hundreds of MiB) are never kept: its run frees each
# bitmap once its steps are past it.
_KEPT_BYTES = 64 << 20
_kept = {}


def live_patterns(plan, closed, forced=None, threads=1):
    """For each step of ``plan`` (a ``cell_order.Schedule``) but the last, the
    bitmap of the degree patterns after it that can still be completed to
    a tour (open: with ``forced`` as one end). Index ``step`` belongs to
    ``plan.frontiers[step]``; the last step's entry is an empty bitmap.
    Passes over large bitmaps run on ``threads`` threads. A new list each
    call (the run empties its entries as it goes); its bitmaps are shared
    with the runs of the same board and must not be written."""
    key = (plan.rows, plan.cols, tuple(plan.order), bool(closed), forced)
    if key not in _kept:
        reach = _computed(plan, closed, forced, threads)
        size = _bytes(reach)
        if size > _KEPT_BYTES:
            return reach
        while _kept and size + sum(_bytes(held) for held in _kept.values()) > _KEPT_BYTES:
            del _kept[next(iter(_kept))]  # the oldest first
        _kept[key] = reach
    return list(_kept[key])


def _bytes(bitmaps):
    return sum(bits.nbytes for bits in bitmaps)


def _computed(plan, closed, forced, threads):
    """``live_patterns``' bitmaps, made by a forward and a backward pass."""
    tour_ends = 0 if closed else 2
    start = start_bits(tour_ends)
    reach = forward_reach(plan, closed, forced, threads)
    for step in range(len(plan.order) - 1, -1, -1):
        before = reach[step - 1] if step else start
        pattern_pass(plan, step, before, reach[step], closed, forced, threads, backward=True)
    return reach


def forward_reach(plan, closed, forced=None, threads=1):
    """``live_patterns``' forward pass: for each step of ``plan``, the
    bitmap of the patterns it can make (those ``_plausible`` lets through);
    the last step's entry is an empty bitmap."""
    tour_ends = 0 if closed else 2
    steps = len(plan.order)
    reach = []
    before = start_bits(tour_ends)
    for step in range(steps):
        after = empty_bits(len(plan.frontiers[step]) if step < steps - 1 else 0, tour_ends)
        if step < steps - 1:
            pattern_pass(plan, step, before, after, closed, forced, threads, backward=False)
        reach.append(after)
        before = after
    return reach


# bitmaps with fewer patterns set than this are passed on one thread
_PARALLEL_PATTERNS = 4096


def _balanced_bounds(bits, threads):
    """Word ranges of ``bits``, one a thread, holding about as many set
    bits each: the patterns cluster, and ranges of equal length left one
    thread idle for much of a pass (1.4x from 2 threads on 6 x 6)."""
    held = np.cumsum(np.bitwise_count(bits), dtype=np.int64)
    total = int(held[-1]) if held.shape[0] else 0
    if total < _PARALLEL_PATTERNS or threads == 1:
        return np.array([0, bits.shape[0]], dtype=np.intp)
    cuts = np.searchsorted(held, np.arange(1, threads) * total // threads, side="right")
    return np.concatenate(([0], cuts, [bits.shape[0]])).astype(np.intp)


def pattern_pass(plan, step, before, after, closed, forced, threads, backward):
    """One pass over ``before`` on every thread: each takes a range of its
    words. Backward, each clears bits in its own range only; forward, each
    marks successors in a bitmap of its own, OR-ed into ``after``."""
    forced_slot, inserted_forced = plan.forced_place(step, forced)
    bounds = _balanced_bounds(before, threads)
    threads = bounds.shape[0] - 1

    def one(part):
        target = after if (backward or threads == 1) else np.zeros_like(after)
        pattern_step(
            before,
            bounds[part],
            bounds[part + 1],
            plan.old_sizes[step],
            len(plan.frontiers[step]),
            plan.neighbour_slots[step],
            plan.kept_slots[step],
            plan.leaving_slots[step],
            plan.stays[step],
            forced_slot,
            inserted_forced,
            0 if closed else 2,
            step == len(plan.order) - 1,
            target,
            backward,
            plan.futures[step],
            plan.colours[step],
            plan.future_balance[step],
        )
        return target

    marked = worker_threads.map_all(one, range(threads), threads=threads)
    if not backward and threads > 1:
        for bits in marked:
            after |= bits
