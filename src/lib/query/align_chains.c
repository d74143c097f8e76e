/* SPDX-License-Identifier: BSD-3-Clause */
#include "query/align_chains.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "hpcdb/model.h"

int align_chains_reserve(align_chains *c, uint32_t cap) {
  if (cap <= c->cap) return 0;
  uint32_t *next = realloc(c->next, (size_t)cap * sizeof *next);
  if (next) c->next = next;
  uint32_t *skip = next ? realloc(c->skip, (size_t)cap * sizeof *skip) : NULL;
  if (!next || !skip) return hpcdb_fail(HPCDB_ENOMEM, "out of memory aligning runs");
  c->skip = skip;
  c->cap = cap;
  return 0;
}

int align_chains_add(align_chains *c, uint64_t key, uint32_t node) {
  c->next[node] = c->skip[node] = HPCDB_NONE;
  if (!key) return 0;
  uint64_t last;
  if (u64map_get(&c->tail, key, &last))
    c->next[last] = node; /* the current run took it or skips past: its skip stays */
  else if (u64map_put(&c->head, key, node) != 0) return hpcdb_fail(HPCDB_ENOMEM, "out of memory aligning runs");
  if (u64map_put(&c->tail, key, node) != 0) return hpcdb_fail(HPCDB_ENOMEM, "out of memory aligning runs");
  return 0;
}

void align_chains_new_run(align_chains *c, uint32_t n) {
  if (n) memcpy(c->skip, c->next, (size_t)n * sizeof *c->skip);
}

uint32_t align_chains_head(const align_chains *c, uint64_t key) {
  uint64_t head;
  return key && u64map_get(&c->head, key, &head) ? (uint32_t)head : HPCDB_NONE;
}

uint32_t align_chains_first_free(align_chains *c, uint64_t key, int (*taken)(void *user, uint32_t node), void *user) {
  uint32_t first = align_chains_head(c, key), n = first;
  while (n != HPCDB_NONE && taken(user, n)) n = c->skip[n];
  /* shorten the way: every taken node passed now points at n */
  for (uint32_t k = first; k != n && k != HPCDB_NONE;) {
    uint32_t after = c->skip[k];
    c->skip[k] = n;
    k = after;
  }
  return n;
}

void align_chains_free(align_chains *c) {
  u64map_free(&c->head);
  u64map_free(&c->tail);
  free(c->next);
  free(c->skip);
  memset(c, 0, sizeof *c);
}
