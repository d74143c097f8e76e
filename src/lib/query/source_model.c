/* SPDX-License-Identifier: BSD-3-Clause */
/* The value interface over an experiment loaded whole. */
#include <stdlib.h>

#include "common/error.h"
#include "query/query_internal.h"

typedef struct model_source {
  const hpcdb_experiment *exp;
  hpcdb_experiment *owned; /* exp, when closing the source frees it; else NULL */
  uint32_t *plain;         /* the non-summary profiles */
  uint32_t n_plain;
} model_source;

/* The summary profile when there is one (the whole program), else the sum of all. */
static int model_column(void *impl, uint32_t metric, double *inc, double *exc, unsigned *have) {
  const model_source *s = impl;
  const hpcdb_experiment *e = s->exp;
  for (uint32_t p = 0; p < e->n_profiles; p++)
    if (e->profiles[p].flags & HPCDB_PROFILE_SUMMARY) {
      query_add_profile(e, &e->profiles[p], 1, metric, inc, exc, have);
      return 0;
    }
  for (uint32_t p = 0; p < e->n_profiles; p++) query_add_profile(e, &e->profiles[p], 0, metric, inc, exc, have);
  return 0;
}

/* Profiles that store only exclusive values (a measurement read directly):
 * each profile's inclusive value at ctx is the sum over ctx's subtree. */
static int subtree_sums(const model_source *s, uint32_t ctx, uint16_t id, double *out, uint32_t n) {
  const hpcdb_experiment *e = s->exp;
  uint8_t *in = calloc((size_t)e->n_contexts + 1, 1);
  if (!in) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  in[ctx] = 1;
  for (uint32_t i = ctx + 1; i < e->n_contexts; i++) /* children come after parents */
    in[i] = e->contexts[i].parent != HPCDB_NONE && in[e->contexts[i].parent];
  for (uint32_t k = 0; k < n && k < s->n_plain; k++) {
    const hpcdb_profile *p = &e->profiles[s->plain[k]];
    for (uint32_t c = 0; c < p->n_ctxs; c++) {
      uint32_t i = hpcdb_find_context(e, p->ctx_ids[c]);
      if (i == HPCDB_NONE || !in[i]) continue;
      for (uint64_t v = p->ctx_starts[c]; v < p->ctx_starts[c + 1]; v++)
        if (p->metric_ids[v] == id) out[k] += p->values[v];
    }
  }
  free(in);
  return 0;
}

static int model_profiles(void *impl, uint32_t ctx, uint32_t metric, int inclusive, double *out, uint32_t n) {
  const model_source *s = impl;
  const hpcdb_experiment *e = s->exp;
  int32_t id_inc, id_exc;
  query_metric_ids(e, metric, 0, &id_inc, &id_exc);
  if (inclusive && id_inc < 0 && id_exc >= 0) return subtree_sums(s, ctx, (uint16_t)id_exc, out, n);
  int32_t id = inclusive ? id_inc : id_exc;
  if (id < 0)
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "metric \"%s\" has no %s values per profile", e->metrics[metric].name,
                      inclusive ? "inclusive" : "exclusive");
  for (uint32_t k = 0; k < n && k < s->n_plain; k++)
    hpcdb_profile_value(&e->profiles[s->plain[k]], e->contexts[ctx].id, (uint16_t)id, &out[k]);
  return 0;
}

static int model_profile_column(void *impl, uint32_t profile, uint32_t metric, double *inc, double *exc,
                                unsigned *have) {
  const model_source *s = impl;
  const hpcdb_profile *p = &s->exp->profiles[profile];
  query_add_profile(s->exp, p, (p->flags & HPCDB_PROFILE_SUMMARY) != 0, metric, inc, exc, have);
  return 0;
}

static void model_close(void *impl) {
  model_source *s = impl;
  if (!s) return;
  hpcdb_experiment_free(s->owned);
  free(s->plain);
  free(s);
}

static const hpcdb_qsource_ops model_ops = {
    HPCDB_QSOURCE_OPS_VERSION, "model", model_column, model_profiles, model_close, model_profile_column};

int query_source_model(hpcdb_qsource *out, const hpcdb_experiment *exp, hpcdb_experiment *owned) {
  model_source *s = calloc(1, sizeof *s);
  if (!s) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  s->exp = exp;
  int rc = query_plain_profiles(exp, &s->plain, &s->n_plain);
  if (rc < 0) {
    free(s);
    return rc;
  }
  s->owned = owned;
  *out = (hpcdb_qsource){&model_ops, s, exp, s->n_plain, s->plain};
  return 0;
}

int query_source_model_profile(void *impl, uint32_t profile, hpcdb_profile *out, const uint64_t **ints) {
  return query_model_profile(((const model_source *)impl)->exp, profile, out, ints);
}
