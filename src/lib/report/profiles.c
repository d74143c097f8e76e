/* SPDX-License-Identifier: BSD-3-Clause */
/* The profiles view: each profile's (or each group's) total per metric,
 * largest first, and how they spread: min, median, mean, max, imbalance.
 * CPU threads and GPU streams are separate sections when a run has both:
 * their totals mean different things (a stream's time is GPU time). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "report/profile_rows.h"
#include "report/table.h"

static int by_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void spread(table *t, const report_data *d, const prow *rows, uint32_t nr, unsigned depth) {
  double lo[REPORT_MAX_COLUMNS], med[REPORT_MAX_COLUMNS], mean[REPORT_MAX_COLUMNS], hi[REPORT_MAX_COLUMNS];
  double imb[REPORT_MAX_COLUMNS];
  uint64_t ilo[REPORT_MAX_COLUMNS], ihi[REPORT_MAX_COLUMNS]; /* an integer column's: the rows' exact ones */
  double *vals = malloc((nr ? nr : 1) * sizeof *vals);
  if (!vals) return;
  for (uint32_t c = 0; c < d->n_cols; c++) {
    double sum = 0;
    for (uint32_t i = 0; i < nr; i++) vals[i] = rows[i].v[c], sum += vals[i];
    qsort(vals, nr, sizeof *vals, by_double);
    lo[c] = vals[0], hi[c] = vals[nr - 1];
    med[c] = nr % 2 ? vals[nr / 2] : (vals[nr / 2 - 1] + vals[nr / 2]) / 2;
    mean[c] = sum / nr;
    imb[c] = mean[c] != 0 ? hi[c] / mean[c] : 0;
    for (uint32_t i = 0; i < nr; i++) {
      if (rows[i].v[c] == lo[c]) ilo[c] = rows[i].iv[c];
      if (rows[i].v[c] == hi[c]) ihi[c] = rows[i].iv[c];
    }
  }
  free(vals);
  table_row_exact(t, depth, "min", -1, lo, NULL, ilo, NULL);
  table_row(t, depth, "median", -1, med, NULL);
  table_row(t, depth, "mean", -1, mean, NULL);
  table_row_exact(t, depth, "max", -1, hi, NULL, ihi, NULL);
  if (t->o->csv || t->o->json) {
    table_row(t, depth, "imbalance (max / mean)", -1, imb, NULL);
    return;
  }
  fprintf(t->out, "%*s%-*s", (int)(2 * depth), "", (int)(t->name_width - 2 * depth), "imbalance (max / mean)");
  for (uint32_t c = 0; c < d->n_cols; c++) fprintf(t->out, "%11.2fx %16s", imb[c], "");
  fputc('\n', t->out);
}

/* One section: its rows, largest first, without the rows of no value (counted), then their spread. */
static int section(table *t, const report_data *d, const hpcdb_report_options *o, const char *title,
                   const hpcdb_profile *const *ps, uint32_t n) {
  const hpcdb_experiment *e = d->exp;
  prow *rows = malloc((n ? n : 1) * sizeof *rows);
  if (!rows) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the report");
  uint32_t nr = profile_rows(d, o, o->group_by, ps, n, rows), nonzero = 0;
  while (nonzero < nr && !profile_row_zero(d, &rows[nonzero])) nonzero++; /* sorted: zero rows last unless negative */
  for (uint32_t i = nonzero; i < nr; i++)
    if (!profile_row_zero(d, &rows[i])) rows[nonzero++] = rows[i];
  const char *what = o->group_by == HPCDB_BY_KIND ? "profiles" : "groups";
  unsigned depth = title ? 1 : 0;
  char head[256];
  if (title) {
    int k = snprintf(head, sizeof head, "%s: %u profile%s", title, n, n == 1 ? "" : "s");
    if (o->group_by != HPCDB_BY_KIND) snprintf(head + k, sizeof head - (size_t)k, " in %u groups", nr);
    if (o->csv || o->json) table_row(t, 0, head, -1, (double[REPORT_MAX_COLUMNS]){0}, NULL);
    else fprintf(t->out, "%s\n", head);
  }
  if (nonzero == 0) { /* say so, and offer the metric that has values there */
    const char *other = o->all_values ? profile_metric_with_values(e, ps, n) : NULL;
    if (o->csv || o->json) {
      free(rows);
      return 0;
    }
    int traced = e->has_traces && e->n_traces == 0; /* traces not loaded: the file has them */
    for (uint32_t k = 0; k < e->n_traces; k++)
      for (uint32_t i = 0; i < n && !traced; i++)
        traced = e->traces[k].n && &e->profiles[e->traces[k].profile] == ps[i];
    fprintf(t->out, "%*sno value of %s in these %s", (int)(2 * depth), "", d->cols[0].name, what);
    const char *traces = traced ? " (they hold traces: 'hpcdb export --format chrome-trace')" : "";
    if (!o->all_values) fprintf(t->out, "; 'hpcdb info' lists the other metrics%s", traces); /* theirs were not read */
    else if (other) fprintf(t->out, "; %s has values (--metric '%s')", other, other);
    else fprintf(t->out, "; no metric has values in them%s", traces);
    fputc('\n', t->out);
    free(rows);
    return 0;
  }
  for (uint32_t i = 0; i < nonzero && (!o->top || i < o->top); i++) {
    table_row_exact(t, depth + 1, rows[i].name, -1, rows[i].v, NULL, rows[i].iv, NULL);
  }
  if (!o->csv && !o->json && (nonzero < nr || (o->top && nonzero > o->top))) {
    fprintf(t->out, "%*s", (int)(2 * depth + 2), "");
    if (o->top && nonzero > o->top)
      fprintf(t->out, "[%u more past --top]%s", nonzero - o->top, nonzero < nr ? "; " : "");
    if (nonzero < nr) fprintf(t->out, "[%u %s with no value of the metrics shown, left out]", nr - nonzero, what);
    fputc('\n', t->out);
  }
  spread(t, d, rows, nonzero, depth);
  free(rows);
  return 0;
}

int report_profiles(FILE *out, const report_data *d, const hpcdb_report_options *o) {
  const hpcdb_experiment *e = d->exp;
  static const char *const by_names[] = {"per rank / thread / stream", "per rank", "per thread", "per node", "per GPU"};
  char what[96];
  snprintf(what, sizeof what, "profiles view (%s)", by_names[o->group_by]);
  table t;
  table_begin(&t, out, d, o, what);
  const hpcdb_profile **cpu = malloc((e->n_profiles + 1) * sizeof *cpu),
                      **gpu = malloc((e->n_profiles + 1) * sizeof *gpu);
  uint32_t n_cpu = 0, n_gpu = 0;
  int rc = cpu && gpu ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory for the report");
  for (uint32_t p = 0; rc == 0 && p < e->n_profiles; p++) {
    const hpcdb_profile *pr = &e->profiles[p];
    if (pr->flags & HPCDB_PROFILE_SUMMARY) continue;
    if (o->profile && !hpcdb_profile_matches(e, pr, o->profile)) continue;
    if (profile_is_gpu(e, pr)) gpu[n_gpu++] = pr;
    else cpu[n_cpu++] = pr;
  }
  if (rc == 0 && n_cpu + n_gpu == 0 && o->profile)
    rc = hpcdb_fail(HPCDB_EINVAL, "no profile %s \"%s\" ('hpcdb report --view profiles' lists them)",
                    strchr(o->profile, '=') ? "matches" : "has the identity", o->profile);
  if (rc == 0 && n_cpu && n_gpu) {
    rc = section(&t, d, o, "CPU threads", cpu, n_cpu);
    if (rc == 0) rc = section(&t, d, o, "GPU streams", gpu, n_gpu);
  } else if (rc == 0 && n_cpu + n_gpu) {
    rc = section(&t, d, o, NULL, n_cpu ? cpu : gpu, n_cpu ? n_cpu : n_gpu);
  }
  /* one row per thread mixes idle helpers with the ranks' main threads: say where the ranks are */
  if (rc == 0 && o->group_by == HPCDB_BY_KIND && !o->csv && !o->json && n_cpu > 1) {
    int64_t first = -1;
    int ranks = 0;
    for (uint32_t i = 0; i < n_cpu && ranks < 2; i++) {
      int at = profile_level_of(e, cpu[i], HPCDB_BY_RANK);
      int64_t r = at < 0 ? -1 : (int64_t)cpu[i]->ids[at].logical_id;
      if (r >= 0 && first < 0) first = r, ranks = 1;
      else if (r >= 0 && r != first) ranks = 2;
    }
    if (ranks == 2) fputs("(one row per rank, the sum of its threads, and the ranks' imbalance: --by rank)\n", out);
  }
  free(cpu);
  free(gpu);
  table_end(&t);
  return rc;
}
