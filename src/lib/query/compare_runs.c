/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_compare: the runs aligned, and each aligned node's values per run
 * (in the first run's unit), with the figures of one side against the other. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/compare_private.h"
#include "query/compare_values.h"

static int fill_run(hpcdb_comparison *c, const hpcdb_experiment *e, uint32_t r) {
  struct hpcdb_compare_private *pv = c->priv;
  double scale = pv->scale[r];
  int later = pv->on_demand[r];
  run_values v;
  HPCDB_TRY(run_values_build(&v, e, c->metric[r], pv->dbs[r], later));
  const hpcdb_alignment *al = c->al;
  for (uint32_t n = 0; n < al->n_nodes; n++) {
    size_t k = (size_t)n * c->n_runs + r;
    uint32_t i = al->ctx[k];
    if (i == HPCDB_NONE) continue;
    c->inc[k] = v.inc[i] * scale;
    c->exc[k] = v.exc[i] * scale;
    c->pmean[k] = later ? NAN : v.pcount[i] ? v.psum[i] / v.pcount[i] * scale : 0;
    c->pmax[k] = later ? NAN : v.pmax[i] * scale;
  }
  c->n_profiles[r] = v.n_profiles;
  run_values_free(&v);
  return 0;
}

int hpcdb_compare(hpcdb_comparison **out, const hpcdb_experiment *const *runs, uint32_t n_runs,
                  const hpcdb_compare_options *options) {
  HPCDB_CHECK_OPTIONS(options, HPCDB_COMPARE_OPTIONS_VERSION, "hpcdb_compare_options");
  *out = NULL;
  hpcdb_comparison *c = calloc(1, sizeof *c);
  if (!c) return hpcdb_fail(HPCDB_ENOMEM, "out of memory comparing runs");
  c->n_runs = n_runs;
  int rc = hpcdb_align(&c->al, runs, n_runs, options ? &options->align : NULL);
  if (rc < 0) goto fail;
  size_t cells = (size_t)c->al->n_nodes * n_runs;
  c->metric = calloc(n_runs, sizeof *c->metric);
  c->seconds = calloc(n_runs, sizeof *c->seconds);
  c->n_profiles = calloc(n_runs, sizeof *c->n_profiles);
  c->inc = calloc(cells, sizeof *c->inc);
  c->exc = calloc(cells, sizeof *c->exc);
  c->pmean = calloc(cells, sizeof *c->pmean);
  c->pmax = calloc(cells, sizeof *c->pmax);
  c->priv = calloc(1, sizeof *c->priv);
  if (c->priv) {
    c->priv->runs = runs;
    c->priv->dbs = calloc(n_runs, sizeof *c->priv->dbs);
    c->priv->inc_id = calloc(n_runs, sizeof *c->priv->inc_id);
    c->priv->scale = calloc(n_runs, sizeof *c->priv->scale);
    c->priv->on_demand = calloc(n_runs, sizeof *c->priv->on_demand);
  }
  if (!c->metric || !c->seconds || !c->n_profiles || !c->inc || !c->exc || !c->pmean || !c->pmax || !c->priv ||
      !c->priv->dbs || !c->priv->inc_id || !c->priv->scale || !c->priv->on_demand) {
    rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory comparing runs");
    goto fail;
  }
  if ((rc = compare_pick_metrics(runs, n_runs, options ? options->metrics : NULL, c->metric)) < 0) goto fail;
  struct hpcdb_compare_private *pv = c->priv;
  for (uint32_t r = 0; r < n_runs; r++) {
    const hpcdb_metric *m = &runs[r]->metrics[c->metric[r]];
    c->seconds[r] = compare_time_unit(m->name, m->unit);
    /* another time unit than the first run's: converted to the first's */
    pv->scale[r] = c->seconds[0] && c->seconds[r] ? c->seconds[r] / c->seconds[0] : 1;
    pv->dbs[r] = options && options->dbs ? options->dbs[r] : NULL;
    pv->inc_id[r] = compare_inclusive_id(runs[r], c->metric[r]);
    pv->on_demand[r] = options && options->profiles_on_demand && pv->dbs[r] && pv->inc_id[r] >= 0 &&
                       hpcdb_db_context_count(pv->dbs[r]) > 0;
    if ((rc = fill_run(c, runs[r], r)) < 0) goto fail;
  }
  *out = c;
  return 0;
fail:
  hpcdb_comparison_free(c);
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
    free(c->priv->dbs);
    free(c->priv->inc_id);
    free(c->priv->scale);
    free(c->priv->on_demand);
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

void hpcdb_compare_delta(const hpcdb_comparison *c, uint32_t node, uint32_t n_a, int inclusive, int stat, hpcdb_delta *d) {
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
