/* SPDX-License-Identifier: BSD-3-Clause */
/* Columns: registering metrics and formulas, and their per-context values,
 * computed on demand and held for at most QUERY_RESIDENT columns at once
 * (the least recently used are dropped and recomputed when asked again). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/failpoint.h"
#include "query/expr.h"
#include "query/query_internal.h"

static void values_free(column_values *v) {
  if (!v) return;
  free(v->inc);
  free(v->exc);
  free(v->self);
  for (int a = 0; a < 2; a++) free(v->agg[a][0]), free(v->agg[a][1]);
  free(v);
}

void query_columns_free(hpcdb_query *q) {
  for (uint32_t c = 0; c < q->n_cols; c++) {
    values_free(q->cols[c].values);
    hpcdb_expr_free(q->cols[c].expr);
    free(q->cols[c].spec);
    free(q->cols[c].set);
  }
  free(q->cols);
}

static void evict_if_full(hpcdb_query *q) {
  uint32_t resident = 0, oldest = HPCDB_NONE;
  for (uint32_t c = 0; c < q->n_cols; c++) {
    if (!q->cols[c].values) continue;
    resident++;
    if (oldest == HPCDB_NONE || q->cols[c].values->used < q->cols[oldest].values->used) oldest = c;
  }
  if (resident >= QUERY_RESIDENT) {
    values_free(q->cols[oldest].values);
    q->cols[oldest].values = NULL;
  }
}

/* As hpcdb report: a missing inclusive flavour is the subtree sum of the
 * exclusive one, a missing exclusive one the inclusive minus the children's;
 * the root is what the source stores for it, else the sum of its children. */
static void derive(const hpcdb_experiment *e, column_values *v, unsigned have) {
  uint32_t n = e->n_contexts;
  if (!(have & HPCDB_QHAVE_INCLUSIVE)) {
    memcpy(v->inc, v->exc, (size_t)n * sizeof *v->inc);
    for (uint32_t i = n; i-- > 1;) v->inc[e->contexts[i].parent] += v->inc[i]; /* children come after parents */
  } else if (!(have & HPCDB_QHAVE_EXCLUSIVE)) {
    for (uint32_t i = 0; i < n; i++) {
      double x = v->inc[i];
      for (uint32_t k = e->contexts[i].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling) x -= v->inc[k];
      v->exc[i] = x;
    }
  }
  double root = v->inc[0];
  if (root == 0)
    for (uint32_t k = e->contexts[0].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling) root += v->inc[k];
  v->inc[0] = root;
  for (uint32_t i = 0; i < n; i++) {
    double x = v->inc[i];
    for (uint32_t k = e->contexts[i].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling) x -= v->inc[k];
    /* differences of inclusive values leave rounding noise: as hpcdb report, below 1e-9 of the total is 0 */
    v->self[i] = fabs(x) <= 1e-9 * fabs(root) ? 0 : x;
    if (fabs(v->exc[i]) <= 1e-9 * fabs(root)) v->exc[i] = 0;
  }
}

static int register_column(hpcdb_query *q, const char *spec, uint32_t profile, const uint32_t *set, uint32_t n_set,
                           hpcdb_qcolumn *out);

/* A metric's values from the source: the whole program's (profile HPCDB_NONE), or one profile's own. */
static int read_column(hpcdb_query *q, uint32_t profile, uint32_t metric, double *inc, double *exc, unsigned *have) {
  failpoint_delay("query-column");
  if (profile == HPCDB_NONE) return q->src.ops->column(q->src.impl, metric, inc, exc, have);
  if (!q->src.ops->profile_column) return hpcdb_fail(HPCDB_EUNSUPPORTED, "this source gives no profile's own values");
  return q->src.ops->profile_column(q->src.impl, profile, metric, inc, exc, have);
}

/* A metric's values summed over a group of profiles, each profile's own values from the source. */
static int sum_profiles(hpcdb_query *q, const column *c, column_values *v, unsigned *have) {
  uint32_t n = q->exp->n_contexts;
  double *inc = malloc(((size_t)n + 1) * sizeof *inc), *exc = malloc(((size_t)n + 1) * sizeof *exc);
  int rc = inc && exc ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u contexts", n);
  for (uint32_t k = 0; k < c->n_set && rc == 0; k++) {
    memset(inc, 0, (size_t)n * sizeof *inc);
    memset(exc, 0, (size_t)n * sizeof *exc);
    rc = read_column(q, c->set[k], c->metric, inc, exc, have);
    for (uint32_t i = 0; i < n && rc == 0; i++) v->inc[i] += inc[i], v->exc[i] += exc[i];
  }
  free(inc);
  free(exc);
  return rc;
}

/* A formula's values: each flavour is the formula over the inputs' same flavour (of the same
 * profiles). Called without the lock: each input is registered and copied under it. */
static int compute_derived(hpcdb_query *q, const hpcdb_expr *expr, uint32_t profile, const uint32_t *set,
                           uint32_t n_set, column_values *v) {
  uint32_t n = q->exp->n_contexts;
  const uint32_t *metrics;
  uint32_t k = hpcdb_expr_inputs(expr, &metrics);
  double *in = malloc(((size_t)k * 3 * n + 1) * sizeof *in); /* copies: computing one input may drop another */
  if (!in) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u contexts", n);
  int rc = 0;
  for (uint32_t j = 0; j < k && rc == 0; j++) {
    hpcdb_qcolumn ic;
    const column_values *iv;
    query_lock(q);
    rc = register_column(q, q->exp->metrics[metrics[j]].name, profile, set, n_set, &ic);
    if (rc == 0) rc = query_values(q, ic, &iv);
    if (rc == 0) {
      memcpy(in + (3 * j + 0) * (size_t)n, iv->inc, n * sizeof *in);
      memcpy(in + (3 * j + 1) * (size_t)n, iv->exc, n * sizeof *in);
      memcpy(in + (3 * j + 2) * (size_t)n, iv->self, n * sizeof *in);
    }
    query_unlock(q);
  }
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    double x[3][EXPR_MAX_INPUTS];
    for (uint32_t j = 0; j < k; j++)
      for (int f = 0; f < 3; f++) x[f][j] = in[(3 * j + (uint32_t)f) * (size_t)n + i];
    v->inc[i] = hpcdb_expr_eval(expr, x[0]);
    v->exc[i] = hpcdb_expr_eval(expr, x[1]);
    v->self[i] = hpcdb_expr_eval(expr, x[2]);
  }
  free(in);
  return rc;
}

/* A column's values, computed without the lock (from the source, or a formula's inputs). */
static int compute_values(hpcdb_query *q, const column *c, column_values **out) {
  uint32_t n = q->exp->n_contexts;
  *out = NULL;
  column_values *v = calloc(1, sizeof *v);
  if (v) {
    v->inc = calloc((size_t)n + 1, sizeof *v->inc);
    v->exc = calloc((size_t)n + 1, sizeof *v->exc);
    v->self = calloc((size_t)n + 1, sizeof *v->self);
  }
  if (!v || !v->inc || !v->exc || !v->self) {
    values_free(v);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u contexts", n);
  }
  int rc;
  if (c->metric != HPCDB_NONE) {
    unsigned have = 0;
    rc = c->set ? sum_profiles(q, c, v, &have) : read_column(q, c->profile, c->metric, v->inc, v->exc, &have);
    if (rc == 0) derive(q->exp, v, have);
  } else {
    rc = compute_derived(q, c->expr, c->profile, c->set, c->n_set, v);
  }
  if (rc < 0) values_free(v), v = NULL;
  *out = v;
  return rc;
}

int query_values(hpcdb_query *q, hpcdb_qcolumn col, const column_values **out) {
  if (col >= q->n_cols) return hpcdb_fail(HPCDB_EINVAL, "column %u does not exist", col);
  column *c = &q->cols[col];
  while (!c->values && c->computing) pthread_cond_wait(&q->computed, &q->lock);
  if (!c->values) {
    column_values *v;
    c->computing = 1;
    query_unlock(q);
    int rc = compute_values(q, c, &v);
    query_lock(q);
    c->computing = 0;
    pthread_cond_broadcast(&q->computed);
    HPCDB_TRY(rc);
    evict_if_full(q);
    c->values = v;
  }
  c->values->used = ++q->clock;
  *out = c->values;
  return 0;
}

static uint32_t metric_named(const hpcdb_experiment *e, const char *name) {
  for (uint32_t m = 0; m < e->n_metrics; m++)
    if (e->metrics[m].name && !strcmp(e->metrics[m].name, name)) return m;
  return HPCDB_NONE;
}

int hpcdb_query_column(hpcdb_query *q, const char *spec, hpcdb_qcolumn *out) {
  return hpcdb_query_profile_column(q, spec, HPCDB_NONE, out);
}

int hpcdb_query_profile_column(hpcdb_query *q, const char *spec, uint32_t profile, hpcdb_qcolumn *out) {
  if (profile != HPCDB_NONE && profile >= q->exp->n_profiles)
    return hpcdb_fail(HPCDB_EINVAL, "profile %u does not exist (the experiment has %u)", profile, q->exp->n_profiles);
  query_lock(q);
  int rc = register_column(q, spec, profile, NULL, 0, out);
  query_unlock(q);
  return rc;
}

int hpcdb_query_profiles_column(hpcdb_query *q, const char *spec, const uint32_t *profiles, uint32_t n,
                                hpcdb_qcolumn *out) {
  if (n == 0) return hpcdb_fail(HPCDB_EINVAL, "no profiles to sum");
  for (uint32_t k = 0; k < n; k++)
    if (profiles[k] >= q->exp->n_profiles)
      return hpcdb_fail(HPCDB_EINVAL, "profile %u does not exist (the experiment has %u)", profiles[k],
                        q->exp->n_profiles);
  query_lock(q);
  int rc = register_column(q, spec, HPCDB_NONE, profiles, n, out);
  query_unlock(q);
  return rc;
}

/* The column of spec over the whole program, one profile or a set of them: the one registered
 * before, else a new one (under the lock; counted once it is whole, for the readers without it). */
static int register_column(hpcdb_query *q, const char *spec, uint32_t profile, const uint32_t *set, uint32_t n_set,
                           hpcdb_qcolumn *out) {
  if (!spec || !*spec) return hpcdb_fail(HPCDB_EINVAL, "no metric or formula given");
  for (uint32_t c = 0; c < q->n_cols; c++)
    if (q->cols[c].profile == profile && !strcmp(q->cols[c].spec, spec) && q->cols[c].n_set == n_set &&
        (!n_set || !memcmp(q->cols[c].set, set, n_set * sizeof *set))) {
      *out = c;
      return 0;
    }
  if (q->n_cols == QUERY_MAX_COLUMNS)
    return hpcdb_fail(HPCDB_EINVAL, "more than %d metrics and formulas", QUERY_MAX_COLUMNS);
  column c = {NULL, profile, NULL, n_set, metric_named(q->exp, spec), NULL, 0, NULL, 0};
  if (c.metric == HPCDB_NONE) {
    HPCDB_TRY(hpcdb_expr_parse(&c.expr, spec, q->exp));
  } else {
    c.seconds = query_time_unit(q->exp->metrics[c.metric].name, q->exp->metrics[c.metric].unit);
  }
  if (n_set && (c.set = malloc(n_set * sizeof *set))) memcpy(c.set, set, n_set * sizeof *set);
  if (!(c.spec = strdup(spec)) || (n_set && !c.set)) {
    free(c.spec);
    free(c.set);
    hpcdb_expr_free(c.expr);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  q->cols[q->n_cols] = c;
  *out = q->n_cols++;
  return 0;
}

const char *hpcdb_query_column_name(const hpcdb_query *q, hpcdb_qcolumn col) {
  return col < q->n_cols ? q->cols[col].spec : NULL;
}

double hpcdb_query_column_seconds(const hpcdb_query *q, hpcdb_qcolumn col) {
  return col < q->n_cols ? q->cols[col].seconds : 0;
}

int hpcdb_query_column_integer(const hpcdb_query *q, hpcdb_qcolumn col) {
  return col < q->n_cols && q->cols[col].metric != HPCDB_NONE ? q->exp->metrics[q->cols[col].metric].integer : 0;
}

int hpcdb_query_total(hpcdb_query *q, hpcdb_qcolumn col, double *out) {
  const column_values *v;
  query_lock(q);
  int rc = query_values(q, col, &v);
  if (rc == 0) *out = v->inc[0];
  query_unlock(q);
  return rc;
}
