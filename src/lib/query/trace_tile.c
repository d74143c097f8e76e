/* SPDX-License-Identifier: BSD-3-Clause */
/* Tiles: per cell, the time each context (at the asked depth) covers in the
 * cell, summed over the cell's rows, from the elements themselves. Each row
 * keeps a cursor on the element in effect at the current column's start, so
 * a tile reads each element of its window once (plus once per column an
 * element spans) and locates each row's start through the index. The cell
 * rows are split in two halves, one on a helper thread. */
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/worker.h"
#include "query/trace_internal.h"

typedef struct acc {
  uint64_t *ns;      /* per key slot: model context index, or n_contexts for the grey ones */
  uint32_t *touched; /* slots with time in the current cell (one spare entry: see add) */
  uint32_t n_touched;
  uint32_t grey_slot;
  const uint32_t *slot_of_id; /* per context id: its slot for this query (HPCDB_NONE: not in the tree) */
  const uint32_t *keys;       /* per model context: its key at the depth after the filter */
} acc;

/* Adds ns > 0 to a slot. Branch-free: the slot is always written after the
 * touched ones and counted only when it had no time yet. */
static inline void add_slot(acc *a, uint32_t slot, uint64_t ns) {
  a->touched[a->n_touched] = slot;
  a->n_touched += a->ns[slot] == 0;
  a->ns[slot] += ns;
}

/* The cell from the accumulated times; the accumulator is cleared. */
static void finish(acc *a, hpcdb_tile_cell *cell) {
  uint32_t best = HPCDB_NONE;
  uint64_t total = 0;
  for (uint32_t i = 0; i < a->n_touched; i++) {
    uint32_t s = a->touched[i];
    total += a->ns[s];
    if (s == 0) continue; /* idle wins only a cell where nothing ran */
    if (best == HPCDB_NONE || a->ns[s] > a->ns[best] || (a->ns[s] == a->ns[best] && s < best)) best = s;
  }
  if (best == HPCDB_NONE && a->n_touched) best = 0;
  cell->n_ctx = a->n_touched;
  cell->total_ns = total;
  cell->ctx_ns = best == HPCDB_NONE ? 0 : a->ns[best];
  cell->ctx = best == HPCDB_NONE ? HPCDB_TRACE_EMPTY : best == a->grey_slot ? HPCDB_TRACE_GREY : best;
  for (uint32_t i = 0; i < a->n_touched; i++) a->ns[a->touched[i]] = 0;
  a->n_touched = 0;
}

static int unknown_id(const hpcdb_trace_set *t, uint32_t id) {
  return hpcdb_fail_at(HPCDB_ECORRUPT, t->trace_path ? t->trace_path : "trace", "trace line", 0, "context-id",
                       "an element names context %u, which the tree does not have", id);
}

/* Adds elements k, k+1, ... of l clipped to [a, b), up to element `stop`
 * (not included) or the element in effect at b; *done = 1 in the latter case
 * (or when the line ends). Returns the element it stopped at. The hot loop
 * of a tile: the accumulator lives in locals, written back once. */
static uint64_t walk_elements(const hpcdb_trace_set *t, const trace_line *l, uint64_t k, uint64_t stop, uint64_t a,
                              uint64_t b, acc *ac, int *done, int *rc) {
  if (k + 1 >= l->n) {
    *done = 1;
    return k;
  }
  uint64_t *ns = ac->ns, s = line_ts(l, k);
  uint32_t *touched = ac->touched, n_touched = ac->n_touched;
  const uint32_t *slot_of_id = ac->slot_of_id, n_ids = t->n_ids;
  for (; k < stop; k++) {
    uint64_t e = line_ts(l, k + 1), from = s < a ? a : s, end = e < b ? e : b;
    if (end > from) {
      uint32_t id = line_ctx(l, k), slot = id < n_ids ? slot_of_id[id] : HPCDB_NONE;
      if (slot == HPCDB_NONE) {
        *rc = unknown_id(t, id);
        *done = 1;
        break;
      }
      touched[n_touched] = slot; /* branch-free, as add_slot */
      n_touched += ns[slot] == 0;
      ns[slot] += end - from;
    }
    if (e >= b || k + 2 >= l->n) {
      *done = 1;
      if (e < b) k++;
      break;
    }
    s = e;
  }
  ac->n_touched = n_touched;
  return k;
}

/* Adds block j's histogram (its elements' own times). */
static void add_block(const hpcdb_trace_set *t, const trace_line *l, uint64_t j, acc *ac) {
  const uint64_t *blk = t->blk + l->blk_off;
  for (uint64_t h = blk[j]; h < (blk[j + 1] & ~TRACE_BLOCK_WALK); h++) {
    uint32_t key = ac->keys[t->h_ctx[h]];
    if (t->h_ns[h]) add_slot(ac, key == HPCDB_TRACE_GREY ? ac->grey_slot : key, t->h_ns[h]);
  }
}

/* Adds the time of line l inside [a, b) from its cursor *cur (UINT64_MAX:
 * before its first element), leaving the cursor on the element in effect at
 * b. The last element lasts no time. A column at least a block wide takes
 * the blocks wholly inside it from their histograms and reads elements only
 * at its two ends (as the window statistics do): exact for any boundary. */
static int walk(const hpcdb_trace_set *t, const trace_line *l, uint64_t *cur, uint64_t a, uint64_t b, acc *ac) {
  uint64_t k = *cur;
  int done = 0, rc = 0;
  if (k == UINT64_MAX) {
    if (l->n == 0 || l->lo >= b) return 0;
    k = 0;
  }
  const uint64_t nbl = line_blocks(l), B = TRACE_BLOCK_BUCKETS;
  if (nbl && (unsigned __int128)(b - a) << l->log_buckets >= ((unsigned __int128)(l->hi - l->lo) + 1) * B) {
    const uint32_t *dir = t->dir + l->dir_off;
    const uint64_t *blk = t->blk + l->blk_off;
    uint64_t lo = 0, hi = nbl; /* the first block starting at or after k */
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2;
      if (dir[mid * B] >= k) hi = mid;
      else lo = mid + 1;
    }
    for (uint64_t j = lo; j < nbl && !done; j++) {
      uint64_t s = dir[j * B], e = dir[(j + 1) * B];
      k = walk_elements(t, l, k, s, a, b, ac, &done, &rc);
      if (done) break;
      uint64_t last = e < l->n ? e : l->n - 1;
      if (line_ts(l, last) > b) break; /* this block and every later one reach past b */
      if ((blk[j] & TRACE_BLOCK_WALK) || (s < e && line_ts(l, s) < a)) continue; /* read by elements */
      add_block(t, l, j, ac);
      k = last;
    }
  }
  if (!done) k = walk_elements(t, l, k, UINT64_MAX, a, b, ac, &done, &rc);
  *cur = k;
  return rc;
}

/* One thread's share of a tile: cell rows [r0, r1), with its own
 * accumulator and cursors; the rest is shared and read only. */
typedef struct tile_job {
  const hpcdb_trace_set *t;
  const hpcdb_trace_filter *filter;
  const hpcdb_tile_request *req;
  const uint64_t *col; /* column c covers [col[c], col[c + 1]) */
  const uint32_t *slot_of_id, *keys;
  hpcdb_tile_cell *cells;
  uint32_t h, r0, r1;
  int rc;
  char error[1024];
} tile_job;

static int tile_rows(tile_job *j) {
  const hpcdb_trace_set *t = j->t;
  const hpcdb_tile_request *req = j->req;
  uint32_t n_ctx = t->exp->n_contexts, most = 0; /* the most rows in one cell row */
  for (uint32_t r = j->r0; r < j->r1; r++) {
    uint32_t m = (uint32_t)((uint64_t)req->count * (r + 1) / j->h - (uint64_t)req->count * r / j->h);
    if (m > most) most = m;
  }
  acc a = {calloc(n_ctx + 1, sizeof *a.ns), calloc(n_ctx + 2, sizeof *a.touched), 0, n_ctx, j->slot_of_id, j->keys};
  uint64_t *cur = calloc(most ? most : 1, sizeof *cur), *first_el = calloc(most ? most : 1, sizeof *first_el);
  const trace_line **lines = calloc(most ? most : 1, sizeof *lines);
  int rc = a.ns && a.touched && cur && first_el && lines ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory for a tile");
  for (uint32_t r = j->r0; rc == 0 && r < j->r1; r++) {
    if ((rc = trace_check_cancel(j->filter)) < 0) break;
    uint32_t m0 = (uint32_t)((uint64_t)req->count * r / j->h), m1 = (uint32_t)((uint64_t)req->count * (r + 1) / j->h);
    for (uint32_t m = m0; m < m1; m++) {
      lines[m - m0] = &t->lines[trace_sel_row(j->filter, req->first + m)];
      cur[m - m0] = trace_locate(t, lines[m - m0], req->t0);
      first_el[m - m0] = cur[m - m0] == UINT64_MAX ? 0 : cur[m - m0];
    }
    for (uint32_t c = 0; rc == 0 && c < req->width; c++) {
      for (uint32_t i = 0; rc == 0 && i < m1 - m0; i++) {
        rc = walk(t, lines[i], &cur[i], j->col[c], j->col[c + 1], &a);
        if (cur[i] != UINT64_MAX && cur[i] - first_el[i] >= 0x10000) { /* let go behind the cursor */
          trace_release(t, lines[i], first_el[i], cur[i]);
          first_el[i] = cur[i];
        }
      }
      finish(&a, &j->cells[(uint64_t)r * req->width + c]);
    }
    for (uint32_t i = 0; i < m1 - m0; i++)
      trace_release(t, lines[i], first_el[i], cur[i] == UINT64_MAX ? 0 : cur[i] + 2);
  }
  free(a.ns);
  free(a.touched);
  free(cur);
  free(first_el);
  free(lines);
  return rc;
}

static void *run_tile_rows(void *arg) {
  tile_job *j = arg;
  if ((j->rc = tile_rows(j)) < 0) snprintf(j->error, sizeof j->error, "%s", hpcdb_last_error());
  return NULL;
}

/* At or above this many selected rows, a tile's cell rows are split
 * between the caller and one helper thread (the halves write disjoint
 * cells). */
#define TILE_PARALLEL_ROWS 2

int hpcdb_trace_tile(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const hpcdb_tile_request *req,
                     hpcdb_tile_cell *cells, uint32_t *out_height) {
  *out_height = 0;
  HPCDB_TRY(trace_check_unchanged(t));
  HPCDB_TRY(trace_check_rows(t, filter, req->first, req->count));
  if (req->width == 0 || req->height == 0 || req->t1 <= req->t0 || req->t1 - req->t0 < req->width)
    return hpcdb_fail(HPCDB_EINVAL, "a tile needs a width and height of at least 1 and at least 1 ns per column "
                                    "(asked: %u x %u over [%llu, %llu))",
                      req->width, req->height, (unsigned long long)req->t0, (unsigned long long)req->t1);
  uint32_t h = req->count < req->height ? req->count : req->height, n_ctx = t->exp->n_contexts;
  uint32_t *keys = NULL, *slot_of_id = malloc((t->n_ids ? t->n_ids : 1) * sizeof *slot_of_id);
  uint64_t *col = malloc(((uint64_t)req->width + 1) * sizeof *col);
  int rc = col && slot_of_id ? trace_keys(t, req->depth, filter ? filter->ctx_keep : NULL, &keys)
                             : hpcdb_fail(HPCDB_ENOMEM, "out of memory for a tile");
  for (uint32_t id = 0; rc == 0 && id < t->n_ids; id++) {
    uint32_t idx = t->idx_of_id[id];
    slot_of_id[id] = idx == HPCDB_NONE ? HPCDB_NONE : keys[idx] == HPCDB_TRACE_GREY ? n_ctx : keys[idx];
  }
  for (uint64_t c = 0; rc == 0 && c <= req->width; c++)
    col[c] = req->t0 + (uint64_t)(((unsigned __int128)(req->t1 - req->t0) * c) / req->width);
  if (rc == 0) {
    tile_job job[2];
    for (int i = 0; i < 2; i++) job[i] = (tile_job){t, filter, req, col, slot_of_id, keys, cells, h, 0, 0, 0, ""};
    uint32_t half = h >= TILE_PARALLEL_ROWS ? h / 2 : h;
    job[0].r1 = job[1].r0 = half;
    job[1].r1 = h;
    worker_thread helper;
    int helped = half < h && worker_start(&helper, 1, run_tile_rows, &job[1]);
    run_tile_rows(&job[0]);
    if (helped) worker_join(&helper);
    else if (half < h && job[0].rc == 0) run_tile_rows(&job[1]);
    rc = job[0].rc < 0 ? hpcdb_fail(job[0].rc, "%s", job[0].error)
         : job[1].rc < 0 ? hpcdb_fail(job[1].rc, "%s", job[1].error) : 0;
  }
  free(keys);
  free(slot_of_id);
  free(col);
  if (rc == 0) *out_height = h;
  return rc;
}
