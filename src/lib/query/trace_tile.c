/* Tiles: per cell, the time each context (at the asked depth) covers in the
 * cell, summed over the cell's rows, from the elements themselves. Each row
 * keeps a cursor on the element in effect at the current column's start, so
 * a tile reads each element of its window once (plus once per column an
 * element spans) and locates each row's start through the index. */
#include <stdlib.h>

#include "common/error.h"
#include "query/trace_internal.h"

typedef struct acc {
  uint64_t *ns;      /* per key slot: model context index, or n_contexts for the grey ones */
  uint32_t *touched; /* slots with time in the current cell */
  uint32_t n_touched;
  uint32_t grey_slot;
} acc;

static int add(acc *a, const uint32_t *keys, const hpcdb_trace_set *t, uint32_t id, uint64_t ns) {
  uint32_t idx = trace_ctx_index(t, id);
  if (idx == HPCDB_NONE)
    return hpcdb_fail_at(HPCDB_ECORRUPT, t->trace_path ? t->trace_path : "trace", "trace line", 0, "context-id",
                         "an element names context %u, which the tree does not have", id);
  uint32_t k = keys[idx], slot = k == HPCDB_TRACE_GREY ? a->grey_slot : k;
  if (a->ns[slot] == 0) a->touched[a->n_touched++] = slot;
  a->ns[slot] += ns;
  return 0;
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

/* Adds the time of line l inside [a, b) from its cursor *cur (UINT64_MAX:
 * before its first element), leaving the cursor on the element in effect at
 * b. The last element lasts no time. */
static int walk(const hpcdb_trace_set *t, const trace_line *l, uint64_t *cur, uint64_t a, uint64_t b,
                acc *ac, const uint32_t *keys) {
  uint64_t k = *cur;
  if (k == UINT64_MAX) {
    if (l->n == 0 || l->lo >= b) return 0;
    k = 0;
  }
  while (k + 1 < l->n) {
    uint64_t s = line_ts(l, k), e = line_ts(l, k + 1);
    if (s < a) s = a;
    uint64_t end = e < b ? e : b;
    if (end > s) HPCDB_TRY(add(ac, keys, t, line_ctx(l, k), end - s));
    if (e >= b) break;
    k++;
  }
  *cur = k;
  return 0;
}

static uint64_t col_start(const hpcdb_tile_request *r, uint64_t c) {
  return r->t0 + (uint64_t)(((unsigned __int128)(r->t1 - r->t0) * c) / r->width);
}

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
  uint32_t *keys = NULL;
  acc a = {calloc(n_ctx + 1, sizeof *a.ns), calloc(n_ctx + 1, sizeof *a.touched), 0, n_ctx};
  uint64_t *cur = calloc(req->count ? req->count : 1, sizeof *cur);
  uint64_t *first_el = calloc(req->count ? req->count : 1, sizeof *first_el);
  int rc = a.ns && a.touched && cur && first_el ? trace_keys(t, req->depth, filter ? filter->ctx_keep : NULL, &keys)
                                    : hpcdb_fail(HPCDB_ENOMEM, "out of memory for a tile");
  for (uint32_t r = 0; rc == 0 && r < h; r++) {
    uint32_t m0 = (uint32_t)((uint64_t)req->count * r / h), m1 = (uint32_t)((uint64_t)req->count * (r + 1) / h);
    for (uint32_t m = m0; m < m1; m++)
      cur[m] = trace_locate(t, &t->lines[trace_sel_row(filter, req->first + m)], req->t0);
    for (uint32_t m = m0; m < m1; m++) first_el[m] = cur[m] == UINT64_MAX ? 0 : cur[m];
    for (uint32_t c = 0; rc == 0 && c < req->width; c++) {
      uint64_t a0 = col_start(req, c), a1 = col_start(req, c + 1);
      for (uint32_t m = m0; rc == 0 && m < m1; m++) {
        const trace_line *l = &t->lines[trace_sel_row(filter, req->first + m)];
        rc = walk(t, l, &cur[m], a0, a1, &a, keys);
        if (cur[m] != UINT64_MAX && cur[m] - first_el[m] >= 0x10000) { /* let go behind the cursor */
          trace_release(t, l, first_el[m], cur[m]);
          first_el[m] = cur[m];
        }
      }
      finish(&a, &cells[(uint64_t)r * req->width + c]);
    }
    for (uint32_t m = m0; m < m1; m++)
      trace_release(t, &t->lines[trace_sel_row(filter, req->first + m)], first_el[m], cur[m] == UINT64_MAX ? 0 : cur[m] + 2);
  }
  free(keys);
  free(a.ns);
  free(a.touched);
  free(cur);
  free(first_el);
  if (rc == 0) *out_height = h;
  return rc;
}
