/* SPDX-License-Identifier: BSD-3-Clause */
/* One run's values of the compared metric per context: inclusive (the
 * execution scope, else subtree sums of the point values) of the whole run,
 * through the run's source (hpcdb/source.h), and exclusive derived from it
 * alike for every format (exclusive_costs). Then each profile's inclusive values, summed and maximised per
 * context, for the per-profile mean, max and imbalance. Values at ids the
 * tree does not list (hidden contexts) are left out, as in hpcdb report. */
#include "query/compare_values.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/metric_ids.h"

typedef struct ids {
  int32_t inc, exc, point;
} ids;

/* The metric's inclusive (execution, where it sums along the tree) and point
 * ids as propagated (stat 0) or Sum statistic (stat 1) values; -1: none.
 * add_values reads exc, set to the point id where points are wanted. */
static ids metric_ids(const hpcdb_experiment *e, uint32_t m, int stat) {
  query_scope_ids s = query_scope_ids_of(e, m, stat, HPCDB_COMBINE_SUM);
  ids out = {e->metrics[m].execution_combine == HPCDB_COMBINE_SUM ? s.execution : -1, s.point, s.point};
  return out;
}

/* Adds a profile's values of ids into inc / exc (either may be NULL). */
static void add_values(const hpcdb_experiment *e, const hpcdb_profile *p, ids id, double *inc, double *exc) {
  if (!p->ctx_starts || !p->metric_ids || !p->values) return;
  for (uint32_t k = 0; k < p->n_ctxs; k++) {
    uint32_t i = hpcdb_find_context(e, p->ctx_ids[k]);
    if (i == HPCDB_NONE) continue;
    for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1] && v < p->n_values; v++) {
      if (inc && p->metric_ids[v] == id.inc) inc[i] += p->values[v];
      if (exc && p->metric_ids[v] == id.exc) exc[i] += p->values[v];
    }
  }
}

static void subtree_sums(const hpcdb_experiment *e, const double *exc, double *inc) {
  memcpy(inc, exc, (size_t)e->n_contexts * sizeof *inc);
  for (uint32_t i = e->n_contexts; i-- > 1;) inc[e->contexts[i].parent] += inc[i]; /* children after parents */
}

static void own_costs(const hpcdb_experiment *e, const double *inc, double *exc) {
  for (uint32_t i = 0; i < e->n_contexts; i++) exc[i] = inc[i];
  for (uint32_t i = 1; i < e->n_contexts; i++) exc[e->contexts[i].parent] -= inc[i];
  /* what is left of a subtraction of equal sums taken in another order is no cost */
  for (uint32_t i = 0; i < e->n_contexts; i++)
    if (fabs(exc[i]) <= 1e-12 * fabs(inc[i])) exc[i] = 0;
}

/* A frame for exclusive costs: the root, an entry point, a call or inlined call. */
static int is_frame(const hpcdb_context *c) {
  return c->kind != HPCDB_CTX_NORMAL || c->relation == HPCDB_REL_CALL || c->relation == HPCDB_REL_INLINED_CALL;
}

/* Exclusive cost the same way for every format: a context's own cost
 * (inclusive less its children's) plus that of its lexical descendants
 * (loops, lines) up to the next call, which is what HPCToolkit's function
 * scope holds for a call and Cube's exclusive value does not (Cube keeps a
 * line's cost on the line). */
static void exclusive_costs(const hpcdb_experiment *e, const double *inc, double *exc) {
  own_costs(e, inc, exc);
  for (uint32_t i = e->n_contexts; i-- > 1;)
    if (!is_frame(&e->contexts[i])) exc[e->contexts[i].parent] += exc[i];
}

/* The whole run's values, from the source's value interface (a v4.0
 * database's summary, decoded once for every reader of the source; a Cube
 * file's metric, read when first asked for): the execution scope where it
 * sums along the tree, else subtree sums of the exclusive values. */
static int whole_run(run_values *v, const hpcdb_source *src, uint32_t m) {
  const hpcdb_experiment *e = src->q.exp;
  unsigned have = 0;
  HPCDB_TRY(src->q.ops->column(src->q.impl, m, v->inc, v->exc, &have));
  if (!(have & HPCDB_QHAVE_INCLUSIVE) || e->metrics[m].execution_combine != HPCDB_COMBINE_SUM) {
    memset(v->inc, 0, (size_t)e->n_contexts * sizeof *v->inc);
    if (have & HPCDB_QHAVE_EXCLUSIVE) subtree_sums(e, v->exc, v->inc);
  }
  /* the root: what the source stores for the global context, else its children */
  if (v->inc[0] == 0)
    for (uint32_t k = e->contexts[0].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling)
      v->inc[0] += v->inc[k];
  exclusive_costs(e, v->inc, v->exc);
  return 0;
}

/* One profile's inclusive values into one[]: from its execution scope, else
 * subtree sums of its points (pts: scratch). 0 when it has neither. */
static int profile_inclusive(const hpcdb_experiment *e, const hpcdb_profile *pr, ids id, double *one, double *pts) {
  memset(one, 0, (size_t)e->n_contexts * sizeof *one);
  if (id.inc >= 0) {
    add_values(e, pr, id, one, NULL);
  } else if (id.point >= 0) {
    ids points = {-1, id.point, id.point};
    memset(pts, 0, (size_t)e->n_contexts * sizeof *pts);
    add_values(e, pr, points, NULL, pts);
    subtree_sums(e, pts, one);
  } else {
    return 0;
  }
  return 1;
}

/* Per profile, from the model's values or, from a lazy source, one profile
 * at a time as the source stores it (memory: the tree and one profile). */
static int per_profile(run_values *v, hpcdb_source *src, uint32_t m) {
  const hpcdb_experiment *e = src->q.exp;
  ids id = metric_ids(e, m, 0);
  double *one = calloc((size_t)e->n_contexts, sizeof *one), *pts = calloc((size_t)e->n_contexts, sizeof *pts);
  int rc = 0;
  if (!one || !pts) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for per-profile values");
  for (uint32_t p = 0; p < e->n_profiles && rc == 0; p++) {
    hpcdb_profile streamed = {0};
    const hpcdb_profile *pr = &e->profiles[p];
    const uint64_t *ints;
    if (pr->flags & HPCDB_PROFILE_SUMMARY) continue;
    if (src->extra.lazy) {
      if ((rc = hpcdb_source_profile(src, p, &streamed, &ints)) < 0) break;
      pr = &streamed;
    }
    int have = pr->n_values && profile_inclusive(e, pr, id, one, pts);
    hpcdb_profile_clear_values(&streamed);
    if (!have) continue;
    v->n_profiles++;
    for (uint32_t i = 0; i < e->n_contexts; i++) {
      v->psum[i] += one[i];
      v->pcount[i] += one[i] != 0;
      if (one[i] > v->pmax[i] || v->n_profiles == 1) v->pmax[i] = one[i];
    }
  }
  free(one);
  free(pts);
  return rc;
}

/* Without the profiles' values (read with HPCDB_READ_SUMMARY_ONLY): the mean
 * from the summary's Sum over the number of profiles, the max from its Max
 * statistic of the execution scope ($$ combined by max, as hpcprof writes
 * it), NaN (unknown) where it has none. */
static void from_statistics(run_values *v, const hpcdb_experiment *e, uint32_t m) {
  const hpcdb_profile *summary = NULL;
  for (uint32_t p = 0; p < e->n_profiles; p++) {
    if (e->profiles[p].flags & HPCDB_PROFILE_SUMMARY) summary = summary ? summary : &e->profiles[p];
    else v->n_profiles++;
  }
  if (!v->n_profiles) return;
  memcpy(v->psum, v->inc, (size_t)e->n_contexts * sizeof *v->psum);
  for (uint32_t i = 0; i < e->n_contexts; i++) v->pcount[i] = v->n_profiles; /* no count statistic read */
  const hpcdb_metric *mt = &e->metrics[m];
  int32_t max_id = -1;
  for (uint32_t k = 0; k < mt->n_summaries; k++) {
    const hpcdb_summary *s = &mt->summaries[k];
    if (e->scopes[s->scope].type == HPCDB_SCOPE_EXECUTION && s->combine == HPCDB_COMBINE_MAX && s->formula &&
        !strcmp(s->formula, "$$"))
      max_id = s->stat_metric_id;
  }
  if (max_id >= 0 && summary) {
    ids only_max = {max_id, -1, -1};
    add_values(e, summary, only_max, v->pmax, NULL);
  } else {
    for (uint32_t i = 0; i < e->n_contexts; i++) v->pmax[i] = NAN;
  }
}

static int have_profile_values(const hpcdb_experiment *e) {
  for (uint32_t p = 0; p < e->n_profiles; p++)
    if (!(e->profiles[p].flags & HPCDB_PROFILE_SUMMARY) && e->profiles[p].n_values) return 1;
  return 0;
}

int32_t compare_inclusive_id(const hpcdb_experiment *e, uint32_t metric) { return metric_ids(e, metric, 0).inc; }

int run_values_build(run_values *v, hpcdb_source *src, uint32_t metric, int skip_profiles) {
  const hpcdb_experiment *e = src->q.exp;
  memset(v, 0, sizeof *v);
  size_t n = (size_t)e->n_contexts + 1;
  v->inc = calloc(n, sizeof *v->inc);
  v->exc = calloc(n, sizeof *v->exc);
  v->psum = calloc(n, sizeof *v->psum);
  v->pmax = calloc(n, sizeof *v->pmax);
  v->pcount = calloc(n, sizeof *v->pcount);
  if (!v->inc || !v->exc || !v->psum || !v->pmax || !v->pcount) {
    run_values_free(v);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the values of %u contexts", e->n_contexts);
  }
  int rc = whole_run(v, src, metric);
  if (rc < 0) {
    run_values_free(v);
    return rc;
  }
  if (skip_profiles)
    for (uint32_t p = 0; p < e->n_profiles; p++) v->n_profiles += !(e->profiles[p].flags & HPCDB_PROFILE_SUMMARY);
  else if (src->extra.lazy || have_profile_values(e)) rc = per_profile(v, src, metric);
  else from_statistics(v, e, metric);
  if (rc < 0) run_values_free(v);
  return rc;
}

void run_values_free(run_values *v) {
  free(v->inc);
  free(v->exc);
  free(v->psum);
  free(v->pmax);
  free(v->pcount);
  memset(v, 0, sizeof *v);
}
