/* SPDX-License-Identifier: BSD-3-Clause */
/* The time each context covers in a window on one line: elements read one
 * by one at the window's ends, whole blocks inside it taken from their
 * histograms. */
#include "common/error.h"
#include "query/trace_internal.h"

#define DONE UINT64_MAX

static int add(const hpcdb_trace_set *t, uint32_t id, uint64_t ns_add, const uint32_t *keys, uint64_t *ns,
               uint32_t grey_slot) {
  uint32_t idx = trace_ctx_index(t, id);
  if (idx == HPCDB_NONE)
    return hpcdb_fail_at(HPCDB_ECORRUPT, t->trace_path ? t->trace_path : "trace", "trace line", 0, "context-id",
                         "an element names context %u, which the tree does not have", id);
  ns[keys[idx] == HPCDB_TRACE_GREY ? grey_slot : keys[idx]] += ns_add;
  return 0;
}

/* Elements [k, stop) clipped to [t0, t1); the next element, or DONE when
 * the window or the line has ended. */
static uint64_t walk(const hpcdb_trace_set *t, const trace_line *l, uint64_t k, uint64_t stop, uint64_t t0,
                     uint64_t t1, const uint32_t *keys, uint64_t *ns, uint32_t grey_slot, int *rc) {
  for (; k < stop && k + 1 < l->n; k++) {
    uint64_t s = line_ts(l, k), e = line_ts(l, k + 1);
    if (s >= t1) return DONE;
    if (s < t0) s = t0;
    if (e > t1) e = t1;
    if (e > s && (*rc = add(t, line_ctx(l, k), e - s, keys, ns, grey_slot)) < 0) return DONE;
  }
  return k + 1 >= l->n ? DONE : k;
}

int trace_window_sum(const hpcdb_trace_set *t, const trace_line *l, uint64_t t0, uint64_t t1, const uint32_t *keys,
                     uint64_t *ns, uint32_t grey_slot) {
  const uint64_t B = TRACE_BLOCK_BUCKETS, nbl = line_blocks(l);
  const uint32_t *dir = t->dir + l->dir_off;
  const uint64_t *blk = t->blk ? t->blk + l->blk_off : NULL;
  uint64_t k = trace_locate(t, l, t0), j = 0, first;
  int rc = 0;
  if (k == UINT64_MAX) {
    k = 0; /* the line starts after t0: every block may be whole */
  } else { /* the first block starting after the element in effect at t0 */
    uint64_t lo = 0, hi = nbl;
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2;
      if (dir[mid * B] > k) hi = mid;
      else lo = mid + 1;
    }
    j = lo;
  }
  first = k;
  for (;;) {
    k = walk(t, l, k, j < nbl ? dir[j * B] : l->n, t0, t1, keys, ns, grey_slot, &rc);
    if (k == DONE || j >= nbl) break;
    uint64_t s = dir[j * B], e = dir[(j + 1) * B], end = line_ts(l, e < l->n ? e : l->n - 1);
    if (!(blk[j] & TRACE_BLOCK_WALK) && end <= t1 && (s == e || line_ts(l, s) >= t0)) {
      for (uint64_t h = blk[j]; h < (blk[j + 1] & ~TRACE_BLOCK_WALK); h++) {
        uint32_t key = keys[t->h_ctx[h]];
        ns[key == HPCDB_TRACE_GREY ? grey_slot : key] += t->h_ns[h];
      }
      k = e;
    }
    j++; /* a block not taken whole is read element by element by the next walk */
  }
  trace_release(t, l, first, k == DONE ? l->n : k + 2);
  return rc;
}
