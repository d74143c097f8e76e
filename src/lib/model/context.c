/* The context tree: adding contexts and finding them by native id. */
#include <string.h>

#include "common/error.h"
#include "common/vec.h"
#include "model/model_private.h"

static uint8_t presence_flags(const hpcdb_context *c) {
  uint8_t f = (uint8_t)(c->flags & ~(HPCDB_CTXF_FUNCTION | HPCDB_CTXF_SRCLOC | HPCDB_CTXF_POINT));
  if (c->function != HPCDB_NONE) f |= HPCDB_CTXF_FUNCTION;
  if (c->file != HPCDB_NONE) f |= HPCDB_CTXF_SRCLOC;
  if (c->module != HPCDB_NONE) f |= HPCDB_CTXF_POINT;
  return f;
}

int hpcdb_add_context(hpcdb_experiment *exp, const hpcdb_context *proto, uint32_t parent,
                      uint32_t *out_index) {
  if (parent >= exp->n_contexts)
    return hpcdb_fail(HPCDB_EINVAL, "context %u: parent index %u does not exist", proto->id, parent);
  if ((proto->function != HPCDB_NONE && proto->function >= exp->n_functions) ||
      (proto->file != HPCDB_NONE && proto->file >= exp->n_files) ||
      (proto->module != HPCDB_NONE && proto->module >= exp->n_modules))
    return hpcdb_fail(HPCDB_EINVAL, "context %u refers to a function, file or module that does not exist",
                      proto->id);
  if (exp->n_contexts == UINT32_MAX - 1)
    return hpcdb_fail(HPCDB_ENOMEM, "too many contexts");
  HPCDB_TRY(VEC_RESERVE(&exp->contexts, &exp->priv->cap_contexts, (uint64_t)exp->n_contexts + 1));
  uint32_t idx = exp->n_contexts;
  const char *name = hpcdb_intern(exp, proto->name);
  if (proto->name && !name) return HPCDB_ENOMEM;
  int added = u64map_add(&exp->priv->ctx_by_id, proto->id, idx); /* one probe finds a duplicate and makes room */
  if (added < 0) return hpcdb_fail(HPCDB_ENOMEM, "out of memory indexing contexts");
  if (!added) return hpcdb_fail(HPCDB_EINVAL, "context id %u is used twice", proto->id);
  hpcdb_context *c = &exp->contexts[idx];
  *c = *proto;
  c->name = name;
  c->parent = parent;
  c->first_child = c->next_sibling = c->last_child = HPCDB_NONE;
  c->flags = presence_flags(c);
  hpcdb_context *p = &exp->contexts[parent];
  if (p->last_child == HPCDB_NONE)
    p->first_child = idx;
  else
    exp->contexts[p->last_child].next_sibling = idx;
  p->last_child = idx;
  exp->n_contexts++;
  if (out_index) *out_index = idx;
  return 0;
}

uint32_t hpcdb_find_context(const hpcdb_experiment *exp, uint32_t id) {
  uint64_t idx;
  return u64map_get(&exp->priv->ctx_by_id, id, &idx) ? (uint32_t)idx : HPCDB_NONE;
}
