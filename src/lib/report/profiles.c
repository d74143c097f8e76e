/* The profiles view: each profile's (or each group's) total per metric,
 * largest first, and how they spread: min, median, mean, max, imbalance.
 * CPU threads and GPU streams are separate sections when a run has both:
 * their totals mean different things (a stream's time is GPU time). */
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

static const char *kind_name(const hpcdb_experiment *e, uint16_t k) { return k < e->n_kind_names ? e->kind_names[k] : NULL; }

/* A GPU stream's profile (hpcrun gives each GPU context/stream one) has a
 * GPU kind in its identity; every other profile is a CPU thread or rank. */
static int is_gpu(const hpcdb_experiment *e, const hpcdb_profile *p) {
  for (uint16_t i = 0; i < p->n_ids; i++) {
    const char *name = kind_name(e, p->ids[i].kind);
    if (name && !strncmp(name, "GPU", 3)) return 1;
  }
  return 0;
}

/* The element of p's identity that --by names (the outermost GPU level for gpu); -1: none. */
static int level_of(const hpcdb_experiment *e, const hpcdb_profile *p, hpcdb_group_by by) {
  static const char *const names[] = {NULL, "RANK", "THREAD", "NODE", "GPU"};
  for (uint16_t i = 0; i < p->n_ids; i++) {
    const char *k = kind_name(e, p->ids[i].kind);
    if (k && (by == HPCDB_BY_GPU ? !strncmp(k, "GPU", 3) : !strcmp(k, names[by]))) return i;
  }
  return -1;
}

typedef struct prow {
  char name[160];
  double v[REPORT_MAX_COLUMNS];
  uint64_t key;   /* the group's id (grouped rows) */
  int has_key;
  uint32_t members;
} prow;

/* How many leading identifier elements the section's profiles share (the
 * NODE of a one-node run, the GPUCONTEXT of its streams): left out of the
 * rows' names, keeping at least the last. */
static uint16_t shared_prefix(const hpcdb_experiment *e, const hpcdb_profile *const *ps, uint32_t n) {
  uint16_t common = n ? (uint16_t)(ps[0]->n_ids ? ps[0]->n_ids - 1 : 0) : 0;
  for (uint32_t i = 1; i < n; i++) {
    uint16_t k = 0, limit = ps[i]->n_ids ? (uint16_t)(ps[i]->n_ids - 1) : 0;
    while (k < common && k < limit && !memcmp(&ps[i]->ids[k], &ps[0]->ids[k], sizeof ps[i]->ids[k])) k++;
    common = k;
  }
  (void)e;
  return common;
}

static int by_value(const void *a, const void *b) {
  const prow *x = a, *y = b;
  if (x->v[0] != y->v[0]) return x->v[0] > y->v[0] ? -1 : 1;
  return strcmp(x->name, y->name);
}
static int by_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The rows of a section: one per profile, or one per group of the --by level. */
static uint32_t section_rows(const report_data *d, const hpcdb_report_options *o, hpcdb_group_by by,
                             const hpcdb_profile *const *ps, uint32_t n, prow *rows) {
  const hpcdb_experiment *e = d->exp;
  uint16_t skip = o->csv || o->json ? 0 : shared_prefix(e, ps, n); /* machine-read rows keep whole identities */
  uint32_t nr = 0;
  for (uint32_t i = 0; i < n; i++) {
    const hpcdb_profile *p = ps[i];
    prow *r = NULL;
    if (by == HPCDB_BY_KIND) {
      r = &rows[nr++];
      memset(r, 0, sizeof *r);
      hpcdb_profile tail = *p; /* the identity without the shared elements */
      if (skip && skip < p->n_ids) tail.ids += skip, tail.n_ids = (uint16_t)(p->n_ids - skip);
      hpcdb_profile_identity(e, &tail, r->name, sizeof r->name);
    } else {
      int at = level_of(e, p, by);
      uint64_t key = at < 0 ? 0 : p->ids[at].flags & HPCDB_ID_PHYSICAL ? p->ids[at].physical_id : p->ids[at].logical_id;
      for (uint32_t k = 0; k < nr && !r; k++)
        if (rows[k].has_key == (at >= 0) && rows[k].key == key) r = &rows[k];
      if (!r) {
        r = &rows[nr++];
        memset(r, 0, sizeof *r);
        r->key = key, r->has_key = at >= 0;
        if (at < 0) snprintf(r->name, sizeof r->name, "(no %s)", by == HPCDB_BY_GPU ? "GPU" : by == HPCDB_BY_RANK ? "RANK" : by == HPCDB_BY_THREAD ? "THREAD" : "NODE");
        else {
          hpcdb_profile one = *p;
          one.ids += at, one.n_ids = 1;
          hpcdb_profile_identity(e, &one, r->name, sizeof r->name);
        }
      }
    }
    r->members++;
    for (uint32_t c = 0; c < d->n_cols; c++) r->v[c] += profile_total(e, p, d->cols[c].metric);
  }
  for (uint32_t k = 0; by != HPCDB_BY_KIND && k < nr; k++) {
    size_t len = strlen(rows[k].name);
    snprintf(rows[k].name + len, sizeof rows[k].name - len, " (%u profile%s)", rows[k].members, rows[k].members == 1 ? "" : "s");
  }
  qsort(rows, nr, sizeof *rows, by_value);
  return nr;
}

static int row_zero(const report_data *d, const prow *r) {
  for (uint32_t c = 0; c < d->n_cols; c++)
    if (r->v[c] != 0) return 0;
  return 1;
}

/* The first metric (a time one first) with a value in the section's profiles: what to offer
 * when the shown metrics have none there. */
static const char *metric_with_values(const hpcdb_experiment *e, const hpcdb_profile *const *ps, uint32_t n) {
  uint32_t any = HPCDB_NONE;
  for (uint32_t m = 0; m < e->n_metrics; m++) {
    double sum = 0;
    for (uint32_t i = 0; i < n && sum == 0; i++) sum += fabs(profile_total(e, ps[i], m));
    if (sum == 0) continue;
    if (report_time_unit(e->metrics[m].name, e->metrics[m].unit) != 0) return e->metrics[m].name;
    if (any == HPCDB_NONE) any = m;
  }
  return any != HPCDB_NONE ? e->metrics[any].name : NULL;
}

static void spread(table *t, const report_data *d, const prow *rows, uint32_t nr, unsigned depth) {
  double lo[REPORT_MAX_COLUMNS], med[REPORT_MAX_COLUMNS], mean[REPORT_MAX_COLUMNS], hi[REPORT_MAX_COLUMNS];
  double imb[REPORT_MAX_COLUMNS];
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
  }
  free(vals);
  table_row(t, depth, "min", -1, lo, NULL);
  table_row(t, depth, "median", -1, med, NULL);
  table_row(t, depth, "mean", -1, mean, NULL);
  table_row(t, depth, "max", -1, hi, NULL);
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
  uint32_t nr = section_rows(d, o, o->group_by, ps, n, rows), nonzero = 0;
  while (nonzero < nr && !row_zero(d, &rows[nonzero])) nonzero++; /* sorted: zero rows last unless negative */
  for (uint32_t i = nonzero; i < nr; i++) if (!row_zero(d, &rows[i])) rows[nonzero++] = rows[i];
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
    const char *other = metric_with_values(e, ps, n);
    if (o->csv || o->json) {
      free(rows);
      return 0;
    }
    int traced = e->has_traces && e->n_traces == 0; /* traces not loaded: the file has them */
    for (uint32_t k = 0; k < e->n_traces; k++)
      for (uint32_t i = 0; i < n && !traced; i++) traced = e->traces[k].n && &e->profiles[e->traces[k].profile] == ps[i];
    fprintf(t->out, "%*sno value of %s in these %s", (int)(2 * depth), "", d->cols[0].name, what);
    if (other) fprintf(t->out, "; %s has values (--metric '%s')", other, other);
    else fprintf(t->out, "; no metric has values in them%s", traced ? " (they hold traces: 'hpcdb export --format chrome-trace')" : "");
    fputc('\n', t->out);
    free(rows);
    return 0;
  }
  for (uint32_t i = 0; i < nonzero && (!o->top || i < o->top); i++) {
    table_row(t, depth + 1, rows[i].name, -1, rows[i].v, NULL);
  }
  if (!o->csv && !o->json && (nonzero < nr || (o->top && nonzero > o->top))) {
    fprintf(t->out, "%*s", (int)(2 * depth + 2), "");
    if (o->top && nonzero > o->top) fprintf(t->out, "[%u more past --top]%s", nonzero - o->top, nonzero < nr ? "; " : "");
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
  const hpcdb_profile **cpu = malloc((e->n_profiles + 1) * sizeof *cpu), **gpu = malloc((e->n_profiles + 1) * sizeof *gpu);
  uint32_t n_cpu = 0, n_gpu = 0;
  int rc = cpu && gpu ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory for the report");
  for (uint32_t p = 0; rc == 0 && p < e->n_profiles; p++) {
    const hpcdb_profile *pr = &e->profiles[p];
    if (pr->flags & HPCDB_PROFILE_SUMMARY) continue;
    if (o->profile && !hpcdb_profile_matches(e, pr, o->profile)) continue;
    if (is_gpu(e, pr)) gpu[n_gpu++] = pr;
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
      int at = level_of(e, cpu[i], HPCDB_BY_RANK);
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
