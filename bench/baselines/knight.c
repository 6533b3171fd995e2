/* The three knight's-tour searches in C, for side-by-side speed ratios.
 *
 * Same move order, tie rules, node definition and budget rule as
 * knight/kernels.py, so node counts are identical (the tests check it).
 * Compiled at run time with `-O3 -march=native`, by gcc and by clang alike,
 * by bench/baselines/c.py; called through ctypes. Squares are int32
 * row * cols + col; the neighbour table is knight.geometry.board.neighbour_table
 * (valid targets first, -1 padded).
 *
 * Each search is a `*_in` kernel over scratch the caller allocated and
 * touched, of the dtypes of knight.kernels' scratch, and does inside the
 * call what the Numba kernel does inside its call (zeroing, the degree
 * table), so that the toolchain comparison (bench/studies/versus/versus_study.py) times
 * the same work; the answer goes to `out`, status first. The older entry
 * points (knight_backtrack, ...) allocate that scratch and call the kernel:
 * the speed guard's C reference times them, whole call, as it always has.
 * The knight_empty_* functions take a kernel's arguments and do nothing:
 * their time is the fixed cost of one call through ctypes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { FOUND = 0, NONE = 1, BUDGET = 2, DEAD_END = 3 };

static const int MOVE_ROWS[8] = {-2, -1, 1, 2, 2, 1, -1, -2};
static const int MOVE_COLS[8] = {1, 2, 2, 1, -1, -2, -2, -1};

/* closes[s] = 1 where one move returns to start; the rest 0 */
static void mark_closing_squares(const int32_t *nb, int64_t n, int64_t start, uint8_t *closes) {
    memset(closes, 0, (size_t)n);
    for (int k = 0; k < 8 && nb[start * 8 + k] >= 0; k++) closes[nb[start * 8 + k]] = 1;
}

/* Unordered DFS. first_only: stop at the first tour (left in path).
 * Scratch: closes, visited (n bytes), move_index (n int64), any contents.
 * out: status, tours, nodes. */
void knight_backtrack_in(const int32_t *nb, int64_t n, int64_t start, int closed, int64_t budget,
                         int first_only, int32_t *path, uint8_t *closes, uint8_t *visited,
                         int64_t *move_index, int64_t *out) {
    int64_t last = n - 1, nodes = 1, tours = 0;
    int status = -1;
    mark_closing_squares(nb, n, start, closes);
    memset(visited, 0, (size_t)n);
    move_index[0] = 0;
    path[0] = (int32_t)start;
    if (last == 0) {
        out[0] = closed ? NONE : FOUND; out[1] = closed ? 0 : 1; out[2] = 1;
        return;
    }
    visited[start] = 1;
    int64_t depth = 0;
    while (depth >= 0) {
        int32_t square = path[depth];
        int64_t k = move_index[depth];
        int32_t target = -1;
        const int32_t *row = nb + (int64_t)square * 8;
        while (k < 8) {
            int32_t candidate = row[k++];
            if (candidate < 0) break;
            if (!visited[candidate]) { target = candidate; break; }
        }
        if (target < 0) { visited[square] = 0; depth--; continue; }
        move_index[depth] = k;
        if (nodes == budget) { status = BUDGET; break; }
        nodes++;
        path[++depth] = target;
        if (depth == last) {
            if (!closed || closes[target]) {
                tours++;
                if (first_only) { status = FOUND; break; }
            }
            depth--;
            continue;
        }
        visited[target] = 1;
        move_index[depth] = 0;
    }
    if (status < 0) status = tours > 0 ? FOUND : NONE;
    out[0] = status; out[1] = tours; out[2] = nodes;
}

int knight_backtrack(const int32_t *nb, int64_t n, int64_t start, int closed, int64_t budget,
                     int first_only, int32_t *path, int64_t *tours_out, int64_t *nodes_out) {
    uint8_t *closes = malloc(n), *visited = malloc(n);
    int64_t *move_index = malloc(sizeof(int64_t) * n), out[3];
    knight_backtrack_in(nb, n, start, closed, budget, first_only, path, closes, visited, move_index, out);
    free(closes); free(visited); free(move_index);
    *tours_out = out[1];
    *nodes_out = out[2];
    return (int)out[0];
}

/* Warnsdorff-ordered DFS with incremental onward degrees, written like the
 * Numba kernel: one pass takes a square and sorts its candidates.
 * Scratch: closes, degree (n int8), candidates (8n int32), n_candidates and
 * next_candidate (n int8 each), any contents. out: status, nodes. */
void knight_warnsdorff_in(const int32_t *nb, const int64_t *keys, int64_t n, int64_t start, int closed,
                          int64_t budget, int32_t *path, uint8_t *closes, int8_t *degree, int32_t *candidates,
                          int8_t *n_candidates, int8_t *next_candidate, int64_t *out) {
    int64_t last = n - 1, nodes = 1;
    mark_closing_squares(nb, n, start, closes);
    for (int64_t s = 0; s < n; s++) {
        int8_t d = 0;
        for (int k = 0; k < 8 && nb[s * 8 + k] >= 0; k++) d++;
        degree[s] = d;
    }
    path[0] = (int32_t)start;
    if (last == 0) { out[0] = closed ? NONE : FOUND; out[1] = 1; return; }
    int64_t depth = 0;
    int entering = 1, status = NONE;
    for (;;) {
        if (entering) {
            int32_t square = path[depth];
            const int32_t *row = nb + (int64_t)square * 8;
            int32_t *slots = candidates + depth * 8;
            int count = 0;
            degree[square] = -1;
            for (int k = 0; k < 8 && row[k] >= 0; k++) {
                int32_t candidate = row[k];
                if (degree[candidate] < 0) continue;
                int8_t candidate_degree = --degree[candidate];
                int64_t candidate_key = keys[candidate];
                int slot = count;
                while (slot > 0) {
                    int32_t before = slots[slot - 1];
                    if (degree[before] < candidate_degree) break;
                    if (degree[before] == candidate_degree && keys[before] <= candidate_key) break;
                    slots[slot] = before;
                    slot--;
                }
                slots[slot] = candidate;
                count++;
            }
            n_candidates[depth] = (int8_t)count;
            next_candidate[depth] = 0;
            entering = 0;
        }
        int i = next_candidate[depth];
        if (i == n_candidates[depth]) {
            int32_t square = path[depth];
            const int32_t *row = nb + (int64_t)square * 8;
            int8_t count = 0;
            for (int k = 0; k < 8 && row[k] >= 0; k++)
                if (degree[row[k]] >= 0) { degree[row[k]]++; count++; }
            degree[square] = count;
            if (--depth < 0) break;
            continue;
        }
        int32_t target = candidates[depth * 8 + i];
        next_candidate[depth] = (int8_t)(i + 1);
        if (nodes == budget) { status = BUDGET; break; }
        nodes++;
        path[++depth] = target;
        if (depth == last) {
            if (!closed || closes[target]) { status = FOUND; break; }
            depth--;
            continue;
        }
        entering = 1;
    }
    out[0] = status; out[1] = nodes;
}

int knight_warnsdorff(const int32_t *nb, const int64_t *keys, int64_t n, int64_t start, int closed,
                      int64_t budget, int32_t *path, int64_t *nodes_out) {
    uint8_t *closes = malloc(n);
    int8_t *degree = malloc(n), *n_candidates = malloc(n), *next_candidate = malloc(n);
    int32_t *candidates = malloc(sizeof(int32_t) * 8 * n);
    int64_t out[2];
    knight_warnsdorff_in(nb, keys, n, start, closed, budget, path, closes, degree, candidates, n_candidates,
                         next_candidate, out);
    free(closes); free(degree); free(candidates); free(n_candidates); free(next_candidate);
    *nodes_out = out[1];
    return (int)out[0];
}

static int64_t tie_key(int64_t row, int64_t col, int64_t rows, int64_t cols, int tiebreak) {
    if (tiebreak == 0) return 0;
    int64_t dr = 2 * row - (rows - 1), dc = 2 * col - (cols - 1);
    return -(dr * dr + dc * dc);
}

/* Greedy Warnsdorff walk from coordinates, O(1) per step.
 * Scratch: degree (n uint8), any contents. out: status, nodes. */
void knight_greedy_in(int64_t rows, int64_t cols, int64_t start, int tiebreak, int closed, int64_t budget,
                      int32_t *path, uint8_t *degree, int64_t *out) {
    int64_t n = rows * cols;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) {
            uint8_t d = 0;
            for (int k = 0; k < 8; k++) {
                int64_t tr = r + MOVE_ROWS[k], tc = c + MOVE_COLS[k];
                if (tr >= 0 && tr < rows && tc >= 0 && tc < cols) d++;
            }
            degree[r * cols + c] = d;
        }
    int64_t square = start, nodes = 1;
    int status = FOUND;
    path[0] = (int32_t)start;
    for (int64_t depth = 1; depth <= n; depth++) {
        int64_t row = square / cols, col = square % cols;
        int64_t best = -1, best_degree = 9, best_key = 0;
        degree[square] = 255;
        for (int k = 0; k < 8; k++) {
            int64_t tr = row + MOVE_ROWS[k], tc = col + MOVE_COLS[k];
            if (tr < 0 || tr >= rows || tc < 0 || tc >= cols) continue;
            int64_t target = tr * cols + tc;
            if (degree[target] == 255) continue;
            degree[target]--;
            int64_t onward = degree[target];
            int64_t key = tie_key(tr, tc, rows, cols, tiebreak);
            if (onward < best_degree || (onward == best_degree && key < best_key)) {
                best = target; best_degree = onward; best_key = key;
            }
        }
        if (depth == n) break;
        if (best < 0) { status = DEAD_END; break; }
        if (nodes == budget) { status = BUDGET; break; }
        nodes++;
        path[depth] = (int32_t)best;
        square = best;
    }
    if (status == FOUND && closed) {
        int64_t dr = llabs(square / cols - start / cols), dc = llabs(square % cols - start % cols);
        if (!((dr == 1 && dc == 2) || (dr == 2 && dc == 1))) status = DEAD_END;
    }
    out[0] = status; out[1] = nodes;
}

int knight_greedy(int64_t rows, int64_t cols, int64_t start, int tiebreak, int closed, int64_t budget,
                  int32_t *path, int64_t *nodes_out) {
    uint8_t *degree = malloc(rows * cols);
    int64_t out[2];
    knight_greedy_in(rows, cols, start, tiebreak, closed, budget, path, degree, out);
    free(degree);
    *nodes_out = out[1];
    return (int)out[0];
}

/* Warnsdorff-ordered DFS on a bitboard (at most 64 squares): onward degree
 * is a popcount of the candidate's neighbour mask less the visited set.
 * Scratch: masks (n uint64), candidates (8n int32), degrees (8n int64),
 * n_candidates and next_candidate (n int64 each), any contents: the arrays
 * the Numba kernel allocates inside its call. out: status, nodes. */
void knight_warnsdorff_bits_in(const int32_t *nb, const int64_t *keys, int64_t n, int64_t start, int closed,
                               int64_t budget, int32_t *path, uint64_t *masks, int32_t *candidates,
                               int64_t *degrees, int64_t *n_candidates, int64_t *next_candidate, int64_t *out) {
    int64_t last = n - 1, nodes = 1;
    for (int64_t s = 0; s < n; s++) {
        masks[s] = 0;
        for (int k = 0; k < 8 && nb[s * 8 + k] >= 0; k++) masks[s] |= 1ULL << nb[s * 8 + k];
    }
    uint64_t closes = masks[start], visited = 1ULL << start;
    path[0] = (int32_t)start;
    if (last == 0) { out[0] = closed ? NONE : FOUND; out[1] = 1; return; }
    int64_t depth = 0, square = start;
    int entering = 1, status = NONE;
    for (;;) {
        if (entering) {
            const int32_t *row = nb + square * 8;
            int32_t *slots = candidates + depth * 8;
            int64_t *slot_degree = degrees + depth * 8;
            int count = 0;
            for (int k = 0; k < 8 && row[k] >= 0; k++) {
                int32_t candidate = row[k];
                if ((visited >> candidate) & 1) continue;
                int64_t degree = __builtin_popcountll(masks[candidate] & ~visited);
                int64_t key = keys[candidate];
                int slot = count;
                while (slot > 0) {
                    if (slot_degree[slot - 1] < degree) break;
                    if (slot_degree[slot - 1] == degree && keys[slots[slot - 1]] <= key) break;
                    slots[slot] = slots[slot - 1];
                    slot_degree[slot] = slot_degree[slot - 1];
                    slot--;
                }
                slots[slot] = candidate;
                slot_degree[slot] = degree;
                count++;
            }
            n_candidates[depth] = count;
            next_candidate[depth] = 0;
            entering = 0;
        }
        int64_t i = next_candidate[depth];
        if (i == n_candidates[depth]) {
            visited ^= 1ULL << path[depth];
            if (--depth < 0) break;
            continue;
        }
        int32_t target = candidates[depth * 8 + i];
        next_candidate[depth] = i + 1;
        if (nodes == budget) { status = BUDGET; break; }
        nodes++;
        path[++depth] = target;
        if (depth == last) {
            if (!closed || ((closes >> target) & 1)) { status = FOUND; break; }
            depth--;
            continue;
        }
        visited |= 1ULL << target;
        square = target;
        entering = 1;
    }
    out[0] = status; out[1] = nodes;
}

int knight_warnsdorff_bits(const int32_t *nb, const int64_t *keys, int64_t n, int64_t start, int closed,
                           int64_t budget, int32_t *path, int64_t *nodes_out) {
    uint64_t *masks = malloc(sizeof(uint64_t) * n);
    int32_t *candidates = malloc(sizeof(int32_t) * 8 * n);
    int64_t *degrees = malloc(sizeof(int64_t) * 8 * n), *n_candidates = malloc(sizeof(int64_t) * n);
    int64_t *next_candidate = malloc(sizeof(int64_t) * n), out[2];
    knight_warnsdorff_bits_in(nb, keys, n, start, closed, budget, path, masks, candidates, degrees, n_candidates,
                              next_candidate, out);
    free(masks); free(candidates); free(degrees); free(n_candidates); free(next_candidate);
    *nodes_out = out[1];
    return (int)out[0];
}

/* A kernel's arguments (the five or six scratch pointers of either
 * Warnsdorff kernel as void *), nothing done: one call's fixed cost. */
void knight_empty_backtrack(const int32_t *nb, int64_t n, int64_t start, int closed, int64_t budget,
                            int first_only, int32_t *path, void *a, void *b, void *c, int64_t *out) {}
void knight_empty_warnsdorff(const int32_t *nb, const int64_t *keys, int64_t n, int64_t start, int closed,
                             int64_t budget, int32_t *path, void *a, void *b, void *c, void *d, void *e,
                             int64_t *out) {}
void knight_empty_greedy(int64_t rows, int64_t cols, int64_t start, int tiebreak, int closed, int64_t budget,
                         int32_t *path, uint8_t *degree, int64_t *out) {}
