/* The profiles view: each profile's total per metric, and how they spread. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "report/table.h"

/* The profile's whole-program value of a metric: its execution value at the
 * global context, else the sum of its point values. */
static double profile_total(const hpcdb_experiment *e, const hpcdb_profile *p, uint32_t metric) {
  const hpcdb_metric *m = &e->metrics[metric];
  int stat = (p->flags & HPCDB_PROFILE_SUMMARY) != 0;
  int32_t inc = -1, point = -1;
  uint32_t n = stat ? m->n_summaries : m->n_instances;
  for (uint32_t k = 0; k < n; k++) {
    if (stat && (m->summaries[k].combine != HPCDB_COMBINE_SUM || !m->summaries[k].formula || strcmp(m->summaries[k].formula, "$$")))
      continue;
    uint32_t scope = stat ? m->summaries[k].scope : m->instances[k].scope;
    int32_t id = stat ? m->summaries[k].stat_metric_id : m->instances[k].prop_metric_id;
    if (e->scopes[scope].type == HPCDB_SCOPE_EXECUTION) inc = id;
    if (e->scopes[scope].type == HPCDB_SCOPE_POINT) point = id;
  }
  double v = 0;
  if (inc >= 0 && hpcdb_profile_value(p, 0, (uint16_t)inc, &v)) return v;
  v = 0;
  for (uint64_t i = 0; i < p->n_values; i++) if (p->metric_ids[i] == point) v += p->values[i];
  return v;
}

int report_profiles(FILE *out, const report_data *d, const hpcdb_report_options *o) {
  const hpcdb_experiment *e = d->exp;
  table t;
  table_begin(&t, out, d, o, "profiles view (per rank / thread / stream)");
  double lo[REPORT_MAX_COLUMNS], hi[REPORT_MAX_COLUMNS], sum[REPORT_MAX_COLUMNS] = {0}, sq[REPORT_MAX_COLUMNS] = {0};
  double v[REPORT_MAX_COLUMNS], zero[REPORT_MAX_COLUMNS] = {0};
  uint32_t n = 0;
  char id[256];
  for (uint32_t p = 0; p < e->n_profiles; p++) {
    const hpcdb_profile *pr = &e->profiles[p];
    if (pr->flags & HPCDB_PROFILE_SUMMARY) continue;
    hpcdb_profile_identity(e, pr, id, sizeof id);
    if (o->profile && strcmp(id, o->profile)) continue;
    for (uint32_t c = 0; c < d->n_cols; c++) {
      v[c] = profile_total(e, pr, d->cols[c].metric);
      lo[c] = n == 0 || v[c] < lo[c] ? v[c] : lo[c];
      hi[c] = n == 0 || v[c] > hi[c] ? v[c] : hi[c];
      sum[c] += v[c];
      sq[c] += v[c] * v[c];
    }
    n++;
    if (!o->top || n <= o->top) table_row(&t, 1, id, p, v, zero);
  }
  if (n == 0) {
    table_end(&t);
    return 0;
  }
  double mean[REPORT_MAX_COLUMNS], sd[REPORT_MAX_COLUMNS], imb[REPORT_MAX_COLUMNS];
  for (uint32_t c = 0; c < d->n_cols; c++) {
    mean[c] = sum[c] / n;
    double var = sq[c] / n - mean[c] * mean[c];
    sd[c] = var > 0 ? sqrt(var) : 0;
    imb[c] = mean[c] != 0 ? hi[c] / mean[c] : 0;
  }
  table_row(&t, 0, "min", -1, lo, zero);
  table_row(&t, 0, "mean", -1, mean, zero);
  table_row(&t, 0, "max", -1, hi, zero);
  table_row(&t, 0, "stddev", -1, sd, zero);
  if (o->csv || o->json) {
    table_row(&t, 0, "imbalance (max / mean)", -1, imb, zero);
  } else {
    fprintf(out, "%-*s", (int)t.name_width, "imbalance (max / mean)");
    for (uint32_t c = 0; c < d->n_cols; c++) fprintf(out, "%11.2fx %16s", imb[c], "");
    fputc('\n', out);
  }
  table_end(&t);
  return 0;
}
