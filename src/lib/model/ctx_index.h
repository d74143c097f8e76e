/* SPDX-License-Identifier: BSD-3-Clause */
/* Context ids to indices in exp->contexts. Readers and the analysis number
 * contexts densely, so a direct table answers with one load; ids far beyond
 * the number of contexts move the index to a hash map for good. */
#ifndef HPCDB_MODEL_CTX_INDEX_H
#define HPCDB_MODEL_CTX_INDEX_H

#include <stdint.h>

#include "common/hashmap.h"

typedef struct ctx_index {
  uint32_t *direct; /* id -> index, HPCDB_NONE where no context; NULL once sparse */
  uint64_t cap;
  int sparse;
  hpcdb_u64map map; /* when sparse */
} ctx_index;

/* The index of the context with id, or HPCDB_NONE. */
uint32_t ctx_index_find(const ctx_index *x, uint32_t id);
/* Records id at idx (id not present; n_contexts: how many contexts there are). */
int ctx_index_put(ctx_index *x, uint32_t id, uint32_t idx, uint32_t n_contexts);
void ctx_index_free(ctx_index *x);

#endif
