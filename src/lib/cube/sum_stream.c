/* SPDX-License-Identifier: BSD-3-Clause */
/* The summary of a summed floating-point metric stored inclusive, as
 * cube_sum_pass makes it (no cnode an entry point, no per-location totals),
 * read from the file in storage order through one small buffer instead of
 * mapped and walked by cnode.
 *
 * Why: on a virtual machine whose page tables the host shadows, the first
 * touch of each page of a mapping (or of fresh memory) costs far more than
 * the kernel's copy of the same bytes into a buffer that stays hot: a first
 * pass over an 83 MB file mapped with MAP_POPULATE took 0.040 s, reading it
 * with pread in 256 KiB pieces and summing those 0.020 s (BENCHMARKS.md,
 * session 23).
 *
 * Why it can stream: an inclusive metric's rows list each node's children
 * as one run, in document order, after the node itself (order.c). A node's
 * exclusive row is its own row minus its children's in document order, so
 * it is derived while its children's run goes by; only that node's rows are
 * kept aside (its own row read again by its offset when the run begins). A
 * leaf's exclusive row is its inclusive row, so are its sums. Each row's sums
 * are chains over locations in location order, as in cube_sum_pass: the
 * same operations in the same order, the same values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cube/cube.h"

#define CHUNK_BYTES ((size_t)256 << 10)
#define NONE UINT32_MAX

typedef struct streamer {
  const cube_stream_tree *t;
  const cube_stream_rows *s;
  uint32_t nl;
  size_t row_bytes;
  double *chunk, *chunk_sums; /* rows [first, first + n) as native doubles, and their sums */
  uint32_t first, n, cap;
  double *zero, *own, *exc_row; /* the open run's parent: its inclusive row, its exclusive row */
  uint32_t open;                /* the parent whose children's run is being read (NONE: none) */
  cube_stream_sums *out;
} streamer;

static void to_native(double *row, size_t n, int swap) {
  if (!swap) return;
  for (size_t l = 0; l < n; l++) {
    uint64_t u;
    memcpy(&u, &row[l], sizeof u);
    u = __builtin_bswap64(u);
    memcpy(&row[l], &u, sizeof u);
  }
}

/* Sums over locations of rows r[0..4), side by side: four independent chains. */
static void sum4(const double *r0, const double *r1, const double *r2, const double *r3, uint32_t nl, double *y) {
  double y0 = 0, y1 = 0, y2 = 0, y3 = 0;
  for (uint32_t l = 0; l < nl; l++) y0 += r0[l], y1 += r1[l], y2 += r2[l], y3 += r3[l];
  y[0] = y0, y[1] = y1, y[2] = y2, y[3] = y3;
}

/* Rows k.. into the buffer (as many as fit, at most the stored rows left), with their sums. */
static int load_chunk(streamer *st, uint32_t k) {
  uint32_t n = st->s->n_rows - k < st->cap ? st->s->n_rows - k : st->cap;
  if (!cube_member_read(st->s->x, st->s->rows_at + (uint64_t)k * st->row_bytes, st->chunk, n * st->row_bytes)) return 0;
  to_native(st->chunk, (size_t)n * st->nl, st->s->swap);
  for (uint32_t j = 0; j < n; j += 4) {
    const double *r[4];
    double y[4];
    for (uint32_t i = 0; i < 4; i++) r[i] = st->chunk + (size_t)(j + i < n ? j + i : j) * st->nl;
    sum4(r[0], r[1], r[2], r[3], st->nl, y);
    for (uint32_t i = 0; i < 4 && j + i < n; i++) st->chunk_sums[j + i] = y[i];
  }
  st->first = k, st->n = n;
  return 1;
}

static double row_sum(const double *row, uint32_t nl) {
  double y = 0;
  for (uint32_t l = 0; l < nl; l++) y += row[l];
  return y;
}

/* counts[l] grows by `weight` for each non-zero value of the row. */
static void tally(uint64_t *restrict counts, const double *restrict row, uint32_t nl, uint64_t weight) {
  for (uint32_t l = 0; l < nl; l++) counts[l] += row[l] != 0 ? weight : 0;
}

/* The stored row of the node at inclusive position pos among rows [0, below): its index, or NONE. */
static uint32_t stored_row(const cube_stream_rows *s, uint32_t pos, uint32_t below) {
  uint32_t lo = 0, hi = below;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (s->row_pos[mid] < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo < below && s->row_pos[lo] == pos ? lo : NONE;
}

static int root_slot(const cube_stream_tree *t, uint32_t c) {
  for (uint32_t i = 0; i < t->n_roots; i++)
    if (t->roots[i] == c) return (int)i;
  return -1;
}

/* The run of parent p's children begins: its inclusive row (read again
 * unless still in the buffer), and its exclusive row starts as a copy. */
static int open_run(streamer *st, uint32_t p, uint32_t rows_seen) {
  uint32_t k = stored_row(st->s, st->t->pos[p], rows_seen);
  if (k == NONE) {
    memset(st->own, 0, st->row_bytes);
  } else if (k >= st->first && k < st->first + st->n) {
    memcpy(st->own, st->chunk + (size_t)(k - st->first) * st->nl, st->row_bytes);
  } else {
    if (!cube_member_read(st->s->x, st->s->rows_at + (uint64_t)k * st->row_bytes, st->own, st->row_bytes)) return 0;
    to_native(st->own, st->nl, st->s->swap);
  }
  memcpy(st->exc_row, st->own, st->row_bytes);
  st->open = p;
  return 1;
}

/* The run is over: the parent's exclusive row is final (a residue within
 * 1e-12 of the inclusive value made 0, as the full read does). */
static void close_run(streamer *st) {
  uint32_t p = st->open, nl = st->nl;
  double *e = st->exc_row;
  const double *v = st->own;
  for (uint32_t l = 0; l < nl; l++) e[l] = fabs(e[l]) <= 1e-12 * fabs(v[l]) ? 0 : e[l];
  tally(st->out->counts, e, nl, 1);
  st->out->exc[p] = row_sum(e, nl);
  int r = root_slot(st->t, p);
  if (r >= 0) memcpy(st->out->root_exc + (size_t)r * nl, e, st->row_bytes);
  st->open = NONE;
}

static int stream(streamer *st) {
  const cube_stream_tree *t = st->t;
  const cube_stream_rows *s = st->s;
  uint32_t nl = st->nl, k = 0;
  for (uint32_t p = 0; p < t->n_cnodes; p++) {
    uint32_t c = t->order[p], parent = t->parent[c];
    const double *v = st->zero;
    double sum = 0;
    int stored = k < s->n_rows && s->row_pos[k] == p;
    if (stored) {
      if (k >= st->first + st->n && !load_chunk(st, k)) return 0;
      v = st->chunk + (size_t)(k - st->first) * nl;
      sum = st->chunk_sums[k - st->first];
    }
    if (parent != st->open) {
      if (st->open != NONE) close_run(st);
      if (parent != NONE && !open_run(st, parent, k)) return 0;
    }
    if (stored) k++;
    int leaf = t->kids_at[c] == t->kids_at[c + 1];
    st->out->inc[c] = sum;
    if (stored) tally(st->out->counts, v, nl, leaf ? 2 : 1);
    if (parent != NONE)
      for (uint32_t l = 0; l < nl; l++) st->exc_row[l] -= v[l];
    int r = parent == NONE ? root_slot(t, c) : -1;
    if (r >= 0) memcpy(st->out->root_inc + (size_t)r * nl, v, st->row_bytes);
    if (leaf) { /* no children: the exclusive row is the inclusive one, a -0 made +0, with the same sum */
      st->out->exc[c] = sum;
      for (uint32_t l = 0; r >= 0 && l < nl; l++) st->out->root_exc[(size_t)r * nl + l] = v[l] != 0 ? v[l] : 0;
    }
  }
  if (st->open != NONE) close_run(st);
  return 1;
}

int cube_sum_stream(const cube_stream_tree *t, const cube_stream_rows *s, cube_stream_sums *out) {
  for (uint32_t k = 1; k < s->n_rows; k++)
    if (s->row_pos[k] <= s->row_pos[k - 1]) return 0; /* not in storage order: cube_sum_pass reads it */
  if (s->n_rows && s->row_pos[s->n_rows - 1] >= t->n_cnodes) return 0;
  streamer st = {t, s, t->n_locations, (size_t)t->n_locations * 8, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, NONE, out};
  st.cap = CHUNK_BYTES / st.row_bytes ? (uint32_t)(CHUNK_BYTES / st.row_bytes) : 1;
  st.chunk = malloc((size_t)st.cap * st.row_bytes);
  st.chunk_sums = malloc((size_t)st.cap * sizeof *st.chunk_sums);
  st.zero = calloc(t->n_locations, sizeof *st.zero);
  st.own = malloc(st.row_bytes);
  st.exc_row = malloc(st.row_bytes);
  int ok = st.chunk && st.chunk_sums && st.zero && st.own && st.exc_row;
  if (ok) {
    memset(out->counts, 0, st.row_bytes);
    ok = stream(&st);
  }
  free(st.chunk), free(st.chunk_sums), free(st.zero), free(st.own), free(st.exc_row);
  return ok;
}
