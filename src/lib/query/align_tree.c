/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_align: the context trees of several runs merged into one tree of
 * nodes by what the contexts mean (docs/compare.md, "Alignment").
 *
 * Each run is walked parents first. A context is looked for among the nodes
 * of the same frame scope (the nearest enclosing entry point, call or inlined
 * call): loops and lines between a call and its caller differ from build to
 * build, so a callee is matched under its calling function wherever the
 * loops put it. The rules, tried in order: the primary key exactly (entry
 * point, function name, file:line); for loops and lines the same file with
 * the nearest line within the tolerance; module name + offset, only where
 * one side has no name or line; a frame's name across a frame one side
 * alone has (across()). A node another context of the same run
 * already took is not taken twice; among candidates the one under the same
 * parent node wins, then the first made (for shifted lines: the nearest
 * line, then the same parent). No match: a new node under the parent's node,
 * which only this run has so far. The first run matches nothing: each of its
 * contexts makes a node. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "query/align_private.h"

static int grow(hpcdb_alignment *al) {
  struct hpcdb_align_private *pv = al->priv;
  if (al->n_nodes < pv->cap) return 0;
  uint32_t cap = pv->cap ? pv->cap * 2 : 1024;
  size_t r = al->n_runs;
#define GROW(p, n)                                                           \
  do {                                                                       \
    void *q_ = realloc((p), (size_t)(n) * sizeof *(p));                      \
    if (!q_) return hpcdb_fail(HPCDB_ENOMEM, "out of memory aligning runs"); \
    (p) = q_;                                                                \
  } while (0)
  GROW(al->nodes, cap);
  GROW(al->ctx, (size_t)cap * r);
  GROW(al->how, (size_t)cap * r);
  GROW(al->shift, (size_t)cap * r);
  GROW(pv->key, cap);
  GROW(pv->last_child, cap);
#undef GROW
  HPCDB_TRY(align_chains_reserve(&pv->by_parent, cap));
  HPCDB_TRY(align_chains_reserve(&pv->by_primary, cap));
  HPCDB_TRY(align_chains_reserve(&pv->by_file, cap));
  HPCDB_TRY(align_chains_reserve(&pv->by_offset, cap));
  pv->cap = cap;
  return 0;
}

static int new_node(hpcdb_alignment *al, uint32_t parent, const align_key *k, const hpcdb_experiment *e, uint32_t ctx,
                    uint32_t *out) {
  HPCDB_TRY(grow(al));
  struct hpcdb_align_private *pv = al->priv;
  uint32_t n = al->n_nodes++;
  hpcdb_align_node *node = &al->nodes[n];
  char name[1024];
  size_t len = align_display_name(e, ctx, name, sizeof name);
  if (len >= sizeof name) len = sizeof name - 1;
  node->name = strpool_intern(&pv->names, name, len);
  if (!node->name) return hpcdb_fail(HPCDB_ENOMEM, "out of memory aligning runs");
  node->parent = parent;
  node->first_child = node->next_sibling = HPCDB_NONE;
  node->is_frame = k->cls == AC_ROOT || k->cls == AC_ENTRY || k->cls == AC_FRAME;
  node->scope = node->is_frame || parent == HPCDB_NONE ? n : al->nodes[parent].scope;
  pv->last_child[n] = HPCDB_NONE;
  if (parent != HPCDB_NONE) { /* appended as the last child */
    if (pv->last_child[parent] == HPCDB_NONE) al->nodes[parent].first_child = n;
    else al->nodes[pv->last_child[parent]].next_sibling = n;
    pv->last_child[parent] = n;
  }
  for (uint32_t r = 0; r < al->n_runs; r++) {
    al->ctx[(size_t)n * al->n_runs + r] = HPCDB_NONE;
    al->how[(size_t)n * al->n_runs + r] = HPCDB_MATCH_ABSENT;
    al->shift[(size_t)n * al->n_runs + r] = 0;
  }
  pv->key[n] = *k;
  uint32_t scope = parent == HPCDB_NONE ? HPCDB_NONE : al->nodes[parent].scope;
  HPCDB_TRY(align_chains_add(&pv->by_parent, scoped(k->primary, parent), n));
  HPCDB_TRY(align_chains_add(&pv->by_primary, scoped(k->primary, scope), n));
  HPCDB_TRY(align_chains_add(&pv->by_file, scoped(k->file, scope), n));
  HPCDB_TRY(align_chains_add(&pv->by_offset, scoped(k->offset, scope), n));
  *out = n;
  return 0;
}

static int align_run(hpcdb_alignment *al, uint32_t r, const hpcdb_align_options *opt) {
  const hpcdb_experiment *e = al->runs[r];
  struct hpcdb_align_private *pv = al->priv;
  uint32_t *map = malloc(((size_t)e->n_contexts + 1) * sizeof *map);
  if (!map) return hpcdb_fail(HPCDB_ENOMEM, "out of memory aligning runs");
  pv->run = r;
  align_chains_new_run(&pv->by_parent, al->n_nodes);
  align_chains_new_run(&pv->by_primary, al->n_nodes);
  int rc = 0;
  for (uint32_t i = 0; i < e->n_contexts && rc == 0; i++) {
    align_key k;
    align_key_of(e, i, &k);
    uint32_t parent = i == 0 ? HPCDB_NONE : map[e->contexts[i].parent];
    uint32_t node = HPCDB_NONE;
    uint8_t how = k.kind;
    int32_t shift = 0;
    if (i == 0 && r > 0) node = 0;
    else if (i > 0 && r > 0) node = align_find(al, &k, parent, &how, &shift, opt);
    if (node == HPCDB_NONE && (rc = new_node(al, parent, &k, e, i, &node)) < 0) break;
    al->ctx[(size_t)node * al->n_runs + r] = i;
    al->how[(size_t)node * al->n_runs + r] = how;
    al->shift[(size_t)node * al->n_runs + r] = shift;
    map[i] = node;
  }
  free(map);
  return rc;
}

static void free_lookups(struct hpcdb_align_private *pv) {
  free(pv->key);
  free(pv->last_child);
  pv->key = NULL, pv->last_child = NULL;
  align_chains_free(&pv->by_parent);
  align_chains_free(&pv->by_primary);
  align_chains_free(&pv->by_file);
  align_chains_free(&pv->by_offset);
}

int hpcdb_align(hpcdb_alignment **out, const hpcdb_experiment *const *runs, uint32_t n_runs,
                const hpcdb_align_options *options) {
  *out = NULL;
  HPCDB_CHECK_OPTIONS(options, HPCDB_ALIGN_OPTIONS_VERSION, "hpcdb_align_options");
  if (!runs || n_runs == 0) return hpcdb_fail(HPCDB_EINVAL, "hpcdb_align: no runs");
  for (uint32_t r = 0; r < n_runs; r++)
    if (!runs[r] || runs[r]->n_contexts == 0)
      return hpcdb_fail(HPCDB_EINVAL, "hpcdb_align: run %u has no context tree", r);
  hpcdb_alignment *al = calloc(1, sizeof *al);
  if (!al || !(al->priv = calloc(1, sizeof *al->priv))) {
    free(al);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory aligning runs");
  }
  al->n_runs = n_runs;
  al->runs = runs;
  al->priv->tolerance = options && options->line_tolerance ? options->line_tolerance : 8;
  int rc = 0;
  for (uint32_t r = 0; r < n_runs && rc == 0; r++) rc = align_run(al, r, options);
  if (rc < 0) {
    hpcdb_alignment_free(al);
    return rc;
  }
  free_lookups(al->priv); /* the lookups serve the matching only: their memory goes now */
  *out = al;
  return 0;
}

void hpcdb_alignment_free(hpcdb_alignment *al) {
  if (!al) return;
  struct hpcdb_align_private *pv = al->priv;
  if (pv) {
    free_lookups(pv);
    strpool_free(&pv->names);
    free(pv);
  }
  free(al->nodes);
  free(al->ctx);
  free(al->how);
  free(al->shift);
  free(al);
}
