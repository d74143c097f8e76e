/* SPDX-License-Identifier: BSD-3-Clause */
/* Profiles, their sparse values, and traces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/error.h"
#include "common/vec.h"
#include "model/model_build.h"
#include "model/model_private.h"

int hpcdb_add_profile(hpcdb_experiment *exp, uint32_t flags, int has_id_tuple, const hpcdb_id *ids, uint16_t n_ids,
                      uint32_t *out_index) {
  HPCDB_TRY(VEC_RESERVE(&exp->profiles, &exp->priv->cap_profiles, (uint64_t)exp->n_profiles + 1));
  hpcdb_profile *p = &exp->profiles[exp->n_profiles];
  memset(p, 0, sizeof *p);
  p->flags = flags;
  p->has_id_tuple = has_id_tuple;
  if (n_ids) {
    p->ids = malloc((size_t)n_ids * sizeof *ids);
    if (!p->ids) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for an id tuple");
    memcpy(p->ids, ids, (size_t)n_ids * sizeof *ids);
    p->n_ids = n_ids;
  }
  p->ctx_starts = calloc(1, sizeof *p->ctx_starts);
  if (!p->ctx_starts) {
    free(p->ids);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a profile");
  }
  if (out_index) *out_index = exp->n_profiles;
  exp->n_profiles++;
  return 0;
}

void hpcdb_profile_clear_values(hpcdb_profile *p) {
  free(p->ctx_ids);
  free(p->ctx_starts);
  free(p->metric_ids);
  free(p->values);
  p->ctx_ids = NULL;
  p->ctx_starts = NULL;
  p->metric_ids = NULL;
  p->values = NULL;
  p->n_ctxs = 0;
  p->n_values = 0;
}

/* malloc(count * size) with the product checked; count 0 gives a 1-byte block. */
static void *alloc_array(uint64_t count, size_t size) {
  uint64_t bytes;
  if (!mul_ok(count ? count : 1, size, &bytes) || bytes > SIZE_MAX) return NULL;
  return malloc((size_t)bytes);
}

int model_csr_alloc(hpcdb_profile *p, uint32_t n_ctxs, uint64_t n_values) {
  p->ctx_ids = alloc_array((uint64_t)n_ctxs + 1, sizeof *p->ctx_ids);
  p->ctx_starts = alloc_array((uint64_t)n_ctxs + 1, sizeof *p->ctx_starts);
  p->metric_ids = alloc_array(n_values, sizeof *p->metric_ids);
  p->values = alloc_array(n_values, sizeof *p->values);
  if (!p->ctx_ids || !p->ctx_starts || !p->metric_ids || !p->values) {
    hpcdb_profile_clear_values(p);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %llu values", (unsigned long long)n_values);
  }
  p->n_ctxs = n_ctxs;
  p->n_values = n_values;
  return 0;
}

void model_csr_trim(hpcdb_profile *p, uint32_t n_ctxs, uint64_t n_values) {
  p->n_ctxs = n_ctxs;
  p->n_values = n_values;
}

/* The order rules of a CSR value set. */
static int check_csr(uint32_t profile, uint32_t n_ctxs, const uint32_t *ctx_ids, const uint64_t *ctx_starts,
                     uint64_t n_values, const uint16_t *metric_ids) {
  if (ctx_starts[0] != 0 || ctx_starts[n_ctxs] != n_values)
    return hpcdb_fail(HPCDB_EINVAL, "profile %u: value ranges do not cover the values", profile);
  for (uint32_t k = 0; k < n_ctxs; k++) {
    if (k > 0 && ctx_ids[k] <= ctx_ids[k - 1])
      return hpcdb_fail(HPCDB_EINVAL, "profile %u: context ids not strictly ascending at %u", profile, k);
    if (ctx_starts[k + 1] < ctx_starts[k])
      return hpcdb_fail(HPCDB_EINVAL, "profile %u: value ranges decrease at context %u", profile, k);
    for (uint64_t v = ctx_starts[k] + 1; v < ctx_starts[k + 1]; v++)
      if (metric_ids[v] <= metric_ids[v - 1])
        return hpcdb_fail(HPCDB_EINVAL, "profile %u: metric ids not strictly ascending in context %u", profile,
                          ctx_ids[k]);
  }
  return 0;
}

int hpcdb_profile_adopt_csr(hpcdb_experiment *exp, uint32_t profile, uint32_t n_ctxs, uint32_t *ctx_ids,
                            uint64_t *ctx_starts, uint64_t n_values, uint16_t *metric_ids, double *values) {
  int rc = profile >= exp->n_profiles ? hpcdb_fail(HPCDB_EINVAL, "profile %u does not exist", profile)
                                      : check_csr(profile, n_ctxs, ctx_ids, ctx_starts, n_values, metric_ids);
  if (rc < 0) {
    free(ctx_ids);
    free(ctx_starts);
    free(metric_ids);
    free(values);
    return rc;
  }
  hpcdb_profile *p = &exp->profiles[profile];
  hpcdb_profile_clear_values(p);
  model_drop_integers(exp, profile);
  p->ctx_ids = ctx_ids;
  p->ctx_starts = ctx_starts;
  p->metric_ids = metric_ids;
  p->values = values;
  p->n_ctxs = n_ctxs;
  p->n_values = n_values;
  return 0;
}

int hpcdb_profile_set_csr(hpcdb_experiment *exp, uint32_t profile, uint32_t n_ctxs, const uint32_t *ctx_ids,
                          const uint64_t *ctx_starts, uint64_t n_values, const uint16_t *metric_ids,
                          const double *values) {
  if (profile >= exp->n_profiles) return hpcdb_fail(HPCDB_EINVAL, "profile %u does not exist", profile);
  HPCDB_TRY(check_csr(profile, n_ctxs, ctx_ids, ctx_starts, n_values, metric_ids));
  hpcdb_profile *p = &exp->profiles[profile];
  hpcdb_profile_clear_values(p);
  model_drop_integers(exp, profile);
  HPCDB_TRY(model_csr_alloc(p, n_ctxs, n_values));
  memcpy(p->ctx_ids, ctx_ids, (size_t)n_ctxs * sizeof *ctx_ids);
  memcpy(p->ctx_starts, ctx_starts, ((size_t)n_ctxs + 1) * sizeof *ctx_starts);
  memcpy(p->metric_ids, metric_ids, (size_t)n_values * sizeof *metric_ids);
  memcpy(p->values, values, (size_t)n_values * sizeof *values);
  return 0;
}

typedef struct triple {
  uint32_t ctx;
  uint16_t metric;
  double value;
} triple;

static int triple_cmp(const void *a, const void *b) {
  const triple *x = a, *y = b;
  if (x->ctx != y->ctx) return x->ctx < y->ctx ? -1 : 1;
  if (x->metric != y->metric) return x->metric < y->metric ? -1 : 1;
  return 0;
}

int hpcdb_profile_set_values(hpcdb_experiment *exp, uint32_t profile, uint64_t n, const uint32_t *ctx_ids,
                             const uint16_t *metric_ids, const double *values) {
  if (profile >= exp->n_profiles) return hpcdb_fail(HPCDB_EINVAL, "profile %u does not exist", profile);
  triple *t = alloc_array(n, sizeof *t);
  if (!t) return hpcdb_fail(HPCDB_ENOMEM, "out of memory sorting %llu values", (unsigned long long)n);
  for (uint64_t i = 0; i < n; i++) t[i] = (triple){ctx_ids[i], metric_ids[i], values[i]};
  qsort(t, (size_t)n, sizeof *t, triple_cmp);
  uint32_t n_ctxs = 0;
  for (uint64_t i = 0; i < n; i++) {
    if (i > 0 && t[i].ctx == t[i - 1].ctx && t[i].metric == t[i - 1].metric) {
      uint32_t ctx = t[i].ctx;
      uint16_t metric = t[i].metric;
      free(t);
      return hpcdb_fail(HPCDB_EINVAL, "profile %u: two values for context %u metric %u", profile, ctx, metric);
    }
    if (i == 0 || t[i].ctx != t[i - 1].ctx) n_ctxs++;
  }
  hpcdb_profile *p = &exp->profiles[profile];
  hpcdb_profile_clear_values(p);
  model_drop_integers(exp, profile);
  int rc = model_csr_alloc(p, n_ctxs, n);
  if (rc < 0) {
    free(t);
    return rc;
  }
  uint32_t k = 0;
  for (uint64_t i = 0; i < n; i++) {
    if (i == 0 || t[i].ctx != t[i - 1].ctx) {
      p->ctx_ids[k] = t[i].ctx;
      p->ctx_starts[k] = i;
      k++;
    }
    p->metric_ids[i] = t[i].metric;
    p->values[i] = t[i].value;
  }
  p->ctx_starts[n_ctxs] = n;
  free(t);
  return 0;
}

int hpcdb_profile_value(const hpcdb_profile *p, uint32_t ctx_id, uint16_t metric_id, double *out) {
  *out = 0;
  uint32_t lo = 0, hi = p->n_ctxs;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (p->ctx_ids[mid] < ctx_id) lo = mid + 1;
    else hi = mid;
  }
  if (lo == p->n_ctxs || p->ctx_ids[lo] != ctx_id) return 0;
  uint64_t a = p->ctx_starts[lo], b = p->ctx_starts[lo + 1];
  while (a < b) {
    uint64_t mid = a + (b - a) / 2;
    if (p->metric_ids[mid] < metric_id) a = mid + 1;
    else b = mid;
  }
  if (a == p->ctx_starts[lo + 1] || p->metric_ids[a] != metric_id) return 0;
  *out = p->values[a];
  return 1;
}

uint64_t hpcdb_value_count(const hpcdb_experiment *exp) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < exp->n_profiles; i++) n += exp->profiles[i].n_values;
  return n;
}

size_t hpcdb_profile_identity(const hpcdb_experiment *exp, const hpcdb_profile *p, char *buf, size_t size) {
  size_t used = 0;
  char tmp[64];
  if (size) buf[0] = '\0';
  if (!p->has_id_tuple || p->n_ids == 0) {
    const char *s = (p->flags & HPCDB_PROFILE_SUMMARY) ? "SUMMARY" : "(no identity)";
    int n = snprintf(buf, size, "%s", s);
    return n < 0 ? 0 : (size_t)n;
  }
  for (uint16_t i = 0; i < p->n_ids; i++) {
    const hpcdb_id *id = &p->ids[i];
    const char *kind = id->kind < exp->n_kind_names ? exp->kind_names[id->kind] : NULL;
    int n;
    if (!kind) {
      snprintf(tmp, sizeof tmp, "KIND%u", (unsigned)id->kind);
      kind = tmp;
    }
    if (id->flags & HPCDB_ID_PHYSICAL)
      n = snprintf(size > used ? buf + used : NULL, size > used ? size - used : 0, "%s%s 0x%llx", i ? " " : "", kind,
                   (unsigned long long)id->physical_id);
    else
      n = snprintf(size > used ? buf + used : NULL, size > used ? size - used : 0, "%s%s %u", i ? " " : "", kind,
                   id->logical_id);
    if (n > 0) used += (size_t)n;
  }
  return used;
}

int hpcdb_add_trace(hpcdb_experiment *exp, uint32_t profile, uint64_t n, const uint64_t *timestamps,
                    const uint32_t *ctx_ids, uint32_t *out_index) {
  if (profile >= exp->n_profiles) return hpcdb_fail(HPCDB_EINVAL, "trace for profile %u that does not exist", profile);
  HPCDB_TRY(VEC_RESERVE(&exp->traces, &exp->priv->cap_traces, (uint64_t)exp->n_traces + 1));
  hpcdb_trace *t = &exp->traces[exp->n_traces];
  t->profile = profile;
  t->n = n;
  t->timestamps = alloc_array(n, sizeof *timestamps);
  t->ctx_ids = alloc_array(n, sizeof *ctx_ids);
  if (!t->timestamps || !t->ctx_ids) {
    free(t->timestamps);
    free(t->ctx_ids);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace of %llu samples", (unsigned long long)n);
  }
  if (n) {
    memcpy(t->timestamps, timestamps, (size_t)n * sizeof *timestamps);
    memcpy(t->ctx_ids, ctx_ids, (size_t)n * sizeof *ctx_ids);
  }
  if (out_index) *out_index = exp->n_traces;
  exp->n_traces++;
  exp->has_traces = 1;
  return 0;
}
