/* SPDX-License-Identifier: BSD-3-Clause */
/* Finding a context's aligned node: the rules of docs/compare.md in order
 * (exact key under the same parent, then in the frame scope; a frame's name
 * across frames one side alone has; the nearest moved line; module offsets). */
#include "query/align_private.h"

typedef struct query {
  hpcdb_alignment *al;
  const align_key *k;
} query;

static int claimed(const hpcdb_alignment *al, uint32_t n) {
  return al->ctx[(size_t)n * al->n_runs + al->priv->run] != HPCDB_NONE;
}

/* Exact keys: taken, or (a hash collision) not the same key. */
static int unusable(void *user, uint32_t n) {
  const query *q = user;
  const align_key *o = &q->al->priv->key[n];
  return claimed(q->al, n) || o->cls != q->k->cls || o->primary != q->k->primary;
}

/* The free node of the same file with the nearest line within the tolerance
 * (ties: under the same parent, then the first made). */
static uint32_t nearest_line(hpcdb_alignment *al, const align_key *k, uint32_t scope, uint32_t parent) {
  struct hpcdb_align_private *pv = al->priv;
  uint32_t best = HPCDB_NONE;
  long best_cost = 0;
  for (uint32_t n = align_chains_head(&pv->by_file, scoped(k->file, scope)); n != HPCDB_NONE; n = pv->by_file.next[n]) {
    const align_key *o = &pv->key[n];
    long d = (long)o->line - (long)k->line;
    if (d < 0) d = -d;
    if (claimed(al, n) || o->cls != k->cls || o->file != k->file || d > (long)pv->tolerance) continue;
    long cost = d * 2 + (al->nodes[n].parent != parent);
    if (best == HPCDB_NONE || cost < best_cost) best = n, best_cost = cost;
  }
  return best;
}

/* Offsets only where one of the two has no name or line to go by. */
static uint32_t same_offset(hpcdb_alignment *al, const align_key *k, uint32_t scope) {
  struct hpcdb_align_private *pv = al->priv;
  for (uint32_t n = align_chains_head(&pv->by_offset, scoped(k->offset, scope)); n != HPCDB_NONE;
       n = pv->by_offset.next[n]) {
    const align_key *o = &pv->key[n];
    if (!claimed(al, n) && o->cls == k->cls && o->offset == k->offset &&
        (o->kind == HPCDB_MATCH_OFFSET || k->kind == HPCDB_MATCH_OFFSET))
      return n;
  }
  return HPCDB_NONE;
}

/* Made by the run being aligned: no earlier run has the node. */
static int only_this_run(const hpcdb_alignment *al, uint32_t n) {
  for (uint32_t r = 0; r < al->priv->run; r++)
    if (al->ctx[(size_t)n * al->n_runs + r] != HPCDB_NONE) return 0;
  return 1;
}

#define ACROSS_LEVELS 3    /* wrapper frames looked through, upwards */
#define ACROSS_VISITS 4096 /* nodes of a scope searched for wrappers the run lacks */

/* A frame matched across a frame one side alone has: up, through frames this
 * run made (Score-P's program region above main); down, into frames of the
 * scope this run has not taken (a wrapper this build inlined). */
static uint32_t across(hpcdb_alignment *al, const align_key *k, uint32_t scope, query *q) {
  struct hpcdb_align_private *pv = al->priv;
  uint32_t n = HPCDB_NONE;
  for (uint32_t s = scope, level = 0; n == HPCDB_NONE && level < ACROSS_LEVELS && s != 0 && only_this_run(al, s);
       level++) {
    s = al->nodes[al->nodes[s].parent].scope;
    n = align_chains_first_free(&pv->by_primary, scoped(k->primary, s), unusable, q);
  }
  uint32_t stack[64], depth = 0, visits = 0;
  for (uint32_t c = al->nodes[scope].first_child; c != HPCDB_NONE && depth < 64; c = al->nodes[c].next_sibling)
    stack[depth++] = c;
  while (n == HPCDB_NONE && depth > 0 && visits++ < ACROSS_VISITS) {
    uint32_t f = stack[--depth];
    if (al->nodes[f].is_frame) {
      if (!claimed(al, f)) n = align_chains_first_free(&pv->by_primary, scoped(k->primary, f), unusable, q);
      continue; /* the frame's own scope is not this one's */
    }
    for (uint32_t c = al->nodes[f].first_child; c != HPCDB_NONE && depth < 64; c = al->nodes[c].next_sibling)
      stack[depth++] = c;
  }
  return n;
}

uint32_t align_find(hpcdb_alignment *al, const align_key *k, uint32_t parent, uint8_t *how, int32_t *shift,
                    const hpcdb_align_options *opt) {
  struct hpcdb_align_private *pv = al->priv;
  uint32_t scope = al->nodes[parent].scope;
  query q = {al, k};
  uint32_t n = align_chains_first_free(&pv->by_parent, scoped(k->primary, parent), unusable, &q);
  if (n == HPCDB_NONE) n = align_chains_first_free(&pv->by_primary, scoped(k->primary, scope), unusable, &q);
  if (n != HPCDB_NONE) return n;
  if (k->cls == AC_FRAME && k->kind == HPCDB_MATCH_NAME && (n = across(al, k, scope, &q)) != HPCDB_NONE) {
    *how = HPCDB_MATCH_NAME_ACROSS;
    return n;
  }
  if (k->file && !(opt && opt->no_shifted_lines) && (n = nearest_line(al, k, scope, parent)) != HPCDB_NONE) {
    *how = HPCDB_MATCH_LINE_SHIFTED;
    *shift = (int32_t)k->line - (int32_t)pv->key[n].line;
    return n;
  }
  if (k->offset && (n = same_offset(al, k, scope)) != HPCDB_NONE) *how = HPCDB_MATCH_OFFSET;
  return n;
}
