/* SPDX-License-Identifier: BSD-3-Clause */
/* Lists of aligned nodes sharing a key, in the order they were made, for
 * the alignment's lookups (internal). A run asks for the first node of a
 * list it has not taken yet; nodes it took are skipped by pointers that are
 * shortened as they are followed, so a list of k twins costs O(k) over the
 * whole run instead of O(k) per lookup. */
#ifndef HPCDB_QUERY_ALIGN_CHAINS_H
#define HPCDB_QUERY_ALIGN_CHAINS_H

#include <stdint.h>

#include "common/hashmap.h"

typedef struct align_chains {
  hpcdb_u64map head, tail; /* key -> first and last node */
  uint32_t *next;          /* per node: the next node of its list */
  uint32_t *skip;          /* per node, for the current run: a later node that may be free */
  uint32_t cap;
} align_chains;

/* Room for nodes [0, cap). */
int align_chains_reserve(align_chains *c, uint32_t cap);
/* Appends node to key's list (key 0: no list). */
int align_chains_add(align_chains *c, uint64_t key, uint32_t node);
/* Before a run: every node may be free again (n: nodes so far). */
void align_chains_new_run(align_chains *c, uint32_t n);
/* The first node of key's list for which taken(user, node) is 0 (skipping
 * those for which it is 1 from now on), HPCDB_NONE when none. */
uint32_t align_chains_first_free(align_chains *c, uint64_t key, int (*taken)(void *user, uint32_t node), void *user);
/* The head of key's list (HPCDB_NONE), to walk it with next[]. */
uint32_t align_chains_head(const align_chains *c, uint64_t key);
void align_chains_free(align_chains *c);

#endif
