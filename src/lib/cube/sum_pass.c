/* The summary of a summed floating-point metric stored inclusive, and how
 * many of its values are non-zero at each location, in one pass over its
 * rows where they lie: each cnode's exclusive row is derived from its own
 * inclusive row and its children's as the full read derives it (read.c: the
 * children subtracted in document order, a residue within 1e-12 of the
 * inclusive value made 0, entry points 0), then both rows are summed over
 * locations in location order. The same operations in the same order, so the
 * same values; memory is one row. */
#include <math.h>

#include "cube/cube.h"

/* An f64 in the host's byte order (swap 0) or the other one: a plain load, which vectorizes. */
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

/* swap is a constant at each call, so that each byte order gets its own loops. */
static inline __attribute__((always_inline)) void pass(const cube_sum_tree *t, const uint8_t *const *rows, int swap,
                                                       double *restrict scratch, double *exc, double *inc,
                                                       uint64_t *restrict counts) {
  uint32_t nl = t->n_locations;
  for (uint32_t c = 0; c < t->n_cnodes; c++) {
    const uint8_t *in = rows[c];
    double x = 0, y = 0;
    if (t->is_entry[c]) { /* entry points have inclusive values only */
      for (uint32_t l = 0; l < nl; l++) {
        double v = ld(in + 8 * (size_t)l, swap);
        y += v;
        if (counts) counts[l] += v != 0;
      }
    } else { /* the exclusive row first, then both sums side by side (two independent chains of additions) */
      for (uint32_t l = 0; l < nl; l++) scratch[l] = ld(in + 8 * (size_t)l, swap);
      for (uint32_t k = t->kids_at[c]; k < t->kids_at[c + 1]; k++) {
        const uint8_t *kid = rows[t->kids[k]];
        if (k + 1 < t->kids_at[c + 1]) prefetch_row(rows[t->kids[k + 1]], nl);
        for (uint32_t l = 0; l < nl; l++) scratch[l] -= ld(kid + 8 * (size_t)l, swap);
      }
      for (uint32_t l = 0; l < nl; l++) {
        double v = ld(in + 8 * (size_t)l, swap), e = fabs(scratch[l]) <= 1e-12 * fabs(v) ? 0 : scratch[l];
        y += v;
        x += e;
        if (counts) counts[l] += (v != 0) + (e != 0);
      }
    }
    exc[c] = x;
    inc[c] = y;
  }
}

void cube_sum_pass(const cube_sum_tree *t, const uint8_t *const *rows, int big_endian, double *scratch, double *exc,
                   double *inc, uint64_t *counts) {
  if (big_endian != cube_native_big_endian()) pass(t, rows, 1, scratch, exc, inc, counts);
  else pass(t, rows, 0, scratch, exc, inc, counts);
}
