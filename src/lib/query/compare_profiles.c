/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-profile figures on demand: a node's mean and max over a run's profiles
 * from the run's source, one context at a time (a v4.0 database's cct.db
 * block, a Cube file's cnode row), for the nodes a presentation shows
 * instead of a pass over every profile. Several threads may ask at once
 * (hpcdb view's requests): each cell is read without the comparison's lock
 * and stored under it (compare_private.h). */
#include <math.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/failpoint.h"
#include "query/compare_private.h"

/* The mean and max of one run's context over its profiles (scratch: n_plain values). */
static int one_cell(const hpcdb_comparison *c, uint32_t r, uint32_t ctx, double *scratch, double *mean, double *max) {
  const struct hpcdb_compare_private *pv = c->priv;
  const hpcdb_qsource *q = &pv->srcs[r]->q;
  double sum = 0, most = 0, count = 0;
  if (ctx != HPCDB_NONE) {
    for (uint32_t k = 0; k < q->n_profiles; k++) scratch[k] = 0;
    HPCDB_TRY(q->ops->profiles(q->impl, ctx, c->metric[r], 1, scratch, q->n_profiles));
    for (uint32_t k = 0; k < q->n_profiles; k++) {
      sum += scratch[k];
      count += scratch[k] != 0;
      if (scratch[k] > most) most = scratch[k];
    }
  }
  failpoint_delay("compare-node");
  *mean = count != 0 ? sum / count * pv->scale[r] : 0;
  *max = most * pv->scale[r];
  return 0;
}

static int cell_missing(struct hpcdb_compare_private *pv, const double *pmax, size_t cell) {
  pthread_mutex_lock(&pv->lock);
  int missing = isnan(pmax[cell]); /* else done, or absent (0) */
  pthread_mutex_unlock(&pv->lock);
  return missing;
}

/* Run r's figures of the nodes not done yet (another thread may do one at the same time: the same values). */
static int run_cells(hpcdb_comparison *c, uint32_t r, const uint32_t *nodes, uint32_t n) {
  struct hpcdb_compare_private *pv = c->priv;
  double *scratch = malloc(((size_t)pv->srcs[r]->q.n_profiles + 1) * sizeof *scratch);
  if (!scratch) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the values of a node's profiles");
  int rc = 0;
  for (uint32_t k = 0; k < n && rc == 0; k++) {
    size_t cell = (size_t)nodes[k] * c->n_runs + r;
    double mean, max;
    if (!cell_missing(pv, c->pmax, cell) || (rc = one_cell(c, r, c->al->ctx[cell], scratch, &mean, &max)) < 0) continue;
    pthread_mutex_lock(&pv->lock);
    if (isnan(c->pmax[cell])) c->pmean[cell] = mean, c->pmax[cell] = max;
    pthread_mutex_unlock(&pv->lock);
  }
  free(scratch);
  return rc;
}

int hpcdb_compare_profiles(hpcdb_comparison *c, const uint32_t *nodes, uint32_t n) {
  struct hpcdb_compare_private *pv = c->priv;
  if (!pv) return 0;
  for (uint32_t k = 0; k < n; k++)
    if (nodes[k] >= c->al->n_nodes) return hpcdb_fail(HPCDB_EINVAL, "no aligned node %u", nodes[k]);
  for (uint32_t r = 0; r < c->n_runs; r++)
    if (pv->on_demand[r]) HPCDB_TRY(run_cells(c, r, nodes, n));
  return 0;
}
