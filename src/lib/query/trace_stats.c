/* SPDX-License-Identifier: BSD-3-Clause */
/* Exact statistics of a window and the calling path at a point in time. */
#include <stdlib.h>

#include "common/error.h"
#include "query/trace_internal.h"

static int by_time(const void *x, const void *y) {
  const hpcdb_trace_share *a = x, *b = y;
  if (a->ns != b->ns) return a->ns > b->ns ? -1 : 1;
  return a->ctx < b->ctx ? -1 : a->ctx > b->ctx;
}

int hpcdb_trace_stats(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, uint64_t t0, uint64_t t1,
                      uint32_t depth, hpcdb_trace_share **out, uint32_t *n, uint64_t *total_ns) {
  *out = NULL;
  *n = 0;
  *total_ns = 0;
  HPCDB_TRY(trace_check_unchanged(t));
  uint32_t rows = filter && filter->rows ? filter->n_rows : t->n_lines;
  HPCDB_TRY(trace_check_rows(t, filter, 0, rows));
  if (t1 < t0)
    return hpcdb_fail(HPCDB_EINVAL, "the window [%llu, %llu) ends before it starts", (unsigned long long)t0,
                      (unsigned long long)t1);
  uint32_t *keys = NULL;
  trace_acc ac = {0};
  trace_pyr_reader reader;
  trace_pyr_reader_init(&reader, t, 0, 1);
  int rc = trace_keys(t, depth, filter ? filter->ctx_keep : NULL, &keys);
  if (rc == 0) rc = trace_acc_init(t, &ac, keys);
  for (uint32_t r = 0; rc == 0 && r < rows; r++)
    if ((rc = trace_check_cancel(filter)) == 0)
      rc = trace_window_sum(&reader, &t->lines[trace_sel_row(filter, r)], t0, t1, &ac);
  const uint64_t *ns = ac.ns;
  uint32_t count = 0, n_slots = rc == 0 ? ac.grey_slot + 1 : 0;
  for (uint32_t s = 0; s < n_slots; s++) count += ns[s] != 0;
  hpcdb_trace_share *sh = rc == 0 ? malloc((count ? count : 1) * sizeof *sh) : NULL;
  if (rc == 0 && !sh) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t s = 0, i = 0; rc == 0 && s < n_slots; s++) {
    if (!ns[s]) continue;
    sh[i++] = (hpcdb_trace_share){s == ac.grey_slot ? HPCDB_TRACE_GREY : ac.key_of_slot[s], ns[s]};
    *total_ns += ns[s];
  }
  if (rc == 0) {
    qsort(sh, count, sizeof *sh, by_time);
    *out = sh;
    *n = count;
  } else {
    free(sh);
  }
  trace_acc_free(&ac);
  trace_pyr_reader_free(&reader);
  free(keys);
  return rc;
}

int hpcdb_trace_path_at(const hpcdb_trace_set *t, uint32_t row, uint64_t ts, uint32_t *ctx, uint32_t *path,
                        uint32_t max_path, uint32_t *n_path) {
  *n_path = 0;
  HPCDB_TRY(trace_check_unchanged(t));
  if (row >= t->n_lines) return hpcdb_fail(HPCDB_EINVAL, "row %u does not exist (%u rows)", row, t->n_lines);
  const trace_line *l = &t->lines[row];
  uint64_t k = trace_locate(t, l, ts);
  if (k == UINT64_MAX)
    return hpcdb_fail(HPCDB_EINVAL, "profile %u's trace has no element at or before %llu ns%s", l->profile,
                      (unsigned long long)ts, l->n ? "" : " (it is empty)");
  uint32_t idx = trace_ctx_index(t, line_ctx(l, k));
  if (idx == HPCDB_NONE)
    return hpcdb_fail(HPCDB_ECORRUPT, "profile %u: element %llu names context %u, which the tree does not have",
                      l->profile, (unsigned long long)k, line_ctx(l, k));
  *ctx = idx;
  uint32_t len = 0;
  for (uint32_t i = idx; i != 0 && i != HPCDB_NONE; i = t->exp->contexts[i].parent) len++;
  *n_path = len;
  uint32_t pos = len;
  for (uint32_t i = idx; i != 0 && i != HPCDB_NONE; i = t->exp->contexts[i].parent)
    if (--pos < max_path) path[pos] = i;
  return 0;
}
