/* SPDX-License-Identifier: BSD-3-Clause */
/* trace.db (HPCPROF-tracedb_) into the model: one trace per calling-context
 * trace line; the timestamp range from the header, or from the samples when
 * hpcprof left it zero. */
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/mapped_file.h"
#include "older/hpcprof1/hp1_read.h"
#include "older/hpcprof1/hpcprof1.h"

static int read_line(hpcdb_experiment *exp, const hpcprof1_file *f, const hpcprof1_tline *t, uint64_t n,
                     uint32_t profile, uint64_t *lo, uint64_t *hi) {
  uint64_t *ts = malloc((n ? n : 1) * sizeof *ts);
  uint32_t *ctx = malloc((n ? n : 1) * sizeof *ctx);
  int rc = 0;
  if (!ts || !ctx) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace of %llu samples", (unsigned long long)n);
  for (uint64_t k = 0; rc == 0 && k < n; k++) {
    const uint8_t *e = f->d + t->begin + 12 * k;
    ts[k] = rd_be64(e);
    ctx[k] = rd_be32(e + 8);
    if (ts[k] < *lo) *lo = ts[k];
    if (ts[k] > *hi) *hi = ts[k];
  }
  if (rc == 0) rc = hpcdb_add_trace(exp, profile, n, ts, ctx, NULL);
  free(ts);
  free(ctx);
  return rc;
}

int hpcprof1_parse_traces(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path,
                          uint32_t first_profile) {
  hpcprof1_file f;
  hpcprof1_problem pb;
  if (hpcprof1_open(&f, &hpcprof1_trace_kind, data, len, path, &pb)) return hpcprof1_fail(&f, "header", &pb);
  uint64_t lo = UINT64_MAX, hi = 0, used = 0;
  uint32_t skipped = 0;
  for (uint32_t i = 0; i < f.count; i++) {
    hpcprof1_tline t;
    uint64_t n;
    hpcprof1_tline_read(&f, i, &t);
    if (hpcprof1_tline_check(&f, &t, &n, &pb) || hpcprof1_claim(&f, &used, 12 * n, t.at + 6, &pb))
      return hpcprof1_fail(&f, "Trace Header", &pb);
    if (t.type != 0) { /* a metric trace: the model holds calling-context traces only */
      skipped++;
      continue;
    }
    if (first_profile > exp->n_profiles || t.prof_index >= exp->n_profiles - first_profile)
      return hpcdb_fail_at(HPCDB_ECORRUPT, path, "Trace Header", t.at, "profile-index",
                           "prof_info_idx %u names no profile of profile.db", t.prof_index);
    HPCDB_TRY(read_line(exp, &f, &t, n, first_profile + t.prof_index, &lo, &hi));
  }
  if (skipped) {
    char count[16];
    snprintf(count, sizeof count, "%u", skipped);
    HPCDB_TRY(hpcdb_add_attr(exp, "hpcprof1.skipped-metric-traces", count));
  }
  hpcdb_set_has_traces(exp);
  uint64_t min = hpcprof1_trace_min(&f), max = hpcprof1_trace_max(&f);
  if (min == 0 && max == 0 && lo <= hi) min = lo, max = hi; /* not recorded: the samples' range */
  hpcdb_set_trace_range(exp, min, max);
  return 0;
}

int hpcprof1_read_traces(hpcdb_experiment *exp, const char *trace_db_path, uint32_t first_profile) {
  hpcdb_mapped_file mf;
  HPCDB_TRY(mapped_file_open(&mf, trace_db_path));
  int rc = hpcprof1_parse_traces(exp, mf.data, mf.len, trace_db_path, first_profile);
  return mapped_file_finish(&mf, trace_db_path, rc);
}
