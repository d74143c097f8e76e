/* SPDX-License-Identifier: BSD-3-Clause */
/* The column the views open on when none is named: the time an analyst
 * expects. Over the source's values (a lazily opened database holds none in
 * the model): of the summed time metrics with a non-zero total, the one with
 * the largest total (REALTIME over CPUTIME, Cube's time over its parts),
 * CPU time before GPU operations (a GPU run's GPUOP is not the run's time);
 * else the first metric with a non-zero total; else the first. */
#include <string.h>

#include "common/error.h"
#include "query/query_internal.h"

/* HPCToolkit's GPU operation times (docs/analysis.md): GPUOP, and each
 * operation's time with its kinds (GKER, GXCOPY:H2D ...). */
static int gpu_operation(const char *name) {
  static const char *const ops[] = {"GPUOP", "GKER", "GXCOPY", "GICOPY", "GSYNC", "GMEM", "GMSET"};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    size_t n = strlen(ops[k]);
    if (!strncmp(name, ops[k], n) && (name[n] == ' ' || name[n] == ':' || name[n] == '\0')) return 1;
  }
  return 0;
}

int hpcdb_query_default_column_why(hpcdb_query *q, hpcdb_qcolumn *out, const char **why) {
  const hpcdb_experiment *e = q->exp;
  hpcdb_qcolumn best[2] = {0, 0}, first = 0; /* the largest time: [0] CPU, [1] GPU operations */
  double top[2] = {0, 0};
  int have[2] = {0, 0}, have_first = 0;
  for (uint32_t m = 0; m < e->n_metrics; m++) {
    hpcdb_qcolumn c;
    double total;
    const hpcdb_metric *mt = &e->metrics[m];
    if (!mt->name || mt->execution_combine != HPCDB_COMBINE_SUM || hpcdb_query_column(q, mt->name, &c) < 0) continue;
    HPCDB_TRY(hpcdb_query_total(q, c, &total));
    if (total == 0) continue;
    if (!have_first) first = c, have_first = 1;
    if (q->cols[c].seconds == 0) continue;
    int gpu = gpu_operation(mt->name);
    double t = total * q->cols[c].seconds; /* in seconds: units compare */
    if (!have[gpu] || t > top[gpu]) best[gpu] = c, top[gpu] = t, have[gpu] = 1;
  }
  const char *reason = have[0]      ? "the time metric with the largest total, CPU time before GPU operations"
                       : have[1]    ? "the GPU operation time with the largest total (no CPU time metric has one)"
                       : have_first ? "the first metric with a non-zero total (no time metric has one)"
                                    : "every metric is zero: the first";
  if (why) *why = reason;
  if (have[0] || have[1]) return *out = best[have[0] ? 0 : 1], 0;
  if (have_first) return *out = first, 0;
  if (e->n_metrics == 0 || !e->metrics[0].name) return hpcdb_fail(HPCDB_EINVAL, "the experiment has no metrics");
  return hpcdb_query_column(q, e->metrics[0].name, out);
}

int hpcdb_query_default_column(hpcdb_query *q, hpcdb_qcolumn *out) {
  return hpcdb_query_default_column_why(q, out, NULL);
}
