/* The value interface over an experiment loaded whole. */
#include <stdlib.h>

#include "common/error.h"
#include "query/query_internal.h"

typedef struct model_source {
  const hpcdb_experiment *exp;
  int owned;
  uint32_t *plain; /* the non-summary profiles */
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

static int model_profiles(void *impl, uint32_t ctx, uint32_t metric, int inclusive, double *out, uint32_t n) {
  const model_source *s = impl;
  const hpcdb_experiment *e = s->exp;
  int32_t id_inc, id_exc;
  query_metric_ids(e, metric, 0, &id_inc, &id_exc);
  int32_t id = inclusive ? id_inc : id_exc;
  if (id < 0)
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "metric \"%s\" has no %s values per profile", e->metrics[metric].name,
                      inclusive ? "inclusive" : "exclusive");
  for (uint32_t k = 0; k < n && k < s->n_plain; k++)
    hpcdb_profile_value(&e->profiles[s->plain[k]], e->contexts[ctx].id, (uint16_t)id, &out[k]);
  return 0;
}

static void model_close(void *impl) {
  model_source *s = impl;
  if (!s) return;
  if (s->owned) hpcdb_experiment_free((hpcdb_experiment *)s->exp);
  free(s->plain);
  free(s);
}

static const hpcdb_qsource_ops model_ops = {"model", model_column, model_profiles, model_close};

int query_source_model(hpcdb_qsource *out, const hpcdb_experiment *exp, int owned) {
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
