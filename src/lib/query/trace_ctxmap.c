/* SPDX-License-Identifier: BSD-3-Clause */
/* Contexts as the trace queries see them: a dense table from native id to
 * model index (ids are checked against it once per element when the index
 * is built), each context's depth in its calling path (in scopes and in
 * procedure frames), and per query the context each one counts as at the
 * asked depth. The builder appends a
 * context after its parent, so one forward pass over the indices sees every
 * parent before its children. */
#include <stdlib.h>

#include "common/error.h"
#include "query/trace_internal.h"

/* Ids past this are not tabled densely (a v4.0 database numbers its contexts
 * from 0 up; a sparse numbering this wide is refused rather than tabled). */
#define MAX_DENSE_ID (1u << 28)

int trace_ctxmap_build(hpcdb_trace_set *t) {
  const hpcdb_experiment *e = t->exp;
  uint32_t max_id = 0;
  for (uint32_t i = 0; i < e->n_contexts; i++)
    if (e->contexts[i].id > max_id) max_id = e->contexts[i].id;
  if (max_id >= MAX_DENSE_ID)
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "context id %u is too large for the trace view's table", max_id);
  t->n_ids = max_id + 1;
  t->idx_of_id = malloc((size_t)t->n_ids * sizeof *t->idx_of_id);
  t->depth = calloc(e->n_contexts ? e->n_contexts : 1, sizeof *t->depth);
  t->frame_depth = calloc(e->n_contexts ? e->n_contexts : 1, sizeof *t->frame_depth);
  t->frame_of = calloc(e->n_contexts ? e->n_contexts : 1, sizeof *t->frame_of);
  if (!t->idx_of_id || !t->depth || !t->frame_depth || !t->frame_of)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the context table");
  for (uint32_t id = 0; id < t->n_ids; id++) t->idx_of_id[id] = HPCDB_NONE;
  for (uint32_t i = 0; i < e->n_contexts; i++) {
    const hpcdb_context *c = &e->contexts[i];
    t->idx_of_id[c->id] = i;
    uint32_t up = i == 0 || c->parent == HPCDB_NONE ? HPCDB_NONE : c->parent; /* its caller's frame, below */
    if (up != HPCDB_NONE && up >= i) return hpcdb_fail(HPCDB_EINVAL, "context %u comes before its parent", i);
    uint32_t outer = up == HPCDB_NONE ? HPCDB_NONE : t->frame_of[up];
    t->frame_of[i] = hpcdb_trace_is_frame(e, i) ? i : outer;
    t->frame_depth[i] = t->frame_of[i] != i ? 0 : outer == HPCDB_NONE ? 0 : t->frame_depth[outer] + 1;
    if (up == HPCDB_NONE || up == 0) continue; /* the global context and entry points: 0 */
    t->depth[i] = t->depth[up] + 1;
  }
  return 0;
}

int hpcdb_trace_is_frame(const hpcdb_experiment *exp, uint32_t ctx) {
  if (ctx == 0 || ctx >= exp->n_contexts) return 0;
  const hpcdb_context *c = &exp->contexts[ctx];
  return c->kind == HPCDB_CTX_ENTRY || (c->kind == HPCDB_CTX_NORMAL && c->lexical_type == HPCDB_LEX_FUNCTION);
}

int trace_keys(const hpcdb_trace_set *t, uint32_t depth, const uint8_t *ctx_keep, uint32_t **keys) {
  const hpcdb_experiment *e = t->exp;
  uint32_t *k = malloc((e->n_contexts ? e->n_contexts : 1) * sizeof *k);
  if (!k) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  uint32_t d = depth & ~HPCDB_TRACE_ALL_SCOPES;
  for (uint32_t i = 0; i < e->n_contexts; i++) {
    uint32_t p = e->contexts[i].parent, f = t->frame_of[i];
    if (i == 0 || depth == HPCDB_TRACE_LEAF || p == HPCDB_NONE) k[i] = i;
    else if (depth & HPCDB_TRACE_ALL_SCOPES) k[i] = t->depth[i] <= d ? i : k[p];
    else if (f == HPCDB_NONE) k[i] = i; /* in no procedure: itself */
    else if (f != i) k[i] = k[f];       /* a loop or line: as its procedure */
    else k[i] = t->frame_depth[i] <= d || t->frame_of[p] == HPCDB_NONE ? i : k[t->frame_of[p]];
  }
  /* The filter applies to the context counted, after the depth. */
  if (ctx_keep)
    for (uint32_t i = 0; i < e->n_contexts; i++)
      if (!ctx_keep[k[i]] && k[i] != 0) k[i] = HPCDB_TRACE_GREY;
  *keys = k;
  return 0;
}
