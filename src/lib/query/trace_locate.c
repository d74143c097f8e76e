/* SPDX-License-Identifier: BSD-3-Clause */
/* Finding the element in effect at a time: the directory names the bucket's
 * first element, a binary search inside the bucket does the rest. */
#include "common/error.h"
#include "query/trace_internal.h"

uint64_t trace_locate(const hpcdb_trace_set *t, const trace_line *l, uint64_t ts) {
  if (l->n == 0 || ts < l->lo) return UINT64_MAX;
  if (ts >= l->hi) return l->n - 1;
  uint64_t nb = (uint64_t)1 << l->log_buckets;
  unsigned __int128 span = (unsigned __int128)(l->hi - l->lo) + 1;
  uint64_t b = (uint64_t)(((unsigned __int128)(ts - l->lo) * nb) / span);
  const uint32_t *dir = t->dir + l->dir_off;
  /* Elements of earlier buckets are before ts, of later ones after it: the
   * answer is in [dir[b] - 1, dir[b + 1] - 1]. */
  uint64_t lo = dir[b], hi = dir[b + 1]; /* first element > ts is in [lo, hi] */
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (line_ts(l, mid) <= ts) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1; /* lo >= 1: element 0 is at lo <= ts */
}

void trace_release(const hpcdb_trace_set *t, const trace_line *l, uint64_t k0, uint64_t k1) {
  if (!l->raw || k1 <= k0 || k0 == UINT64_MAX) return;
  if (k1 > l->n) k1 = l->n;
  mapped_file_release(&t->map, l->raw_off + 12 * k0, 12 * (k1 - k0));
}

int trace_check_rows(const hpcdb_trace_set *t, const hpcdb_trace_filter *f, uint32_t first, uint32_t count) {
  uint32_t n = f && f->rows ? f->n_rows : t->n_lines;
  if (first > n || count > n - first)
    return hpcdb_fail(HPCDB_EINVAL, "rows [%u, %u) are not inside the %u selected rows", first,
                      (uint32_t)((uint64_t)first + count), n);
  if (f && f->rows)
    for (uint32_t i = first; i < first + count; i++)
      if (f->rows[i] >= t->n_lines)
        return hpcdb_fail(HPCDB_EINVAL, "row %u does not exist (%u rows)", f->rows[i], t->n_lines);
  return 0;
}

int trace_check_cancel(const hpcdb_trace_filter *f) {
  if (f && f->cancelled && f->cancelled(f->cancel_user)) return hpcdb_fail(HPCDB_ECANCELED, "the query was cancelled");
  return 0;
}

/* The largest page-cache folio a fault may map whole (a huge page), in
 * elements: what reading one element can bring into the resident set. */
#define FOLIO_ELEMENTS ((2u << 20) / 12 + 1)

void trace_release_near(const hpcdb_trace_set *t, const trace_line *l, uint64_t k0, uint64_t k1) {
  if (k0 != UINT64_MAX && k1 != UINT64_MAX)
    trace_release(t, l, k0 > FOLIO_ELEMENTS ? k0 - FOLIO_ELEMENTS : 0, k1 + FOLIO_ELEMENTS);
}
