/* SPDX-License-Identifier: BSD-3-Clause */
/* The rows of the profiles view: each profile's whole-program value per metric, and the profiles
 * grouped by an identity level (--by), largest first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/profile_rows.h"

/* The value ids of the metric's execution and point values in p (-1: none). */
static void total_ids(const hpcdb_experiment *e, const hpcdb_profile *p, uint32_t metric, int32_t *exec, int32_t *pt) {
  const hpcdb_metric *m = &e->metrics[metric];
  int stat = (p->flags & HPCDB_PROFILE_SUMMARY) != 0;
  int32_t inc = -1, point = -1;
  uint32_t n = stat ? m->n_summaries : m->n_instances;
  for (uint32_t k = 0; k < n; k++) {
    if (stat && (m->summaries[k].combine != HPCDB_COMBINE_SUM || !m->summaries[k].formula ||
                 strcmp(m->summaries[k].formula, "$$")))
      continue;
    uint32_t scope = stat ? m->summaries[k].scope : m->instances[k].scope;
    int32_t id = stat ? m->summaries[k].stat_metric_id : m->instances[k].prop_metric_id;
    if (e->scopes[scope].type == HPCDB_SCOPE_EXECUTION) inc = id;
    if (e->scopes[scope].type == HPCDB_SCOPE_POINT) point = id;
  }
  *exec = inc, *pt = point;
}

/* The profile's whole-program value of a metric: its execution value at the
 * global context, else the sum of its point values. */
double profile_total(const hpcdb_experiment *e, const hpcdb_profile *p, uint32_t metric) {
  int32_t inc, point;
  total_ids(e, p, metric, &inc, &point);
  double v = 0;
  if (inc >= 0 && hpcdb_profile_value(p, 0, (uint16_t)inc, &v)) return v;
  v = 0;
  for (uint64_t i = 0; i < p->n_values; i++)
    if (p->metric_ids[i] == point) v += p->values[i];
  return v;
}

uint64_t profile_total_integer(const hpcdb_experiment *e, const hpcdb_profile *p, uint32_t metric) {
  int32_t inc, point;
  total_ids(e, p, metric, &inc, &point);
  uint32_t pi = (uint32_t)(p - e->profiles);
  uint64_t sum = 0, u;
  for (uint32_t k = 0; k < p->n_ctxs; k++)
    for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++) {
      int exec = p->ctx_ids[k] == 0 && p->metric_ids[v] == inc;
      if (!exec && p->metric_ids[v] != point) continue;
      if (!hpcdb_profile_integer(e, pi, v, &u)) /* not one of its integers (the model's are): as its double */
        u = fabs(p->values[v]) < 9223372036854775808.0 ? (uint64_t)(int64_t)p->values[v] : 0;
      if (exec) return u;
      sum += u; /* modulo 2^64, as CubeLib adds a UINT64 */
    }
  return sum;
}

static const char *kind_name(const hpcdb_experiment *e, uint16_t k) {
  return k < e->n_kind_names ? e->kind_names[k] : NULL;
}

/* A GPU stream's profile (hpcrun gives each GPU context/stream one) has a
 * GPU kind in its identity; every other profile is a CPU thread or rank. */
int profile_is_gpu(const hpcdb_experiment *e, const hpcdb_profile *p) {
  for (uint16_t i = 0; i < p->n_ids; i++) {
    const char *name = kind_name(e, p->ids[i].kind);
    if (name && !strncmp(name, "GPU", 3)) return 1;
  }
  return 0;
}

/* The element of p's identity that --by names (the outermost GPU level for gpu); -1: none. */
int profile_level_of(const hpcdb_experiment *e, const hpcdb_profile *p, hpcdb_group_by by) {
  static const char *const names[] = {NULL, "RANK", "THREAD", "NODE", "GPU"};
  for (uint16_t i = 0; i < p->n_ids; i++) {
    const char *k = kind_name(e, p->ids[i].kind);
    if (k && (by == HPCDB_BY_GPU ? !strncmp(k, "GPU", 3) : !strcmp(k, names[by]))) return i;
  }
  return -1;
}

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

/* The rows of a section: one per profile, or one per group of the --by level. */
uint32_t profile_rows(const report_data *d, const hpcdb_report_options *o, hpcdb_group_by by,
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
      int at = profile_level_of(e, p, by);
      uint64_t key = at < 0 ? 0 : p->ids[at].flags & HPCDB_ID_PHYSICAL ? p->ids[at].physical_id : p->ids[at].logical_id;
      for (uint32_t k = 0; k < nr && !r; k++)
        if (rows[k].has_key == (at >= 0) && rows[k].key == key) r = &rows[k];
      if (!r) {
        r = &rows[nr++];
        memset(r, 0, sizeof *r);
        r->key = key, r->has_key = at >= 0;
        if (at < 0)
          snprintf(r->name, sizeof r->name, "(no %s)",
                   by == HPCDB_BY_GPU      ? "GPU"
                   : by == HPCDB_BY_RANK   ? "RANK"
                   : by == HPCDB_BY_THREAD ? "THREAD"
                                           : "NODE");
        else {
          hpcdb_profile one = *p;
          one.ids += at, one.n_ids = 1;
          hpcdb_profile_identity(e, &one, r->name, sizeof r->name);
        }
      }
    }
    r->members++;
    for (uint32_t c = 0; c < d->n_cols; c++) {
      if (d->cols[c].integer) r->iv[c] += profile_total_integer(e, p, d->cols[c].metric);
      else r->v[c] += profile_total(e, p, d->cols[c].metric);
    }
  }
  for (uint32_t k = 0; k < nr; k++) /* integer columns: sorted and spread as their type reads them */
    for (uint32_t c = 0; c < d->n_cols; c++)
      if (d->cols[c].integer) rows[k].v[c] = report_integer_double(rows[k].iv[c], d->cols[c].integer);
  for (uint32_t k = 0; by != HPCDB_BY_KIND && k < nr; k++) {
    size_t len = strlen(rows[k].name);
    snprintf(rows[k].name + len, sizeof rows[k].name - len, " (%u profile%s)", rows[k].members,
             rows[k].members == 1 ? "" : "s");
  }
  qsort(rows, nr, sizeof *rows, by_value);
  return nr;
}

int profile_row_zero(const report_data *d, const prow *r) {
  for (uint32_t c = 0; c < d->n_cols; c++)
    if (r->v[c] != 0) return 0;
  return 1;
}

/* The first metric (a time one first) with a value in the section's profiles: what to offer
 * when the shown metrics have none there. */
const char *profile_metric_with_values(const hpcdb_experiment *e, const hpcdb_profile *const *ps, uint32_t n) {
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
