/* SPDX-License-Identifier: BSD-3-Clause */
/* Calling paths that do not depend on raw ids: each context gets a 64-bit
 * key from its parent's key and a label of what it is (relation, lexical
 * type, function, source line, module + offset, entry point). Equal paths in
 * two experiments get equal keys; diff and the canonical dump use them. */
#ifndef HPCDB_CORE_PATHS_H
#define HPCDB_CORE_PATHS_H

#include <stddef.h>
#include <stdint.h>

#include "common/hashmap.h"
#include "hpcdb/model.h"

typedef struct path_index {
  uint64_t *key;       /* per context index */
  hpcdb_u64map by_key; /* key -> context index (the first, when two share one) */
  uint32_t duplicates; /* contexts whose key another context already had (hash collisions) */
} path_index;

int path_index_build(path_index *pi, const hpcdb_experiment *exp);
void path_index_free(path_index *pi);

/* What a context is, in words ("call > function main (cpi.c:12) [app+0x4a0]"). */
size_t context_label(const hpcdb_experiment *exp, const hpcdb_context *c, char *buf, size_t size);
/* The whole path from the entry point, labels joined by " > " (truncated to size). */
void context_path(const hpcdb_experiment *exp, uint32_t index, char *buf, size_t size);

/* Each profile's identity text; profiles sharing one (e.g. a forked process
 * measured with the same id tuple) get " (2)", " (3)", ... in profile order.
 * *out is an array of n_profiles strings; free with identities_free. */
int profile_identities(const hpcdb_experiment *exp, char ***out);
void identities_free(char **ids, uint32_t n);

#endif
