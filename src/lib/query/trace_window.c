/* SPDX-License-Identifier: BSD-3-Clause */
/* The time each context covers in a window on one line: elements read one
 * by one at the window's ends, whole buckets of the pyramid inside it. */
#include "common/error.h"
#include "query/trace_internal.h"

int trace_window_sum(trace_pyr_reader *r, const trace_line *l, uint64_t t0, uint64_t t1, trace_acc *ac) {
  const hpcdb_trace_set *t = r->t;
  uint64_t k = trace_locate(t, l, t0);
  if (k == UINT64_MAX) {
    if (l->n == 0 || l->lo >= t1) return 0;
    k = 0; /* the line starts after t0 */
  }
  int done = 0, rc = 0;
  uint64_t first = k;
  k = trace_sum_span(r, l, k, t0, t1, ac, &done, &rc);
  trace_release_near(t, l, first, k + 1); /* what the sum read, and the folios around */
  return rc;
}
