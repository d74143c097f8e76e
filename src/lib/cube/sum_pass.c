/* SPDX-License-Identifier: BSD-3-Clause */
/* The summary of a summed floating-point metric stored inclusive, and how
 * many of its values are non-zero at each location, in one pass over its
 * rows where they lie: each cnode's exclusive row is derived from its own
 * inclusive row and its children's as the full read derives it (read.c: the
 * children subtracted in document order, a residue within 1e-12 of the
 * inclusive value made 0, entry points 0), then both rows are summed over
 * locations in location order. The same operations in the same order, so the
 * same values; memory is a few rows.
 *
 * A sum over locations is a chain of dependent additions (its order fixes
 * the result), so one row's sum waits on the adder's latency at every value:
 * the rows of CUBE_SUM_BATCH cnodes are prepared first (loads, derivation and
 * counts, which run element-wise and vectorize), then summed side by side,
 * 2 × CUBE_SUM_BATCH independent chains in one loop. */
#include <math.h>
#include <pthread.h>

#include "common/worker.h"
#include "cube/cube.h"

/* Fewer values than this are summed on the calling thread alone: below it a
 * thread's start costs about what it saves. */
#define PARALLEL_MIN_VALUES (1u << 20)

/* An f64 in the host's byte order (swap 0) or the other one. */
static inline double ld(const uint8_t *p, int swap) {
  uint64_t u;
  memcpy(&u, p, sizeof u);
  return bits_to_f64(swap ? __builtin_bswap64(u) : u);
}

/* A row's cache lines asked for ahead of their use: rows are read as a
 * node's children one row after another, from pages the hardware prefetcher
 * does not cross into. */
static inline void prefetch_row(const uint8_t *row, uint32_t nl) {
  for (size_t b = 0; b < 8 * (size_t)nl; b += 64) __builtin_prefetch(row + b);
}

static inline __attribute__((always_inline)) void load_row(double *restrict out, const uint8_t *in, uint32_t nl,
                                                           int swap) {
  for (uint32_t l = 0; l < nl; l++) out[l] = ld(in + 8 * (size_t)l, swap);
}

static inline __attribute__((always_inline)) void subtract_row(double *restrict e, const uint8_t *kid, uint32_t nl,
                                                               int swap) {
  for (uint32_t l = 0; l < nl; l++) e[l] -= ld(kid + 8 * (size_t)l, swap);
}

/* e: the residue made 0; tally: grows by the non-zero values of both rows
 * (as doubles, exact far beyond any count here: a comparison's result
 * becomes a double in vector registers, not a 64-bit integer). */
static inline __attribute__((always_inline)) void finish_row(double *restrict e, const double *restrict v, uint32_t nl,
                                                             double *restrict tally) {
  for (uint32_t l = 0; l < nl; l++) e[l] = fabs(e[l]) <= 1e-12 * fabs(v[l]) ? 0 : e[l];
  for (uint32_t l = 0; tally && l < nl; l++) tally[l] += (v[l] != 0 ? 1.0 : 0.0) + (e[l] != 0 ? 1.0 : 0.0);
}

static inline __attribute__((always_inline)) void add_row(double *restrict sums, const double *restrict e,
                                                          uint32_t nl) {
  for (uint32_t l = 0; l < nl; l++) sums[l] += e[l];
}

/* Sums over locations of a batch's rows v[j] and e[j], side by side. */
static void sum_batch(const double *const *v, const double *const *e, uint32_t nl, double *y, double *x) {
  double y0 = 0, y1 = 0, y2 = 0, y3 = 0, x0 = 0, x1 = 0, x2 = 0, x3 = 0;
  for (uint32_t l = 0; l < nl; l++) {
    y0 += v[0][l], y1 += v[1][l], y2 += v[2][l], y3 += v[3][l];
    x0 += e[0][l], x1 += e[1][l], x2 += e[2][l], x3 += e[3][l];
  }
  y[0] = y0, y[1] = y1, y[2] = y2, y[3] = y3;
  x[0] = x0, x[1] = x1, x[2] = x2, x[3] = x3;
}

/* One share of the pass: cnodes [from, to), counted into its own tally row. */
typedef struct share {
  const cube_sum_tree *t;
  const uint8_t *const *rows;
  int swap;
  double *scratch, *exc, *inc, *tally; /* tally NULL: no counts */
  uint32_t from, to;
} share;

/* swap is a constant at each call, so that each byte order gets its own loops. */
static inline __attribute__((always_inline)) void pass(const share *sh, int swap) {
  const cube_sum_tree *t = sh->t;
  const uint8_t *const *rows = sh->rows;
  uint32_t nl = t->n_locations;
  double *restrict scratch = sh->scratch, *restrict tally = sh->tally;
  const double *v[CUBE_SUM_BATCH], *e[CUBE_SUM_BATCH];
  uint32_t first = sh->from, n = 0; /* the batch: cnodes first .. first + n */
  if (tally) memset(tally, 0, nl * sizeof *tally);
  for (uint32_t c = sh->from; c < sh->to; c++) {
    double *vc = scratch + (size_t)2 * n * nl, *ec = vc + nl;
    load_row(vc, rows[c], nl, swap);
    if (t->is_entry[c]) { /* entry points have inclusive values only: an exclusive row of zeros */
      memset(ec, 0, nl * sizeof *ec);
    } else { /* the exclusive row: the children's rows off the node's own */
      memcpy(ec, vc, nl * sizeof *ec);
      for (uint32_t k = t->kids_at[c]; k < t->kids_at[c + 1]; k++) {
        if (k + 1 < t->kids_at[c + 1]) prefetch_row(rows[t->kids[k + 1]], nl);
        subtract_row(ec, rows[t->kids[k]], nl, swap);
      }
    }
    finish_row(ec, vc, nl, tally);
    if (t->exc_totals && !(t->left_out && t->left_out[c])) add_row(t->exc_totals, ec, nl);
    v[n] = vc, e[n] = ec;
    if (++n == CUBE_SUM_BATCH || c + 1 == sh->to) {
      double y[CUBE_SUM_BATCH], x[CUBE_SUM_BATCH];
      for (uint32_t j = n; j < CUBE_SUM_BATCH; j++) v[j] = v[0], e[j] = e[0]; /* a short last batch: repeats, unused */
      sum_batch(v, e, nl, y, x);
      for (uint32_t j = 0; j < n; j++) sh->exc[first + j] = x[j], sh->inc[first + j] = y[j];
      first = c + 1, n = 0;
    }
  }
}

static void *run_share(void *arg) {
  const share *sh = arg;
  if (sh->swap) pass(sh, 1);
  else pass(sh, 0);
  return NULL;
}

/* Each cnode's sums depend on its rows only, and counts are integers (any
 * order of addition gives the same): a large pass is split in two halves by
 * cnode, the second on a helper thread, with the same results as one pass. */
void cube_sum_pass(const cube_sum_tree *t, const uint8_t *const *rows, int big_endian, double *scratch, double *exc,
                   double *inc, uint64_t *counts) {
  uint32_t nc = t->n_cnodes, nl = t->n_locations;
  size_t share_rows = (size_t)CUBE_SUM_PASS_ROWS / 2 * nl;
  share first = {t, rows, big_endian != cube_native_big_endian(), scratch, exc, inc, NULL, 0, nc};
  share second = first;
  second.scratch = scratch + share_rows;
  if (counts) first.tally = first.scratch + share_rows - nl, second.tally = second.scratch + share_rows - nl;
  worker_thread helper;
  int split = !t->serial && !t->exc_totals && (uint64_t)nc * nl >= PARALLEL_MIN_VALUES;
  if (split) first.to = second.from = nc / 2;
  int helped = worker_start(&helper, split, run_share, &second);
  if (!helped) first.to = nc;
  run_share(&first);
  worker_join(&helper);
  for (uint32_t l = 0; counts && l < nl; l++)
    counts[l] += (uint64_t)first.tally[l] + (helped ? (uint64_t)second.tally[l] : 0);
}

/* swap constant at each call, as in pass(). */
static inline __attribute__((always_inline)) void exclusive_row(const cube_sum_tree *t, const uint8_t *const *rows,
                                                                uint32_t c, double *inc, double *exc, int swap) {
  uint32_t nl = t->n_locations;
  load_row(inc, rows[c], nl, swap);
  memcpy(exc, inc, nl * sizeof *exc);
  for (uint32_t k = t->kids_at[c]; k < t->kids_at[c + 1]; k++) subtract_row(exc, rows[t->kids[k]], nl, swap);
  finish_row(exc, inc, nl, NULL);
}

void cube_sum_rows_of(const cube_sum_tree *t, const uint8_t *const *rows, int big_endian, uint32_t c, double *inc,
                      double *exc) {
  if (big_endian != cube_native_big_endian()) exclusive_row(t, rows, c, inc, exc, 1);
  else exclusive_row(t, rows, c, inc, exc, 0);
}
