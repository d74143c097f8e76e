/* SPDX-License-Identifier: BSD-3-Clause */
/* The context tree: adding contexts and finding them by native id. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/map_vec.h"
#include "model/model_build.h"
#include "model/model_private.h"

static uint8_t presence_flags(const hpcdb_context *c) {
  uint8_t f = (uint8_t)(c->flags & ~(HPCDB_CTXF_FUNCTION | HPCDB_CTXF_SRCLOC | HPCDB_CTXF_POINT));
  if (c->function != HPCDB_NONE) f |= HPCDB_CTXF_FUNCTION;
  if (c->file != HPCDB_NONE) f |= HPCDB_CTXF_SRCLOC;
  if (c->module != HPCDB_NONE) f |= HPCDB_CTXF_POINT;
  return f;
}

/* Appends a copy of *proto under parent, its tree links unset. */
static int append_context(hpcdb_experiment *exp, const hpcdb_context *proto, uint32_t parent, uint32_t *out_index) {
  if (parent >= exp->n_contexts)
    return hpcdb_fail(HPCDB_EINVAL, "context %u: parent index %u does not exist", proto->id, parent);
  if ((proto->function != HPCDB_NONE && proto->function >= exp->n_functions) ||
      (proto->file != HPCDB_NONE && proto->file >= exp->n_files) ||
      (proto->module != HPCDB_NONE && proto->module >= exp->n_modules))
    return hpcdb_fail(HPCDB_EINVAL, "context %u refers to a function, file or module that does not exist", proto->id);
  if (ctx_index_find(&exp->priv->ctx_by_id, proto->id) != HPCDB_NONE)
    return hpcdb_fail(HPCDB_EINVAL, "context id %u is used twice", proto->id);
  if (exp->n_contexts == UINT32_MAX - 1) return hpcdb_fail(HPCDB_ENOMEM, "too many contexts");
  HPCDB_TRY(MAP_VEC_RESERVE(&exp->contexts, &exp->priv->cap_contexts, (uint64_t)exp->n_contexts + 1));
  uint32_t idx = exp->n_contexts;
  hpcdb_context *c = &exp->contexts[idx];
  *c = *proto;
  c->name = hpcdb_intern(exp, proto->name);
  if (proto->name && !c->name) return HPCDB_ENOMEM;
  c->parent = parent;
  c->first_child = c->next_sibling = c->last_child = HPCDB_NONE;
  c->flags = presence_flags(c);
  HPCDB_TRY(ctx_index_put(&exp->priv->ctx_by_id, proto->id, idx, exp->n_contexts));
  exp->n_contexts++;
  if (out_index) *out_index = idx;
  return 0;
}

int hpcdb_add_context(hpcdb_experiment *exp, const hpcdb_context *proto, uint32_t parent, uint32_t *out_index) {
  HPCDB_TRY(model_link_contexts(exp));
  uint32_t idx;
  HPCDB_TRY(append_context(exp, proto, parent, &idx));
  hpcdb_context *p = &exp->contexts[parent];
  if (p->last_child == HPCDB_NONE) p->first_child = idx;
  else exp->contexts[p->last_child].next_sibling = idx;
  p->last_child = idx;
  exp->priv->n_linked = exp->n_contexts;
  if (out_index) *out_index = idx;
  return 0;
}

int model_add_context_unlinked(hpcdb_experiment *exp, const hpcdb_context *proto, uint32_t parent,
                               uint32_t *out_index) {
  return append_context(exp, proto, parent, out_index);
}

int model_reserve_contexts(hpcdb_experiment *exp, uint32_t n, void **tail, size_t *bytes) {
  uint64_t need = (uint64_t)exp->n_contexts + n;
  if (need > UINT32_MAX) need = UINT32_MAX;
  HPCDB_TRY(MAP_VEC_RESERVE(&exp->contexts, &exp->priv->cap_contexts, need));
  *tail = exp->contexts + exp->n_contexts;
  *bytes = (size_t)(need - exp->n_contexts) * sizeof *exp->contexts;
  return 0;
}

/* Backwards over the unlinked contexts: a context's children all come after
 * it, so when it is reached its own list is complete (kids[i]: first and
 * last, side by side so that one cache line holds both), and it goes in
 * front of its parent's. Parents linked before get the new list appended to
 * theirs. */
int model_link_contexts(hpcdb_experiment *exp) {
  uint32_t from = exp->priv->n_linked, n = exp->n_contexts;
  if (from >= n) return 0;
  struct child_list {
    uint32_t first, last;
  } *kids = malloc((size_t)n * sizeof *kids);
  if (!kids) return hpcdb_fail(HPCDB_ENOMEM, "out of memory linking %u contexts", n - from);
  memset(kids, 0xff, (size_t)n * sizeof *kids);
  hpcdb_context *ctx = exp->contexts;
  for (uint32_t i = n; i-- > from;) {
    hpcdb_context *c = &ctx[i];
    struct child_list *p = &kids[c->parent];
    c->first_child = kids[i].first;
    c->last_child = kids[i].last;
    c->next_sibling = p->first;
    if (p->first == HPCDB_NONE) p->last = i;
    p->first = i;
  }
  for (uint32_t p = 0; p < from; p++) {
    if (kids[p].first == HPCDB_NONE) continue;
    if (ctx[p].last_child == HPCDB_NONE) ctx[p].first_child = kids[p].first;
    else ctx[ctx[p].last_child].next_sibling = kids[p].first;
    ctx[p].last_child = kids[p].last;
  }
  free(kids);
  exp->priv->n_linked = n;
  return 0;
}

uint32_t hpcdb_find_context(const hpcdb_experiment *exp, uint32_t id) {
  return ctx_index_find(&exp->priv->ctx_by_id, id);
}
