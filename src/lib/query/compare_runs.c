/* hpcdb_compare: the runs aligned, and each aligned node's values per run
 * (in the first run's unit), with the figures of one side against the other. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/compare_values.h"

static int fill_run(hpcdb_comparison *c, const hpcdb_experiment *e, const hpcdb_db *db, uint32_t r, double scale) {
  run_values v;
  HPCDB_TRY(run_values_build(&v, e, c->metric[r], db));
  const hpcdb_alignment *al = c->al;
  for (uint32_t n = 0; n < al->n_nodes; n++) {
    size_t k = (size_t)n * c->n_runs + r;
    uint32_t i = al->ctx[k];
    if (i == HPCDB_NONE) continue;
    c->inc[k] = v.inc[i] * scale;
    c->exc[k] = v.exc[i] * scale;
    c->pmean[k] = v.n_profiles ? v.psum[i] / v.n_profiles * scale : 0;
    c->pmax[k] = v.pmax[i] * scale;
  }
  c->n_profiles[r] = v.n_profiles;
  run_values_free(&v);
  return 0;
}

int hpcdb_compare(hpcdb_comparison **out, const hpcdb_experiment *const *runs, uint32_t n_runs,
                  const hpcdb_compare_options *options) {
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
  if (!c->metric || !c->seconds || !c->n_profiles || !c->inc || !c->exc || !c->pmean || !c->pmax) {
    rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory comparing runs");
    goto fail;
  }
  if ((rc = compare_pick_metrics(runs, n_runs, options ? options->metrics : NULL, c->metric)) < 0) goto fail;
  for (uint32_t r = 0; r < n_runs; r++) {
    const hpcdb_metric *m = &runs[r]->metrics[c->metric[r]];
    c->seconds[r] = compare_time_unit(m->name, m->unit);
    /* another time unit than the first run's: converted to the first's */
    double scale = c->seconds[0] && c->seconds[r] ? c->seconds[r] / c->seconds[0] : 1;
    const hpcdb_db *db = options && options->dbs ? options->dbs[r] : NULL;
    if ((rc = fill_run(c, runs[r], db, r, scale)) < 0) goto fail;
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
