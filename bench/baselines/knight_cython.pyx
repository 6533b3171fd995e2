# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""knight's searches in Cython over typed memoryviews: the algorithm, the
arrays and their dtypes of knight/kernels.py (and of bench/baselines/knight.c),
so that node counts are identical and a speed ratio compares compilers.

boundscheck and wraparound off: the Numba kernels index unchecked and with
unsigned indices (knight/runtime/_jit.py's ``_u``), which skips the same checks.
Each function returns what the Numba kernel returns; ``empty_*`` take a
kernel's arguments and return at once (the fixed cost of one call:
acquiring every memoryview). Built by bench/baselines/cython_build.py.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport llabs

cdef enum:
    FOUND = 0
    NONE = 1
    BUDGET = 2
    DEAD_END = 3

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil


# the moves as C constants (static const, as in knight.c): a Cython module
# array is mutable, so gcc could not fold it into the unrolled move loop
cdef extern from *:
    """
    static const int64_t MOVE_ROWS[8] = {-2, -1, 1, 2, 2, 1, -1, -2};
    static const int64_t MOVE_COLS[8] = {1, 2, 2, 1, -1, -2, -2, -1};
    """
    const int64_t MOVE_ROWS[8]
    const int64_t MOVE_COLS[8]


cdef inline void mark_closing_squares(const int32_t[:, ::1] nb, int64_t start, uint8_t[::1] closes) noexcept nogil:
    cdef int64_t k
    for k in range(closes.shape[0]):
        closes[k] = 0
    for k in range(8):
        if nb[start, k] < 0:
            break
        closes[nb[start, k]] = 1


def backtrack(const int32_t[:, ::1] nb, int64_t start, bint closed, int64_t budget, bint first_only,
              int32_t[::1] path, uint8_t[::1] closes, uint8_t[::1] visited, int64_t[::1] move_index):
    cdef int64_t counts[2]
    cdef int code
    with nogil:
        code = _backtrack(nb, start, closed, budget, first_only, path, closes, visited, move_index, counts)
    return code, counts[0], counts[1]


cdef int _backtrack(const int32_t[:, ::1] nb, int64_t start, bint closed, int64_t budget, bint first_only,
                    int32_t[::1] path, uint8_t[::1] closes, uint8_t[::1] visited, int64_t[::1] move_index,
                    int64_t *counts) noexcept nogil:
    # counts: tours, nodes (written on every return)
    cdef int64_t n = nb.shape[0], last = n - 1, nodes = 1, tours = 0, depth = 0, k
    cdef int32_t square, target, candidate
    mark_closing_squares(nb, start, closes)
    for k in range(n):
        visited[k] = 0
    move_index[0] = 0
    path[0] = <int32_t>start
    if last == 0:
        counts[0] = 0 if closed else 1
        counts[1] = nodes
        return NONE if closed else FOUND
    visited[start] = 1
    while depth >= 0:
        square = path[depth]
        k = move_index[depth]
        target = -1
        while k < 8:
            candidate = nb[square, k]
            k += 1
            if candidate < 0:
                break
            if visited[candidate] == 0:
                target = candidate
                break
        if target < 0:
            visited[square] = 0
            depth -= 1
            continue
        move_index[depth] = k
        if nodes == budget:
            counts[0] = tours
            counts[1] = nodes
            return BUDGET
        nodes += 1
        depth += 1
        path[depth] = target
        if depth == last:
            if not closed or closes[target]:
                tours += 1
                if first_only:
                    counts[0] = tours
                    counts[1] = nodes
                    return FOUND
            depth -= 1
            continue
        visited[target] = 1
        move_index[depth] = 0
    counts[0] = tours
    counts[1] = nodes
    return FOUND if tours > 0 else NONE


def warnsdorff(const int32_t[:, ::1] nb, const int64_t[::1] keys, int64_t start, bint closed, int64_t budget,
               int32_t[::1] path, uint8_t[::1] closes, int8_t[::1] degree, int32_t[::1] candidates,
               int8_t[::1] n_candidates, int8_t[::1] next_candidate):
    cdef int64_t nodes
    cdef int code
    with nogil:
        code = _warnsdorff(nb, keys, start, closed, budget, path, closes, degree, candidates, n_candidates,
                           next_candidate, &nodes)
    return code, nodes


cdef int _warnsdorff(const int32_t[:, ::1] nb, const int64_t[::1] keys, int64_t start, bint closed, int64_t budget,
                     int32_t[::1] path, uint8_t[::1] closes, int8_t[::1] degree, int32_t[::1] candidates,
                     int8_t[::1] n_candidates, int8_t[::1] next_candidate, int64_t *nodes_out) noexcept nogil:
    cdef int64_t n = nb.shape[0], last = n - 1, nodes = 1, depth = 0, square, first, slot, i, count, k
    cdef int32_t candidate, before, target, other
    cdef int8_t candidate_degree, before_degree
    cdef int64_t candidate_key
    cdef bint entering = True
    mark_closing_squares(nb, start, closes)
    for square in range(n):
        count = 0
        for k in range(8):
            if nb[square, k] < 0:
                break
            count += 1
        degree[square] = <int8_t>count
    path[0] = <int32_t>start
    if last == 0:
        nodes_out[0] = nodes
        return NONE if closed else FOUND
    while True:
        if entering:
            square = path[depth]
            degree[square] = -1
            first = 8 * depth
            count = 0
            for k in range(8):
                candidate = nb[square, k]
                if candidate < 0:
                    break
                if degree[candidate] < 0:
                    continue
                candidate_degree = degree[candidate] - 1
                degree[candidate] = candidate_degree
                candidate_key = keys[candidate]
                slot = first + count
                while slot > first:
                    before = candidates[slot - 1]
                    before_degree = degree[before]
                    if before_degree < candidate_degree:
                        break
                    if before_degree == candidate_degree and keys[before] <= candidate_key:
                        break
                    candidates[slot] = before
                    slot -= 1
                candidates[slot] = candidate
                count += 1
            n_candidates[depth] = <int8_t>count
            next_candidate[depth] = 0
            entering = False
        i = next_candidate[depth]
        if i == n_candidates[depth]:
            square = path[depth]
            count = 0
            for k in range(8):
                other = nb[square, k]
                if other < 0:
                    break
                if degree[other] >= 0:
                    degree[other] += 1
                    count += 1
            degree[square] = <int8_t>count
            depth -= 1
            if depth < 0:
                nodes_out[0] = nodes
                return NONE
            continue
        target = candidates[8 * depth + i]
        next_candidate[depth] = <int8_t>(i + 1)
        if nodes == budget:
            nodes_out[0] = nodes
            return BUDGET
        nodes += 1
        depth += 1
        path[depth] = target
        if depth == last:
            if not closed or closes[target]:
                nodes_out[0] = nodes
                return FOUND
            depth -= 1
            continue
        entering = True


def warnsdorff_bits(const int32_t[:, ::1] nb, const int64_t[::1] keys, int64_t start, bint closed, int64_t budget,
                    int32_t[::1] path, uint64_t[::1] masks, int32_t[::1] candidates, int64_t[::1] degrees,
                    int64_t[::1] n_candidates, int64_t[::1] next_candidate):
    cdef int64_t nodes
    cdef int code
    with nogil:
        code = _warnsdorff_bits(nb, keys, start, closed, budget, path, masks, candidates, degrees, n_candidates,
                                next_candidate, &nodes)
    return code, nodes


cdef int _warnsdorff_bits(const int32_t[:, ::1] nb, const int64_t[::1] keys, int64_t start, bint closed,
                          int64_t budget, int32_t[::1] path, uint64_t[::1] masks, int32_t[::1] candidates,
                          int64_t[::1] degrees, int64_t[::1] n_candidates, int64_t[::1] next_candidate,
                          int64_t *nodes_out) noexcept nogil:
    cdef int64_t n = nb.shape[0], last = n - 1, nodes = 1, depth = 0, square = start, first, slot, i, count, k
    cdef int64_t degree, key
    cdef int32_t candidate, target
    cdef uint64_t visited, closes, one = 1
    cdef bint entering = True
    for square in range(n):
        masks[square] = 0
        for k in range(8):
            if nb[square, k] < 0:
                break
            masks[square] |= one << nb[square, k]
    square = start
    closes = masks[start]
    path[0] = <int32_t>start
    if last == 0:
        nodes_out[0] = nodes
        return NONE if closed else FOUND
    visited = one << start
    while True:
        if entering:
            first = 8 * depth
            count = 0
            for k in range(8):
                candidate = nb[square, k]
                if candidate < 0:
                    break
                if (visited >> candidate) & one:
                    continue
                degree = __builtin_popcountll(masks[candidate] & ~visited)
                key = keys[candidate]
                slot = first + count
                while slot > first:
                    if degrees[slot - 1] < degree:
                        break
                    if degrees[slot - 1] == degree and keys[candidates[slot - 1]] <= key:
                        break
                    candidates[slot] = candidates[slot - 1]
                    degrees[slot] = degrees[slot - 1]
                    slot -= 1
                candidates[slot] = candidate
                degrees[slot] = degree
                count += 1
            n_candidates[depth] = count
            next_candidate[depth] = 0
            entering = False
        i = next_candidate[depth]
        if i == n_candidates[depth]:
            visited ^= one << path[depth]
            depth -= 1
            if depth < 0:
                nodes_out[0] = nodes
                return NONE
            continue
        target = candidates[8 * depth + i]
        next_candidate[depth] = i + 1
        if nodes == budget:
            nodes_out[0] = nodes
            return BUDGET
        nodes += 1
        depth += 1
        path[depth] = target
        if depth == last:
            if not closed or (closes >> target) & one:
                nodes_out[0] = nodes
                return FOUND
            depth -= 1
            continue
        visited |= one << target
        square = target
        entering = True


cdef inline int64_t tie_key(int64_t row, int64_t col, int64_t rows, int64_t cols, int tiebreak) noexcept nogil:
    if tiebreak == 0:
        return 0
    cdef int64_t dr = 2 * row - (rows - 1), dc = 2 * col - (cols - 1)
    return -(dr * dr + dc * dc)


def greedy(int64_t rows, int64_t cols, int64_t start, int tiebreak, bint closed, int64_t budget,
           int32_t[::1] path, uint8_t[::1] degree):
    cdef int64_t nodes
    cdef int code
    with nogil:
        code = _greedy(rows, cols, start, tiebreak, closed, budget, path, degree, &nodes)
    return code, nodes


cdef int _greedy(int64_t rows, int64_t cols, int64_t start, int tiebreak, bint closed, int64_t budget,
                 int32_t[::1] path, uint8_t[::1] degree, int64_t *nodes_out) noexcept nogil:
    cdef int64_t n = rows * cols, r, c, tr, tc, square = start, nodes = 1, depth, row, col
    cdef int64_t best, best_degree, best_key, target, onward, key, dr, dc
    cdef int k, count
    for r in range(rows):
        for c in range(cols):
            count = 0
            for k in range(8):
                tr = r + MOVE_ROWS[k]
                tc = c + MOVE_COLS[k]
                if 0 <= tr < rows and 0 <= tc < cols:
                    count += 1
            degree[r * cols + c] = <uint8_t>count
    path[0] = <int32_t>start
    for depth in range(1, n + 1):
        row = square // cols
        col = square % cols
        best = -1
        best_degree = 9
        best_key = 0
        degree[square] = 255
        for k in range(8):
            tr = row + MOVE_ROWS[k]
            tc = col + MOVE_COLS[k]
            if not (0 <= tr < rows and 0 <= tc < cols):
                continue
            target = tr * cols + tc
            if degree[target] == 255:
                continue
            degree[target] -= 1
            onward = degree[target]
            key = tie_key(tr, tc, rows, cols, tiebreak)
            if onward < best_degree or (onward == best_degree and key < best_key):
                best = target
                best_degree = onward
                best_key = key
        if depth == n:
            break
        if best < 0:
            nodes_out[0] = nodes
            return DEAD_END
        if nodes == budget:
            nodes_out[0] = nodes
            return BUDGET
        nodes += 1
        path[depth] = <int32_t>best
        square = best
    if closed:
        dr = llabs(square // cols - start // cols)
        dc = llabs(square % cols - start % cols)
        if not ((dr == 1 and dc == 2) or (dr == 2 and dc == 1)):
            nodes_out[0] = nodes
            return DEAD_END
    nodes_out[0] = nodes
    return FOUND


def empty_backtrack(const int32_t[:, ::1] nb, int64_t start, bint closed, int64_t budget, bint first_only,
                    int32_t[::1] path, uint8_t[::1] closes, uint8_t[::1] visited, int64_t[::1] move_index):
    return 0, 0, 0


def empty_warnsdorff(const int32_t[:, ::1] nb, const int64_t[::1] keys, int64_t start, bint closed, int64_t budget,
                     int32_t[::1] path, uint8_t[::1] closes, int8_t[::1] degree, int32_t[::1] candidates,
                     int8_t[::1] n_candidates, int8_t[::1] next_candidate):
    return 0, 0


def empty_warnsdorff_bits(const int32_t[:, ::1] nb, const int64_t[::1] keys, int64_t start, bint closed,
                          int64_t budget, int32_t[::1] path, uint64_t[::1] masks, int32_t[::1] candidates,
                          int64_t[::1] degrees, int64_t[::1] n_candidates, int64_t[::1] next_candidate):
    return 0, 0


def empty_greedy(int64_t rows, int64_t cols, int64_t start, int tiebreak, bint closed, int64_t budget,
                 int32_t[::1] path, uint8_t[::1] degree):
    return 0, 0
