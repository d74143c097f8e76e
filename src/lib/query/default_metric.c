/* SPDX-License-Identifier: BSD-3-Clause */
/* The metric the views show first when none is named (hpcdb_default_metric):
 * below the query layer's users, so that the comparison and the query choose
 * it without calling up into report. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/default_metric.h"
#include "query/names.h"

int query_nonzero_metrics(const hpcdb_experiment *e, uint8_t *nz) {
  uint32_t *of = malloc(2 * 65536 * sizeof *of); /* prop id, then stat id + 65536 -> metric */
  if (!of) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  memset(of, 0xff, 2 * 65536 * sizeof *of);
  for (uint32_t m = 0; m < e->n_metrics; m++) {
    for (uint32_t k = 0; k < e->metrics[m].n_instances; k++) of[e->metrics[m].instances[k].prop_metric_id] = m;
    for (uint32_t k = 0; k < e->metrics[m].n_summaries; k++) of[65536u + e->metrics[m].summaries[k].stat_metric_id] = m;
  }
  int have_summary = 0;
  for (uint32_t p = 0; p < e->n_profiles; p++) have_summary |= (e->profiles[p].flags & HPCDB_PROFILE_SUMMARY) != 0;
  for (uint32_t p = 0; p < e->n_profiles; p++) {
    const hpcdb_profile *pr = &e->profiles[p];
    int summary = (pr->flags & HPCDB_PROFILE_SUMMARY) != 0;
    if (have_summary && !summary) continue;
    for (uint64_t v = 0; v < pr->n_values; v++) {
      uint32_t m = of[(summary ? 65536u : 0) + pr->metric_ids[v]];
      if (m != HPCDB_NONE && pr->values[v] != 0) nz[m] = 1;
    }
  }
  free(of);
  return 0;
}

int hpcdb_default_metric(const hpcdb_experiment *exp, uint32_t *metric, const char **reason) {
  if (exp->n_metrics == 0) return hpcdb_fail(HPCDB_EINVAL, "the experiment has no metrics");
  uint8_t *nz = calloc(exp->n_metrics, 1);
  if (!nz) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int rc = query_nonzero_metrics(exp, nz);
  uint32_t m = 0, time = HPCDB_NONE, any = HPCDB_NONE;
  for (; rc == 0 && m < exp->n_metrics; m++) {
    if (!nz[m] || exp->metrics[m].execution_combine != HPCDB_COMBINE_SUM) continue; /* a min or max has no total */
    if (any == HPCDB_NONE) any = m;
    if (query_time_unit(exp->metrics[m].name, exp->metrics[m].unit) != 0) {
      time = m;
      break;
    }
  }
  free(nz);
  HPCDB_TRY(rc);
  *metric = time != HPCDB_NONE ? time : any != HPCDB_NONE ? any : 0;
  *reason = time != HPCDB_NONE  ? "the first time metric with a non-zero total"
            : any != HPCDB_NONE ? "the first metric with a non-zero total (no time metric has one)"
                                : "every metric is zero: the first";
  return 0;
}
