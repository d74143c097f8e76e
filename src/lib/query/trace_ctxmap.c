/* SPDX-License-Identifier: BSD-3-Clause */
/* Contexts as the trace queries see them: a dense table from native id to
 * model index (ids are checked against it once per element when the index
 * is built), each context's depth in its calling path, and per query the
 * context each one counts as at the asked depth. The builder appends a
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
  if (!t->idx_of_id || !t->depth) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the context table");
  for (uint32_t id = 0; id < t->n_ids; id++) t->idx_of_id[id] = HPCDB_NONE;
  for (uint32_t i = 0; i < e->n_contexts; i++) {
    const hpcdb_context *c = &e->contexts[i];
    t->idx_of_id[c->id] = i;
    if (i == 0 || c->parent == HPCDB_NONE || c->parent == 0) continue; /* the global context and entry points: 0 */
    if (c->parent >= i) return hpcdb_fail(HPCDB_EINVAL, "context %u comes before its parent", i);
    t->depth[i] = t->depth[c->parent] + 1;
  }
  return 0;
}

int trace_keys(const hpcdb_trace_set *t, uint32_t depth, const uint8_t *ctx_keep, uint32_t **keys) {
  const hpcdb_experiment *e = t->exp;
  uint32_t *k = malloc((e->n_contexts ? e->n_contexts : 1) * sizeof *k);
  if (!k) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < e->n_contexts; i++) {
    uint32_t p = e->contexts[i].parent;
    k[i] = (i == 0 || depth == HPCDB_TRACE_LEAF || t->depth[i] <= depth || p == HPCDB_NONE) ? i : k[p];
  }
  /* The filter applies to the context counted, after the depth. */
  if (ctx_keep)
    for (uint32_t i = 0; i < e->n_contexts; i++)
      if (!ctx_keep[k[i]] && k[i] != 0) k[i] = HPCDB_TRACE_GREY;
  *keys = k;
  return 0;
}
