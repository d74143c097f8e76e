/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-profile figures on demand: a node's mean and max over a run's profiles
 * from the run's cct.db, one context at a time (hpcdb_db_context_scan), for
 * the nodes a presentation shows instead of a pass over every profile. */
#include <math.h>
#include <stdlib.h>

#include "common/error.h"
#include "query/compare_private.h"

typedef struct acc {
  const hpcdb_experiment *e;
  uint32_t metric;
  double sum, max, count;
} acc;

static int add(void *user, uint32_t metric, uint32_t profile, double value) {
  acc *a = user;
  if (metric != a->metric) return 0;
  if (profile < a->e->n_profiles && (a->e->profiles[profile].flags & HPCDB_PROFILE_SUMMARY)) return 0;
  a->sum += value;
  a->count += value != 0;
  if (value > a->max) a->max = value;
  return 0;
}

int hpcdb_compare_profiles(hpcdb_comparison *c, const uint32_t *nodes, uint32_t n) {
  struct hpcdb_compare_private *pv = c->priv;
  if (!pv) return 0;
  for (uint32_t r = 0; r < c->n_runs; r++) {
    if (!pv->on_demand[r]) continue;
    const hpcdb_experiment *e = pv->runs[r];
    for (uint32_t k = 0; k < n; k++) {
      if (nodes[k] >= c->al->n_nodes) return hpcdb_fail(HPCDB_EINVAL, "no aligned node %u", nodes[k]);
      size_t cell = (size_t)nodes[k] * c->n_runs + r;
      uint32_t i = c->al->ctx[cell];
      if (!isnan(c->pmax[cell])) continue; /* done, or absent (0) */
      acc a = {e, (uint32_t)pv->inc_id[r], 0, 0, 0};
      /* every metric's slice: that block is read with pread, not touched through the mapping,
       * so the resident set stays one block however many nodes are asked for */
      if (i != HPCDB_NONE) HPCDB_TRY(hpcdb_db_context_scan(pv->dbs[r], e->contexts[i].id, HPCDB_ALL_METRICS, add, &a));
      c->pmean[cell] = a.count ? a.sum / a.count * pv->scale[r] : 0;
      c->pmax[cell] = a.max * pv->scale[r];
    }
  }
  return 0;
}
