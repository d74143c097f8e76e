/* SPDX-License-Identifier: BSD-3-Clause */
/* The alignment's state while runs are matched (internal: align_tree.c
 * builds the nodes, align_match.c finds a context's node). */
#ifndef HPCDB_QUERY_ALIGN_PRIVATE_H
#define HPCDB_QUERY_ALIGN_PRIVATE_H

#include "common/hashmap.h"
#include "query/align_chains.h"
#include "query/align_keys.h"

struct hpcdb_align_private {
  uint32_t cap;
  align_key *key; /* per node: the key of the context that made it */
  uint32_t *last_child;
  align_chains by_parent;  /* (parent node, primary key) */
  align_chains by_primary; /* (frame scope, primary key) */
  align_chains by_file;    /* (frame scope, loop or line file) */
  align_chains by_offset;  /* (frame scope, module offset) */
  hpcdb_strpool names;
  uint32_t tolerance, run; /* the run being aligned */
};

/* A key within a scope or under a parent (0 stays 0: no key). */
static inline uint64_t scoped(uint64_t key, uint32_t scope) {
  return key ? hash_u64(key ^ hash_u64((uint64_t)scope + 0x51)) | 1 : 0;
}

/* The node of the run being aligned for a context of key k under the node
 * parent, by the rules in order (*how and *shift say which), or HPCDB_NONE. */
uint32_t align_find(hpcdb_alignment *al, const align_key *k, uint32_t parent, uint8_t *how, int32_t *shift,
                    const hpcdb_align_options *opt);

#endif
