/* SPDX-License-Identifier: BSD-3-Clause */
/* What a model must satisfy before the writer turns it into v4.0 files: the
 * rules of the format that the model itself does not enforce. */
#include <stdlib.h>

#include "common/error.h"
#include "hpctk4/hpctk4_write.h"

#define ID_PROP 1u
#define ID_STAT 2u

static int check_profiles(const hpcdb_experiment *exp, const uint8_t *id_kind) {
  for (uint32_t i = 0; i < exp->n_profiles; i++) {
    const hpcdb_profile *p = &exp->profiles[i];
    int summary = (p->flags & HPCDB_PROFILE_SUMMARY) != 0;
    if (i == 0 && (!summary || p->has_id_tuple))
      return hpcdb_fail(HPCDB_EINVAL, "v4.0 needs the canonical summary profile (summary flag, no id tuple) first");
    if (i > 0 && !p->has_id_tuple)
      return hpcdb_fail(HPCDB_EINVAL, "profile %u has no id tuple (only the first profile may lack one)", i);
    for (uint16_t k = 0; k < p->n_ids; k++)
      if (p->ids[k].kind > UINT8_MAX)
        return hpcdb_fail(HPCDB_EUNSUPPORTED, "profile %u: identifier kind %u does not fit v4.0's u8", i,
                          p->ids[k].kind);
    uint8_t need = summary ? ID_STAT : ID_PROP;
    for (uint64_t v = 0; v < p->n_values; v++)
      if (!(id_kind[p->metric_ids[v]] & need))
        return hpcdb_fail(HPCDB_EINVAL, "profile %u: metric id %u is not a %s metric id of any metric", i,
                          p->metric_ids[v], summary ? "statistic (statMetricId)" : "propagated (propMetricId)");
  }
  return 0;
}

static int check_contexts(const hpcdb_experiment *exp) {
  uint32_t entries = 0;
  for (uint32_t i = 1; i < exp->n_contexts; i++) {
    const hpcdb_context *c = &exp->contexts[i];
    int top = c->parent == 0;
    if (top != (c->kind == HPCDB_CTX_ENTRY))
      return hpcdb_fail(HPCDB_EUNSUPPORTED,
                        "context %u: v4.0 needs entry points exactly as the children of the global context", c->id);
    if (top) entries++;
  }
  if (entries > UINT16_MAX) return hpcdb_fail(HPCDB_EUNSUPPORTED, "%u entry points do not fit v4.0's u16", entries);
  return 0;
}

static int check_tables(const hpcdb_experiment *exp) {
  if (exp->n_kind_names > UINT8_MAX)
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "%u identifier kinds do not fit v4.0's u8", exp->n_kind_names);
  if (exp->n_scopes > UINT16_MAX)
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "%u propagation scopes do not fit v4.0's u16", exp->n_scopes);
  for (uint32_t i = 0; i < exp->n_metrics; i++)
    if (exp->metrics[i].n_instances > UINT16_MAX || exp->metrics[i].n_summaries > UINT16_MAX)
      return hpcdb_fail(HPCDB_EUNSUPPORTED, "metric %s has more sub-metrics than v4.0's u16 counts",
                        exp->metrics[i].name);
  for (uint32_t i = 0; i < exp->n_functions; i++) {
    const hpcdb_function *f = &exp->functions[i];
    if (!f->name && f->module == HPCDB_NONE && f->file == HPCDB_NONE)
      return hpcdb_fail(HPCDB_EINVAL, "function %u has no name, module or file (v4.0 needs one)", i);
  }
  for (uint32_t i = 0; i < exp->n_traces; i++) {
    const hpcdb_trace *t = &exp->traces[i];
    for (uint64_t k = 1; k < t->n; k++)
      if (t->timestamps[k] < t->timestamps[k - 1])
        return hpcdb_fail(HPCDB_EINVAL, "trace %u: timestamps decrease at sample %llu", i, (unsigned long long)k);
  }
  return 0;
}

int hpctk4_check_writable(const hpcdb_experiment *exp) {
  HPCDB_TRY(check_tables(exp));
  HPCDB_TRY(check_contexts(exp));
  uint8_t *id_kind = calloc(UINT16_MAX + 1, 1);
  if (!id_kind) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < exp->n_metrics; i++) {
    const hpcdb_metric *m = &exp->metrics[i];
    for (uint32_t k = 0; k < m->n_instances; k++) id_kind[m->instances[k].prop_metric_id] |= ID_PROP;
    for (uint32_t k = 0; k < m->n_summaries; k++) id_kind[m->summaries[k].stat_metric_id] |= ID_STAT;
  }
  int rc = check_profiles(exp, id_kind);
  free(id_kind);
  return rc;
}
