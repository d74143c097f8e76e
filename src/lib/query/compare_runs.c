/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_compare: the runs aligned, and each aligned node's values per run
 * (in the first run's unit), with the figures of one side against the other. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/compare_private.h"
#include "query/compare_values.h"

static int fill_run(hpcdb_comparison *c, uint32_t r) {
  struct hpcdb_compare_private *pv = c->priv;
  double scale = pv->scale[r];
  int later = pv->on_demand[r];
  run_values v;
  HPCDB_TRY(run_values_build(&v, pv->srcs[r], c->metric[r], later));
  const hpcdb_alignment *al = c->al;
  for (uint32_t n = 0; n < al->n_nodes; n++) {
    size_t k = (size_t)n * c->n_runs + r;
    uint32_t i = al->ctx[k];
    if (i == HPCDB_NONE) continue;
    c->inc[k] = v.inc[i] * scale;
    c->exc[k] = v.exc[i] * scale;
    c->pmean[k] = later ? NAN : v.pcount[i] != 0 ? v.psum[i] / v.pcount[i] * scale : 0;
    c->pmax[k] = later ? NAN : v.pmax[i] * scale;
  }
  c->n_profiles[r] = v.n_profiles;
  run_values_free(&v);
  return 0;
}

/* The comparison's per-run arrays and its references to the sources. */
static int compare_alloc(hpcdb_comparison *c, hpcdb_source *const *srcs, uint32_t n_runs) {
  c->metric = calloc(n_runs, sizeof *c->metric);
  c->seconds = calloc(n_runs, sizeof *c->seconds);
  c->n_profiles = calloc(n_runs, sizeof *c->n_profiles);
  struct hpcdb_compare_private *pv = c->priv = calloc(1, sizeof *c->priv);
  if (pv) {
    pthread_mutex_init(&pv->lock, NULL);
    pv->srcs = calloc(n_runs, sizeof *pv->srcs);
    pv->runs = calloc(n_runs, sizeof *pv->runs);
    pv->inc_id = calloc(n_runs, sizeof *pv->inc_id);
    pv->scale = calloc(n_runs, sizeof *pv->scale);
    pv->on_demand = calloc(n_runs, sizeof *pv->on_demand);
  }
  if (!c->metric || !c->seconds || !c->n_profiles || !pv || !pv->srcs || !pv->runs || !pv->inc_id || !pv->scale ||
      !pv->on_demand)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory comparing runs");
  for (uint32_t r = 0; r < n_runs; r++) {
    pv->srcs[r] = hpcdb_source_ref(srcs[r]);
    pv->runs[r] = srcs[r]->q.exp;
  }
  return 0;
}

/* The values of every aligned node per run. */
static int compare_cells(hpcdb_comparison *c) {
  size_t cells = (size_t)c->al->n_nodes * c->n_runs;
  c->inc = calloc(cells, sizeof *c->inc);
  c->exc = calloc(cells, sizeof *c->exc);
  c->pmean = calloc(cells, sizeof *c->pmean);
  c->pmax = calloc(cells, sizeof *c->pmax);
  return c->inc && c->exc && c->pmean && c->pmax ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory comparing runs");
}

int hpcdb_compare_sources(hpcdb_comparison **out, hpcdb_source *const *srcs, uint32_t n_runs,
                          const hpcdb_compare_options *options) {
  *out = NULL;
  HPCDB_CHECK_OPTIONS(options, HPCDB_COMPARE_OPTIONS_VERSION, "hpcdb_compare_options");
  hpcdb_comparison *c = calloc(1, sizeof *c);
  if (!c) return hpcdb_fail(HPCDB_ENOMEM, "out of memory comparing runs");
  c->n_runs = n_runs;
  int rc = compare_alloc(c, srcs, n_runs);
  if (rc == 0) rc = hpcdb_align(&c->al, c->priv->runs, n_runs, options ? &options->align : NULL);
  if (rc == 0) rc = compare_cells(c);
  if (rc == 0) rc = compare_pick_metrics(srcs, n_runs, options ? options->metrics : NULL, c->metric);
  struct hpcdb_compare_private *pv = c->priv;
  for (uint32_t r = 0; rc == 0 && r < n_runs; r++) {
    const hpcdb_source *src = srcs[r];
    const hpcdb_metric *m = &src->q.exp->metrics[c->metric[r]];
    c->seconds[r] = compare_time_unit(m->name, m->unit);
    /* another time unit than the first run's: converted to the first's */
    pv->scale[r] = c->seconds[0] != 0 && c->seconds[r] != 0 ? c->seconds[r] / c->seconds[0] : 1;
    pv->inc_id[r] = compare_inclusive_id(src->q.exp, c->metric[r]);
    pv->on_demand[r] =
        options && options->profiles_on_demand && src->extra.lazy && src->extra.per_context && pv->inc_id[r] >= 0;
    rc = fill_run(c, r);
  }
  if (rc < 0) {
    hpcdb_comparison_free(c);
    return rc;
  }
  *out = c;
  return 0;
}

int hpcdb_compare(hpcdb_comparison **out, const hpcdb_experiment *const *runs, uint32_t n_runs,
                  const hpcdb_compare_options *options) {
  *out = NULL;
  hpcdb_source **srcs = calloc((size_t)n_runs + 1, sizeof *srcs);
  int rc = srcs ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory comparing runs");
  for (uint32_t r = 0; rc == 0 && r < n_runs; r++) rc = hpcdb_source_from_experiment(&srcs[r], runs[r]);
  if (rc == 0) rc = hpcdb_compare_sources(out, srcs, n_runs, options);
  for (uint32_t r = 0; srcs && r < n_runs; r++) hpcdb_source_close(srcs[r]);
  free(srcs);
  return rc;
}

void hpcdb_comparison_free(hpcdb_comparison *c) {
  if (!c) return;
  hpcdb_alignment_free(c->al);
  free(c->metric);
  free(c->seconds);
  free(c->n_profiles);
  free(c->inc);
  free(c->exc);
  free(c->pmean);
  free(c->pmax);
  if (c->priv) {
    for (uint32_t r = 0; c->priv->srcs && r < c->n_runs; r++) hpcdb_source_close(c->priv->srcs[r]);
    free(c->priv->srcs);
    free(c->priv->runs);
    free(c->priv->inc_id);
    free(c->priv->scale);
    free(c->priv->on_demand);
    pthread_mutex_destroy(&c->priv->lock);
    free(c->priv);
  }
  free(c);
}

static void side(const double *row, uint32_t from, uint32_t to, double *mean, double *spread) {
  double sum = 0, lo = INFINITY, hi = -INFINITY;
  for (uint32_t r = from; r < to; r++) {
    sum += row[r];
    lo = fmin(lo, row[r]);
    hi = fmax(hi, row[r]);
  }
  *mean = to > from ? sum / (to - from) : 0;
  *spread = to > from ? hi - lo : 0;
}

void hpcdb_compare_delta(const hpcdb_comparison *c, uint32_t node, uint32_t n_a, int inclusive, int stat,
                         hpcdb_delta *d) {
  const double *all = stat == 1 ? c->pmean : stat == 2 ? c->pmax : inclusive ? c->inc : c->exc;
  hpcdb_delta_of(all + (size_t)node * c->n_runs, c->n_runs, n_a, d);
}

void hpcdb_delta_of(const double *row, uint32_t n_runs, uint32_t n_a, hpcdb_delta *d) {
  if (n_a > n_runs) n_a = n_runs;
  side(row, 0, n_a, &d->a, &d->spread_a);
  side(row, n_a, n_runs, &d->b, &d->spread_b);
  d->delta = d->b - d->a;
  /* sums taken in another order (another format's reader) differ in the last bits */
  if (fabs(d->delta) <= 1e-9 * fmax(fabs(d->a), fabs(d->b))) d->delta = 0, d->b = d->a;
  d->ratio = d->a != 0 ? d->b / d->a : d->b != 0 ? INFINITY : 1;
  d->noise = fabs(d->delta) <= fmax(d->spread_a, d->spread_b);
}

double hpcdb_compare_imbalance(const hpcdb_comparison *c, uint32_t node, uint32_t run) {
  size_t k = (size_t)node * c->n_runs + run;
  return c->pmean[k] > 0 ? c->pmax[k] / c->pmean[k] - 1 : 0;
}
