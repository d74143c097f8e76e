/* SPDX-License-Identifier: BSD-3-Clause */
/* Values of the contexts draft a writes twice. hpcprof stores the values of a
 * context once, under the id of its outer element, and the model keeps the
 * inner element as a child of its own: a PF i="X" holding C/S i="-X" (X at
 * its call site or statement), and the entry point holding the top-level
 * frames (the global context, id 0). The inner one is given what the stored
 * values imply: execution = the outer one's minus its siblings', function =
 * its execution minus what its children spend in calls (a child's execution,
 * less its own function value when it is lexical). Summaries are sums over
 * threads, so the same differences hold for them. Traces record X for the
 * inner element of a C/S (its it=), the leaf of the sample. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "common/vec.h"
#include "older/drafta/drafta.h"

/* Rounding left over from subtracting equal sums, not a value. */
#define RESIDUE 1e-9

#define NO_ID 0xFFFFu

typedef struct id_pair {
  uint16_t execution, function; /* metric ids of one metric; function NO_ID when absent */
} id_pair;

typedef struct derived {
  uint32_t *ctx;
  uint16_t *metric;
  double *value;
  uint64_t n, cap_ctx, cap_metric, cap_value;
  uint64_t negative; /* values not derived: the outer one below the siblings' */
} derived;

static uint8_t scope_type(const hpcdb_experiment *exp, uint32_t scope) {
  return scope < exp->n_scopes ? exp->scopes[scope].type : HPCDB_SCOPE_CUSTOM;
}

/* The (execution, function) ids of every metric, for thread profiles
 * (propagated ids) or the summary (sum statistics of $$). */
static int id_pairs(const hpcdb_experiment *exp, int summary, id_pair **out, uint32_t *n) {
  *n = 0;
  *out = malloc(((size_t)exp->n_metrics + 1) * sizeof **out);
  if (!*out) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t m = 0; m < exp->n_metrics; m++) {
    const hpcdb_metric *mt = &exp->metrics[m];
    id_pair pr = {NO_ID, NO_ID};
    for (uint32_t k = 0; !summary && k < mt->n_instances; k++) {
      uint8_t t = scope_type(exp, mt->instances[k].scope);
      if (t == HPCDB_SCOPE_EXECUTION) pr.execution = mt->instances[k].prop_metric_id;
      if (t == HPCDB_SCOPE_TRANSITIVE) pr.function = mt->instances[k].prop_metric_id;
    }
    for (uint32_t k = 0; summary && k < mt->n_summaries; k++) {
      const hpcdb_summary *s = &mt->summaries[k];
      if (s->combine != HPCDB_COMBINE_SUM || !s->formula || strcmp(s->formula, "$$") != 0) continue;
      uint8_t t = scope_type(exp, s->scope);
      if (t == HPCDB_SCOPE_EXECUTION) pr.execution = s->stat_metric_id;
      if (t == HPCDB_SCOPE_TRANSITIVE) pr.function = s->stat_metric_id;
    }
    if (pr.execution != NO_ID) (*out)[(*n)++] = pr;
  }
  return 0;
}

static double value_of(const hpcdb_profile *p, uint32_t ctx_id, uint16_t metric) {
  double x;
  hpcdb_profile_value(p, ctx_id, metric, &x);
  return x;
}

static int holds_values(const hpcdb_profile *p, uint32_t ctx_id) {
  uint32_t lo = 0, hi = p->n_ctxs;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (p->ctx_ids[mid] < ctx_id) lo = mid + 1;
    else hi = mid;
  }
  return lo < p->n_ctxs && p->ctx_ids[lo] == ctx_id;
}

static int push(derived *d, uint32_t ctx, uint16_t metric, double value) {
  if (VEC_RESERVE(&d->ctx, &d->cap_ctx, d->n + 1) < 0 || VEC_RESERVE(&d->metric, &d->cap_metric, d->n + 1) < 0 ||
      VEC_RESERVE(&d->value, &d->cap_value, d->n + 1) < 0)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  d->ctx[d->n] = ctx;
  d->metric[d->n] = metric;
  d->value[d->n++] = value;
  return 0;
}

/* The values of one inner context in one profile. */
static int derive_one(const hpcdb_experiment *exp, const hpcdb_profile *p, uint32_t index, const id_pair *pairs,
                      uint32_t n_pairs, derived *d) {
  const hpcdb_context *c = &exp->contexts[index];
  const hpcdb_context *up = &exp->contexts[c->parent];
  for (uint32_t k = 0; k < n_pairs; k++) {
    double outer;
    if (!hpcdb_profile_value(p, up->id, pairs[k].execution, &outer)) continue;
    double execution = outer;
    for (uint32_t s = up->first_child; s != HPCDB_NONE; s = exp->contexts[s].next_sibling)
      if (s != index) execution -= value_of(p, exp->contexts[s].id, pairs[k].execution);
    if (!(execution > RESIDUE * fabs(outer))) { /* also not a number, from infinities */
      d->negative += execution < -RESIDUE * fabs(outer);
      continue;
    }
    HPCDB_TRY(push(d, c->id, pairs[k].execution, execution));
    if (pairs[k].function == NO_ID) continue;
    double function = execution;
    for (uint32_t s = c->first_child; s != HPCDB_NONE; s = exp->contexts[s].next_sibling) {
      const hpcdb_context *child = &exp->contexts[s];
      function -= value_of(p, child->id, pairs[k].execution);
      if (child->relation == HPCDB_REL_LEXICAL) function += value_of(p, child->id, pairs[k].function);
    }
    if (function > RESIDUE * execution) HPCDB_TRY(push(d, c->id, pairs[k].function, function));
  }
  return 0;
}

/* The profile's stored values and the derived ones, as its new values. */
static int merge(hpcdb_experiment *exp, uint32_t profile, derived *d) {
  const hpcdb_profile *p = &exp->profiles[profile];
  for (uint32_t k = 0; k < p->n_ctxs; k++)
    for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++)
      HPCDB_TRY(push(d, p->ctx_ids[k], p->metric_ids[v], p->values[v]));
  return hpcdb_profile_set_values(exp, profile, d->n, d->ctx, d->metric, d->value);
}

static int derive_profiles(hpcdb_experiment *exp, const uint32_t *inner, uint64_t n_inner, derived *d) {
  id_pair *pairs[2] = {NULL, NULL};
  uint32_t n_pairs[2];
  int rc = id_pairs(exp, 0, &pairs[0], &n_pairs[0]);
  if (rc == 0) rc = id_pairs(exp, 1, &pairs[1], &n_pairs[1]);
  for (uint32_t pi = 0; rc == 0 && pi < exp->n_profiles; pi++) {
    const hpcdb_profile *p = &exp->profiles[pi];
    int summary = (p->flags & HPCDB_PROFILE_SUMMARY) != 0;
    d->n = 0;
    for (uint64_t m = 0; rc == 0 && m < n_inner; m++)
      if (!holds_values(p, exp->contexts[inner[m]].id)) /* values of its own (a hostile file): kept as they are */
        rc = derive_one(exp, p, inner[m], pairs[summary], n_pairs[summary], d);
    if (rc == 0 && d->n) rc = merge(exp, pi, d);
  }
  free(pairs[0]);
  free(pairs[1]);
  return rc;
}

/* Trace samples of X belong to the inner element that carries it="X". */
static int retarget_traces(hpcdb_experiment *exp, const expxml_mirror *mirrors, uint64_t n) {
  hpcdb_u64map to = {0};
  int rc = 0;
  for (uint64_t m = 0; rc == 0 && m < n; m++)
    if (mirrors[m].trace_id && u64map_put(&to, mirrors[m].trace_id, exp->contexts[mirrors[m].index].id) < 0)
      rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t t = 0; rc == 0 && to.count && t < exp->n_traces; t++) {
    hpcdb_trace *tr = &exp->traces[t];
    for (uint64_t k = 0; k < tr->n; k++) {
      uint64_t id;
      if (u64map_get(&to, tr->ctx_ids[k], &id)) tr->ctx_ids[k] = (uint32_t)id;
    }
  }
  u64map_free(&to);
  return rc;
}

int drafta_fill_mirrors(hpcdb_experiment *exp, const expxml_mirror *mirrors, uint64_t n, const char *path) {
  uint32_t *inner = malloc(((size_t)n + 1) * sizeof *inner);
  if (!inner) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  uint64_t n_inner = 0;
  for (uint32_t c = exp->n_contexts ? exp->contexts[0].first_child : HPCDB_NONE; c != HPCDB_NONE;
       c = exp->contexts[c].next_sibling)
    if (exp->contexts[c].kind == HPCDB_CTX_ENTRY) {
      inner[n_inner++] = c; /* the global context again, as "main thread" */
      break;
    }
  for (uint64_t m = 0; m < n; m++) inner[n_inner++] = mirrors[m].index;
  derived d = {0};
  int rc = derive_profiles(exp, inner, n_inner, &d);
  free(inner);
  free(d.ctx);
  free(d.metric);
  free(d.value);
  if (rc == 0) rc = retarget_traces(exp, mirrors, n);
  if (rc == 0 && d.negative) {
    char why[512];
    snprintf(why, sizeof why,
             "%s: %llu values of contexts written twice (the entry point, i=\"-X\" inside X) are not derived: "
             "the value stored for both is below the other children's",
             path, (unsigned long long)d.negative);
    rc = hpcdb_add_warning(exp, why);
  }
  return rc;
}
