/* SPDX-License-Identifier: BSD-3-Clause */
/* A metric's values in one profile of the model, as hpcdb report takes them:
 * shared by the sources that hold profiles in the model's form. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/metric_ids.h"
#include "query/query_internal.h"

query_scope_ids query_scope_ids_of(const hpcdb_experiment *e, uint32_t m, int stat, uint8_t combine) {
  const hpcdb_metric *mt = &e->metrics[m];
  query_scope_ids out = {-1, -1, -1};
  uint32_t n = stat ? mt->n_summaries : mt->n_instances;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t scope = stat ? mt->summaries[k].scope : mt->instances[k].scope;
    int32_t id = stat ? mt->summaries[k].stat_metric_id : mt->instances[k].prop_metric_id;
    if (stat && (mt->summaries[k].combine != combine || !mt->summaries[k].formula ||
                 strcmp(mt->summaries[k].formula, "$$") != 0))
      continue;
    if (scope >= e->n_scopes) continue;
    const hpcdb_scope *s = &e->scopes[scope];
    if (s->type == HPCDB_SCOPE_EXECUTION) out.execution = id;
    else if (s->type == HPCDB_SCOPE_POINT) out.point = id;
    else if (s->type == HPCDB_SCOPE_TRANSITIVE && s->name && !strcmp(s->name, "function")) out.function = id;
  }
  return out;
}

void query_metric_ids(const hpcdb_experiment *e, uint32_t m, int stat, int32_t *inc, int32_t *exc) {
  query_scope_ids ids = query_scope_ids_of(e, m, stat, HPCDB_COMBINE_SUM);
  *inc = ids.execution;
  *exc = ids.function >= 0 ? ids.function : ids.point;
}

void query_add_profile(const hpcdb_experiment *e, const hpcdb_profile *p, int stat, uint32_t m, double *inc,
                       double *exc, unsigned *have) {
  int32_t id_inc, id_exc;
  query_metric_ids(e, m, stat, &id_inc, &id_exc);
  if (id_inc >= 0) *have |= HPCDB_QHAVE_INCLUSIVE;
  if (id_exc >= 0) *have |= HPCDB_QHAVE_EXCLUSIVE;
  for (uint32_t k = 0; k < p->n_ctxs; k++) {
    uint32_t i = hpcdb_find_context(e, p->ctx_ids[k]);
    if (i == HPCDB_NONE) continue; /* contexts outside the tree are not shown */
    for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++) {
      if (p->metric_ids[v] == id_inc) inc[i] += p->values[v];
      if (p->metric_ids[v] == id_exc) exc[i] += p->values[v];
    }
  }
}

int query_plain_profiles(const hpcdb_experiment *e, uint32_t **out, uint32_t *n) {
  *n = 0;
  *out = malloc(((size_t)e->n_profiles + 1) * sizeof **out);
  if (!*out) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t p = 0; p < e->n_profiles; p++)
    if (!(e->profiles[p].flags & HPCDB_PROFILE_SUMMARY)) (*out)[(*n)++] = p;
  return 0;
}
