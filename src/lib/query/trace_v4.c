/* SPDX-License-Identifier: BSD-3-Clause */
/* trace.db read in place: the v4.0 reader checks the Context Trace Headers
 * (hpctk4_trace_lines) and each line's elements stay in the mapping. The
 * elements themselves are checked by the index pass (trace_index.c). */
#include <stdlib.h>

#include "common/error.h"
#include "hpctk4/hpctk4_read.h"
#include "query/trace_internal.h"

/* One checked line, kept where it is in the mapping. */
static int keep_line(void *user, uint32_t index, uint32_t n_lines, uint32_t profile, uint64_t start, uint64_t end) {
  hpcdb_trace_set *t = user;
  if (index == 0) {
    t->lines = calloc(n_lines, sizeof *t->lines);
    if (!t->lines) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u trace lines", n_lines);
    t->n_lines = n_lines;
  }
  trace_line *l = &t->lines[index];
  l->profile = profile;
  l->n = (end - start) / 12;
  l->raw_off = start;
  l->raw = t->map.data + start;
  return 0;
}

int trace_v4_lines(hpcdb_trace_set *t, const char *path) {
  /* the recorded time range is not taken: the index takes it from the elements */
  HPCDB_TRY(hpctk4_trace_lines(t->map.data, t->map.len, path, t->exp->n_profiles, NULL, NULL, keep_line, t));
  if (!t->lines && !(t->lines = calloc(1, sizeof *t->lines))) /* no line: an empty set, not NULL */
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  return 0;
}
