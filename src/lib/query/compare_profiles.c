/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-profile figures on demand: a node's mean and max over a run's profiles
 * from the run's source, one context at a time (a v4.0 database's cct.db
 * block, a Cube file's cnode row), for the nodes a presentation shows
 * instead of a pass over every profile. */
#include <math.h>
#include <stdlib.h>

#include "common/error.h"
#include "query/compare_private.h"

/* The figures of one run's context into the cell (scratch: n_plain values). */
static int one_cell(hpcdb_comparison *c, uint32_t r, uint32_t ctx, size_t cell, double *scratch) {
  const struct hpcdb_compare_private *pv = c->priv;
  const hpcdb_qsource *q = &pv->srcs[r]->q;
  double sum = 0, max = 0, count = 0;
  if (ctx != HPCDB_NONE) {
    for (uint32_t k = 0; k < q->n_profiles; k++) scratch[k] = 0;
    HPCDB_TRY(q->ops->profiles(q->impl, ctx, c->metric[r], 1, scratch, q->n_profiles));
    for (uint32_t k = 0; k < q->n_profiles; k++) {
      sum += scratch[k];
      count += scratch[k] != 0;
      if (scratch[k] > max) max = scratch[k];
    }
  }
  c->pmean[cell] = count != 0 ? sum / count * pv->scale[r] : 0;
  c->pmax[cell] = max * pv->scale[r];
  return 0;
}

int hpcdb_compare_profiles(hpcdb_comparison *c, const uint32_t *nodes, uint32_t n) {
  struct hpcdb_compare_private *pv = c->priv;
  if (!pv) return 0;
  for (uint32_t r = 0; r < c->n_runs; r++) {
    if (!pv->on_demand[r]) continue;
    double *scratch = malloc(((size_t)pv->srcs[r]->q.n_profiles + 1) * sizeof *scratch);
    if (!scratch) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the values of a node's profiles");
    int rc = 0;
    for (uint32_t k = 0; k < n && rc == 0; k++) {
      if (nodes[k] >= c->al->n_nodes) {
        rc = hpcdb_fail(HPCDB_EINVAL, "no aligned node %u", nodes[k]);
        break;
      }
      size_t cell = (size_t)nodes[k] * c->n_runs + r;
      if (isnan(c->pmax[cell])) rc = one_cell(c, r, c->al->ctx[cell], cell, scratch); /* else done, or absent (0) */
    }
    free(scratch);
    HPCDB_TRY(rc);
  }
  return 0;
}
