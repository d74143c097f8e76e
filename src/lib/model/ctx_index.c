/* SPDX-License-Identifier: BSD-3-Clause */
/* Context ids to indices: a direct table while ids are dense, a hash map after. */
#include "model/ctx_index.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "hpcdb/model.h"

/* An id beyond this (for n contexts) makes the index sparse: the direct table
 * stays within a few words per context. */
static uint64_t direct_limit(uint32_t n_contexts) { return 4 * (uint64_t)n_contexts + 1024; }

uint32_t ctx_index_find(const ctx_index *x, uint32_t id) {
  if (!x->sparse) return id < x->cap ? x->direct[id] : HPCDB_NONE;
  uint64_t idx;
  return u64map_get(&x->map, id, &idx) ? (uint32_t)idx : HPCDB_NONE;
}

static int go_sparse(ctx_index *x) {
  for (uint64_t id = 0; id < x->cap; id++)
    if (x->direct[id] != HPCDB_NONE && u64map_put(&x->map, id, x->direct[id]) != 0)
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory indexing contexts");
  free(x->direct);
  x->direct = NULL;
  x->cap = 0;
  x->sparse = 1;
  return 0;
}

static int grow(ctx_index *x, uint64_t need) {
  uint64_t cap = x->cap ? x->cap : 1024;
  while (cap < need) cap *= 2;
  uint32_t *d = realloc(x->direct, cap * sizeof *d);
  if (!d) return hpcdb_fail(HPCDB_ENOMEM, "out of memory indexing contexts");
  memset(d + x->cap, 0xff, (cap - x->cap) * sizeof *d);
  x->direct = d;
  x->cap = cap;
  return 0;
}

int ctx_index_put(ctx_index *x, uint32_t id, uint32_t idx, uint32_t n_contexts) {
  if (!x->sparse && id >= x->cap) {
    if (id >= direct_limit(n_contexts)) HPCDB_TRY(go_sparse(x));
    else HPCDB_TRY(grow(x, (uint64_t)id + 1));
  }
  if (!x->sparse) {
    x->direct[id] = idx;
    return 0;
  }
  if (u64map_put(&x->map, id, idx) != 0) return hpcdb_fail(HPCDB_ENOMEM, "out of memory indexing contexts");
  return 0;
}

void ctx_index_free(ctx_index *x) {
  free(x->direct);
  u64map_free(&x->map);
  memset(x, 0, sizeof *x);
}
