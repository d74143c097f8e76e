/* The profiles view: each profile's total per metric, and how they spread. */
#include <math.h>
#include <stdio.h>
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

/* A GPU stream's profile (hpcrun gives each GPU context/stream one) has a
 * GPU kind in its identity; every other profile is a CPU thread or rank. */
static int is_gpu(const hpcdb_experiment *e, const hpcdb_profile *p) {
  for (uint16_t i = 0; i < p->n_ids; i++) {
    uint16_t k = p->ids[i].kind;
    const char *name = k < e->n_kind_names ? e->kind_names[k] : NULL;
    if (name && !strncmp(name, "GPU", 3)) return 1;
  }
  return 0;
}

/* How many leading identifier elements the profiles of a group share (the
 * NODE of a one-node run, the GPUCONTEXT of its streams): left out of the
 * rows' names, keeping at least the last, so that what tells them apart
 * fits the name column. */
static uint16_t shared_prefix(const hpcdb_experiment *e, int gpu) {
  const hpcdb_profile *first = NULL;
  uint16_t n = 0;
  for (uint32_t p = 0; p < e->n_profiles; p++) {
    const hpcdb_profile *pr = &e->profiles[p];
    if ((pr->flags & HPCDB_PROFILE_SUMMARY) || is_gpu(e, pr) != gpu) continue;
    uint16_t k = 0, limit = pr->n_ids ? (uint16_t)(pr->n_ids - 1) : 0;
    if (!first) {
      first = pr;
      n = limit;
      continue;
    }
    while (k < n && k < limit && !memcmp(&pr->ids[k], &first->ids[k], sizeof pr->ids[k])) k++;
    n = k;
  }
  return n;
}

/* The rows of one group of profiles (gpu: 0 CPU, 1 GPU, -1 all) and their
 * spread; with a title, a row of the group's totals first and the rest
 * below it. Returns how many profiles were in the group. */
static uint32_t profile_group(table *t, const report_data *d, const hpcdb_report_options *o, int gpu,
                              const char *title, uint16_t skip) {
  const hpcdb_experiment *e = d->exp;
  double lo[REPORT_MAX_COLUMNS], hi[REPORT_MAX_COLUMNS], sum[REPORT_MAX_COLUMNS] = {0}, sq[REPORT_MAX_COLUMNS] = {0};
  double v[REPORT_MAX_COLUMNS], zero[REPORT_MAX_COLUMNS] = {0};
  uint32_t n = 0;
  unsigned depth = title ? 1 : 0;
  char id[256];
  for (int pass = title ? 0 : 1; pass < 2; pass++) { /* with a title: the totals first */
    n = 0;
    for (uint32_t p = 0; p < e->n_profiles; p++) {
      const hpcdb_profile *pr = &e->profiles[p];
      if (pr->flags & HPCDB_PROFILE_SUMMARY) continue;
      if (gpu >= 0 && is_gpu(e, pr) != gpu) continue;
      hpcdb_profile_identity(e, pr, id, sizeof id);
      if (o->profile && strcmp(id, o->profile)) continue;
      for (uint32_t c = 0; c < d->n_cols && pass == 0; c++) sum[c] += profile_total(e, pr, d->cols[c].metric);
      for (uint32_t c = 0; c < d->n_cols && pass == 1; c++) {
        v[c] = profile_total(e, pr, d->cols[c].metric);
        lo[c] = n == 0 || v[c] < lo[c] ? v[c] : lo[c];
        hi[c] = n == 0 || v[c] > hi[c] ? v[c] : hi[c];
        sum[c] += v[c];
        sq[c] += v[c] * v[c];
      }
      n++;
      if (pass == 1 && (!o->top || n <= o->top)) {
        char name[256];
        hpcdb_profile tail = *pr; /* the identity without the shared elements */
        if (skip && skip < pr->n_ids) tail.ids += skip; /* (no offset on a profile without ids: NULL) */
        tail.n_ids = (uint16_t)(skip < pr->n_ids ? pr->n_ids - skip : pr->n_ids);
        hpcdb_profile_identity(e, &tail, name, sizeof name);
        table_row(t, depth + 1, skip ? name : id, p, v, zero);
      }
    }
    if (n == 0) return 0;
    if (pass == 0) {
      char head[128];
      snprintf(head, sizeof head, "%s (%u)", title, n);
      table_row(t, 0, head, -1, sum, zero);
      memset(sum, 0, sizeof sum);
    }
  }
  double mean[REPORT_MAX_COLUMNS], sd[REPORT_MAX_COLUMNS], imb[REPORT_MAX_COLUMNS];
  for (uint32_t c = 0; c < d->n_cols; c++) {
    mean[c] = sum[c] / n;
    double var = sq[c] / n - mean[c] * mean[c];
    sd[c] = var > 0 ? sqrt(var) : 0;
    imb[c] = mean[c] != 0 ? hi[c] / mean[c] : 0;
  }
  table_row(t, depth, "min", -1, lo, zero);
  table_row(t, depth, "mean", -1, mean, zero);
  table_row(t, depth, "max", -1, hi, zero);
  table_row(t, depth, "stddev", -1, sd, zero);
  if (o->csv || o->json) {
    table_row(t, depth, "imbalance (max / mean)", -1, imb, zero);
  } else {
    fprintf(t->out, "%*s%-*s", (int)(2 * depth), "", (int)(t->name_width - 2 * depth), "imbalance (max / mean)");
    for (uint32_t c = 0; c < d->n_cols; c++) fprintf(t->out, "%11.2fx %16s", imb[c], "");
    fputc('\n', t->out);
  }
  return n;
}

/* CPU threads and GPU streams are told apart when a run has both: their
 * totals mean different things (a stream's time is GPU time), so each group
 * gets its own spread and imbalance. */
int report_profiles(FILE *out, const report_data *d, const hpcdb_report_options *o) {
  const hpcdb_experiment *e = d->exp;
  table t;
  table_begin(&t, out, d, o, "profiles view (per rank / thread / stream)");
  int cpu = 0, gpu = 0;
  for (uint32_t p = 0; p < e->n_profiles; p++)
    if (!(e->profiles[p].flags & HPCDB_PROFILE_SUMMARY)) {
      if (is_gpu(e, &e->profiles[p])) gpu = 1; else cpu = 1;
    }
  if (cpu && gpu) { /* machine-read rows (CSV, JSON) keep whole identities */
    profile_group(&t, d, o, 0, "CPU threads", o->csv || o->json ? 0 : shared_prefix(e, 0));
    profile_group(&t, d, o, 1, "GPU streams", o->csv || o->json ? 0 : shared_prefix(e, 1));
  } else {
    profile_group(&t, d, o, -1, NULL, 0);
  }
  table_end(&t);
  return 0;
}
