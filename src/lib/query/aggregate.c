/* SPDX-License-Identifier: BSD-3-Clause */
/* The bottom-up and flat views (aggregate.h): contexts gathered by frame (a
 * function, or an instruction reached by a call when there is no function)
 * and by name. Bottom-up: each function, with the callers it was reached
 * from; flat: each load module, with its functions. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "query/query_internal.h"

typedef struct builder {
  agg_view *a;
  uint64_t cap;
  hpcdb_u64map index; /* hash(group, name) -> row */
} builder;

static uint32_t row_of(builder *b, uint32_t group, const char *name) {
  agg_view *a = b->a;
  uint64_t key = hash_u64(hash_bytes(name, strlen(name)) ^ group), at;
  while (u64map_get(&b->index, key, &at)) {
    if (a->group[at] == group && !strcmp(a->names[at], name)) return (uint32_t)at;
    key = hash_u64(key + 1); /* a collision: probe on */
  }
  if (a->n_rows == b->cap) {
    uint64_t cap = b->cap ? 2 * b->cap : 256;
    char **names = realloc(a->names, cap * sizeof *names);
    if (names) a->names = names;
    uint32_t *groups = realloc(a->group, cap * sizeof *groups);
    if (groups) a->group = groups;
    if (!names || !groups) return HPCDB_NONE;
    b->cap = cap;
  }
  if (!(a->names[a->n_rows] = strdup(name))) return HPCDB_NONE;
  a->group[a->n_rows] = group;
  if (u64map_put(&b->index, key, a->n_rows) != 0) return HPCDB_NONE;
  return a->n_rows++;
}

/* 1 when a frame above f (up to its entry point) is in f's load module: f's inclusive cost is then
 * already in that frame's, which counts for the module (a module calling itself, or back into itself). */
static int module_nested(const hpcdb_experiment *e, uint32_t f) {
  const char *module = query_module_name(e, f);
  for (uint32_t a = query_frame(e, e->contexts[f].parent, 0); a != 0; a = query_frame(e, e->contexts[a].parent, 0)) {
    if (e->contexts[a].kind != HPCDB_CTX_NORMAL) break;
    if (!strcmp(query_module_name(e, a), module)) return 1;
  }
  return 0;
}

int query_agg_build(const hpcdb_experiment *e, int flat, int functions_only, agg_view *a) {
  builder b = {a, 0, {0}};
  uint32_t n = e->n_contexts;
  a->ctx_top = malloc(((size_t)n + 1) * sizeof *a->ctx_top);
  a->ctx_member = malloc(((size_t)n + 1) * sizeof *a->ctx_member);
  a->ctx_inclusive = calloc((size_t)n + 1, 1);
  if (!a->ctx_top || !a->ctx_member || !a->ctx_inclusive) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  char name[512], other[512];
  int rc = 0;
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    a->ctx_top[i] = a->ctx_member[i] = HPCDB_NONE;
    if (i == 0 || e->contexts[i].kind != HPCDB_CTX_NORMAL) continue;
    uint32_t f = query_frame(e, i, functions_only);
    if (f == 0 || e->contexts[f].kind != HPCDB_CTX_NORMAL) continue;
    query_context_name(e, f, name, sizeof name);
    uint32_t top = row_of(&b, HPCDB_NONE, flat ? query_module_name(e, f) : name), member = HPCDB_NONE;
    if (top != HPCDB_NONE && flat) {
      member = row_of(&b, top, name);
    } else if (top != HPCDB_NONE) {
      query_context_name(e, query_frame(e, e->contexts[f].parent, functions_only), other, sizeof other);
      member = row_of(&b, top, other);
    }
    if (top == HPCDB_NONE || member == HPCDB_NONE) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for the %s view", flat ? "flat" : "bottom-up");
    a->ctx_top[i] = top;
    a->ctx_member[i] = member;
    a->ctx_inclusive[i] = i == f && !query_frame_nested(e, f, name, functions_only) ? AGG_OWN_INCLUSIVE : 0;
    if (flat && i == f && !module_nested(e, f)) a->ctx_inclusive[i] |= AGG_MODULE_INCLUSIVE;
  }
  u64map_free(&b.index);
  HPCDB_TRY(rc);
  uint32_t r = a->n_rows;
  a->first_member = malloc(((size_t)r + 1) * sizeof *a->first_member);
  a->next_member = malloc(((size_t)r + 1) * sizeof *a->next_member);
  a->n_members = calloc((size_t)r + 1, sizeof *a->n_members);
  if (!a->first_member || !a->next_member || !a->n_members) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t k = 0; k < r; k++) a->first_member[k] = a->next_member[k] = HPCDB_NONE;
  for (uint32_t k = r; k-- > 0;) { /* lists in row order */
    uint32_t g = a->group[k];
    if (g == HPCDB_NONE) {
      a->n_top++;
      continue;
    }
    a->next_member[k] = a->first_member[g];
    a->first_member[g] = k;
    a->n_members[g]++;
  }
  return 0;
}

void query_agg_sum(const hpcdb_experiment *e, const agg_view *a, int flat, const double *self, const double *inc,
                   size_t stride, double *ai, double *ae, size_t out_stride) {
  for (uint32_t i = 0; i < e->n_contexts; i++) {
    uint32_t top = a->ctx_top[i], member = a->ctx_member[i];
    if (top == HPCDB_NONE) continue;
    uint8_t own = a->ctx_inclusive[i];
    double x = self[(size_t)i * stride], y = own & AGG_OWN_INCLUSIVE ? inc[(size_t)i * stride] : 0; /* i is its frame */
    ae[(size_t)top * out_stride] += x;
    ae[(size_t)member * out_stride] += x;
    ai[(size_t)member * out_stride] += y;
    ai[(size_t)top * out_stride] += !flat ? y : own & AGG_MODULE_INCLUSIVE ? inc[(size_t)i * stride] : 0;
  }
}

void query_agg_sum_integers(const hpcdb_experiment *e, const agg_view *a, int flat, const uint64_t *self,
                            const uint64_t *inc, size_t stride, uint64_t *ai, uint64_t *ae, size_t out_stride) {
  for (uint32_t i = 0; i < e->n_contexts; i++) { /* query_agg_sum's sums, modulo 2^64 */
    uint32_t top = a->ctx_top[i], member = a->ctx_member[i];
    if (top == HPCDB_NONE) continue;
    uint8_t own = a->ctx_inclusive[i];
    uint64_t x = self[(size_t)i * stride], y = own & AGG_OWN_INCLUSIVE ? inc[(size_t)i * stride] : 0;
    ae[(size_t)top * out_stride] += x;
    ae[(size_t)member * out_stride] += x;
    ai[(size_t)member * out_stride] += y;
    ai[(size_t)top * out_stride] += !flat ? y : own & AGG_MODULE_INCLUSIVE ? inc[(size_t)i * stride] : 0;
  }
}

void query_agg_free(agg_view *a) {
  for (uint32_t k = 0; k < a->n_rows; k++) free(a->names[k]);
  free(a->names);
  free(a->group);
  free(a->first_member);
  free(a->next_member);
  free(a->n_members);
  free(a->ctx_top);
  free(a->ctx_member);
  free(a->ctx_inclusive);
  memset(a, 0, sizeof *a);
}

int query_agg(hpcdb_query *q, int flat, const agg_view **out) {
  agg_view *a = &q->agg[flat];
  if (!a->built) {
    int rc = query_agg_build(q->exp, flat, 0, a);
    if (rc < 0) {
      query_agg_free(a);
      return rc;
    }
    a->built = 1;
  }
  *out = a;
  return 0;
}

/* A column's values over the rows of an aggregated view: [0] inclusive,
 * [1] exclusive, per node (node 0 the root: the whole program). */
int query_agg_values(hpcdb_query *q, hpcdb_qcolumn col, int flat, const double **inc, const double **exc) {
  const agg_view *a;
  const column_values *v;
  HPCDB_TRY(query_agg(q, flat, &a));
  HPCDB_TRY(query_values(q, col, &v));
  column_values *w = q->cols[col].values;
  if (!w->agg[flat][0]) {
    double *ai = calloc((size_t)a->n_rows + 1, sizeof *ai), *ae = calloc((size_t)a->n_rows + 1, sizeof *ae);
    if (!ai || !ae) {
      free(ai);
      free(ae);
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    }
    query_agg_sum(q->exp, a, flat, v->self, v->inc, 1, ai + 1, ae + 1, 1);
    ai[0] = v->inc[0];
    w->agg[flat][0] = ai;
    w->agg[flat][1] = ae;
  }
  *inc = w->agg[flat][0];
  *exc = w->agg[flat][1];
  return 0;
}
