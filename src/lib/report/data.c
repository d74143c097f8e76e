/* SPDX-License-Identifier: BSD-3-Clause */
/* Building the report's columns and per-context values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "hpcdb/query.h"
#include "query/default_metric.h"
#include "query/metric_ids.h"
#include "report/report_data.h"

/* Ids of the metric's inclusive (execution) and exclusive (function, else
 * point) values; -1 when the metric has none. The summary of a sum is the
 * sum; of a minimum or maximum (Cube), the minimum or maximum. */
static void metric_ids(const hpcdb_experiment *e, uint32_t m, int stat, int32_t *inc, int32_t *exc) {
  query_scope_ids ids = query_scope_ids_of(e, m, stat, e->metrics[m].execution_combine);
  *inc = ids.execution;
  *exc = ids.function >= 0 ? ids.function : ids.point;
}

/* Without names: the default metric first, then the next metrics with
 * non-zero values (all metrics zero: the first three). */
static int default_columns(report_data *d, uint32_t max) {
  const hpcdb_experiment *e = d->exp;
  uint32_t first;
  HPCDB_TRY(hpcdb_default_metric(e, &first, &d->why));
  uint8_t *nz = calloc(e->n_metrics, 1);
  if (!nz) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int rc = query_nonzero_metrics(e, nz);
  d->cols[d->n_cols++].metric = first;
  int all_zero = !nz[first];
  for (uint32_t m = 0; rc == 0 && m < e->n_metrics && d->n_cols < max; m++) /* a minimum or maximum is no default */
    if (m != first && (nz[m] || all_zero) && e->metrics[m].execution_combine == HPCDB_COMBINE_SUM)
      d->cols[d->n_cols++].metric = m;
  free(nz);
  return rc;
}

static int pick_columns(report_data *d, const char *const *names, uint32_t n, uint32_t max_default) {
  const hpcdb_experiment *e = d->exp;
  if (!names || n == 0) {
    if (e->n_metrics) HPCDB_TRY(default_columns(d, max_default ? max_default : 3));
  } else {
    for (uint32_t i = 0; i < n; i++) {
      uint32_t m = 0;
      while (m < e->n_metrics && (!e->metrics[m].name || strcmp(e->metrics[m].name, names[i]) != 0)) m++;
      if (m == e->n_metrics) m = HPCDB_NONE, d->cols[d->n_cols].formula = names[i]; /* a formula: report_formulas */
      if (d->n_cols == REPORT_MAX_COLUMNS)
        return hpcdb_fail(HPCDB_EINVAL, "at most %d metrics at once", REPORT_MAX_COLUMNS);
      d->cols[d->n_cols++].metric = m;
    }
  }
  if (d->n_cols == 0) return hpcdb_fail(HPCDB_EINVAL, "the experiment has no metrics");
  for (uint32_t c = 0; c < d->n_cols; c++) {
    if (d->cols[c].formula) {
      d->cols[c].name = d->cols[c].formula;
      continue;
    }
    d->cols[c].name = e->metrics[d->cols[c].metric].name ? e->metrics[d->cols[c].metric].name : "?";
    d->cols[c].seconds = report_time_unit(d->cols[c].name, e->metrics[d->cols[c].metric].unit);
    d->cols[c].extreme = e->metrics[d->cols[c].metric].execution_combine;
    d->cols[c].integer = e->metrics[d->cols[c].metric].integer;
  }
  return 0;
}

/* Adds one profile's values of each column into the arrays (raw ids). */
static void add_profile(report_data *d, uint32_t profile, int stat, uint8_t *have_inc, uint8_t *have_exc) {
  const hpcdb_experiment *e = d->exp;
  const hpcdb_profile *p = &e->profiles[profile];
  for (uint32_t c = 0; c < d->n_cols; c++) {
    if (d->cols[c].formula) continue;
    int32_t inc, exc;
    metric_ids(e, d->cols[c].metric, stat, &inc, &exc);
    have_inc[c] |= inc >= 0;
    have_exc[c] |= exc >= 0;
    for (uint32_t k = 0; k < p->n_ctxs; k++) {
      uint32_t i = hpcdb_find_context(e, p->ctx_ids[k]);
      if (i == HPCDB_NONE) continue; /* hidden contexts are not shown */
      for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++) {
        size_t cell = (size_t)i * d->n_cols + c;
        if (p->metric_ids[v] == inc) d->inc[cell] += p->values[v], report_integers_add(d, profile, v, cell, 0);
        if (p->metric_ids[v] == exc) d->exc[cell] += p->values[v], report_integers_add(d, profile, v, cell, 1);
      }
    }
  }
}

/* A metric with no inclusive scope: subtree sums of the exclusive values;
 * none with an exclusive one: inclusive minus the children's inclusive. */
static void derive(report_data *d, const uint8_t *have_inc, const uint8_t *have_exc) {
  const hpcdb_experiment *e = d->exp;
  for (uint32_t c = 0; c < d->n_cols; c++) {
    if (d->cols[c].extreme) { /* a minimum or maximum: the stored values only (no sums, no differences) */
      d->total[c] = d->inc[c];
      for (uint32_t i = 0; i < e->n_contexts; i++)
        d->self[(size_t)i * d->n_cols + c] = d->exc[(size_t)i * d->n_cols + c];
      continue;
    }
    if (!have_inc[c]) {
      for (uint32_t i = 0; i < e->n_contexts; i++)
        d->inc[(size_t)i * d->n_cols + c] = d->exc[(size_t)i * d->n_cols + c];
      for (uint32_t i = e->n_contexts; i-- > 1;) /* children come after parents */
        d->inc[(size_t)e->contexts[i].parent * d->n_cols + c] += d->inc[(size_t)i * d->n_cols + c];
    } else if (!have_exc[c]) {
      for (uint32_t i = 0; i < e->n_contexts; i++) {
        double v = d->inc[(size_t)i * d->n_cols + c];
        for (uint32_t k = e->contexts[i].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling)
          v -= d->inc[(size_t)k * d->n_cols + c];
        d->exc[(size_t)i * d->n_cols + c] = v;
      }
    }
    /* the root: what the source stores for the global context, else its children */
    double root = d->inc[c];
    if (root == 0)
      for (uint32_t k = e->contexts[0].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling)
        root += d->inc[(size_t)k * d->n_cols + c];
    d->inc[c] = d->total[c] = root;
    for (uint32_t i = 0; i < e->n_contexts; i++) {
      double v = d->inc[(size_t)i * d->n_cols + c];
      for (uint32_t k = e->contexts[i].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling)
        v -= d->inc[(size_t)k * d->n_cols + c];
      /* rounding noise of the differences (a cost the data says is 0) is 0, never -0.000 */
      d->self[(size_t)i * d->n_cols + c] = fabs(v) <= 1e-9 * fabs(root) ? 0 : v;
    }
  }
}

/* Formula columns (--metric '$0 / $1 * 100'): the query layer's one
 * expression engine computes them, for the whole program only. */
static int report_formulas(report_data *d, uint8_t *have_inc, uint8_t *have_exc) {
  hpcdb_query *q = NULL;
  for (uint32_t c = 0; c < d->n_cols; c++) {
    if (!d->cols[c].formula) continue;
    hpcdb_qcolumn col;
    int rc = q ? 0 : hpcdb_query_from_experiment(&q, d->exp);
    if (rc == 0) rc = hpcdb_query_column(q, d->cols[c].formula, &col);
    for (uint32_t i = 0; rc == 0 && i < d->exp->n_contexts; i++)
      rc = hpcdb_query_value(q, HPCDB_QVIEW_TOP_DOWN, col, i, &d->inc[(size_t)i * d->n_cols + c],
                             &d->exc[(size_t)i * d->n_cols + c]);
    if (rc < 0) {
      hpcdb_query_close(q);
      return rc;
    }
    have_inc[c] = have_exc[c] = 1;
  }
  hpcdb_query_close(q);
  return 0;
}

int report_data_build(report_data *d, const hpcdb_experiment *exp, const char *const *metrics, uint32_t n_metrics,
                      const char *profile, uint32_t max_default) {
  memset(d, 0, sizeof *d);
  d->exp = exp;
  HPCDB_TRY(pick_columns(d, metrics, n_metrics, max_default));
  size_t cells = ((size_t)exp->n_contexts + 1) * d->n_cols;
  d->inc = calloc(cells, sizeof *d->inc);
  d->exc = calloc(cells, sizeof *d->exc);
  d->self = calloc(cells, sizeof *d->self);
  if (!d->inc || !d->exc || !d->self || report_integers_alloc(d) < 0) {
    report_data_free(d);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the report");
  }
  uint8_t have_inc[REPORT_MAX_COLUMNS] = {0}, have_exc[REPORT_MAX_COLUMNS] = {0};
  uint32_t used = 0;
  for (uint32_t p = 0; p < exp->n_profiles; p++) {
    const hpcdb_profile *pr = &exp->profiles[p];
    int summary = (pr->flags & HPCDB_PROFILE_SUMMARY) != 0;
    if (profile) { /* one identity, or every profile a pattern selects, summed */
      if (!hpcdb_profile_matches(exp, pr, profile)) continue;
      add_profile(d, p, summary, have_inc, have_exc);
      used++;
      if (used == 1) hpcdb_profile_identity(exp, pr, d->source_buf, sizeof d->source_buf);
      else snprintf(d->source_buf, sizeof d->source_buf, "sum of %u profiles matching %s", used, profile);
      continue;
    }
    if (summary) { /* the canonical summary is the whole program */
      add_profile(d, p, 1, have_inc, have_exc);
      snprintf(d->source_buf, sizeof d->source_buf, "summary profile (sum over threads)");
      used = 1;
      break;
    }
  }
  if (!used && !profile) {
    for (uint32_t p = 0; p < exp->n_profiles; p++) add_profile(d, p, 0, have_inc, have_exc);
    snprintf(d->source_buf, sizeof d->source_buf, "sum of %u profiles", exp->n_profiles);
    used = 1;
  }
  if (!used) {
    report_data_free(d);
    return hpcdb_fail(HPCDB_EINVAL, "no profile %s \"%s\" ('hpcdb report --view profiles' lists them)",
                      strchr(profile, '=') ? "matches" : "has the identity", profile);
  }
  d->source = d->source_buf;
  int rc = report_formulas(d, have_inc, have_exc);
  if (rc < 0) {
    report_data_free(d);
    return rc;
  }
  derive(d, have_inc, have_exc);
  report_integers_derive(d, have_inc, have_exc);
  return 0;
}

void report_data_free(report_data *d) {
  free(d->inc);
  free(d->exc);
  free(d->self);
  free(d->iinc);
  free(d->iexc);
  free(d->iself);
  d->inc = d->exc = d->self = NULL;
  d->iinc = d->iexc = d->iself = NULL;
}
