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
 * one side has no name or line. A node another context of the same run
 * already took is not taken twice; among candidates the one under the same
 * parent node wins, then the first made. No match: a new node under the
 * parent's node, which only this run has so far. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "query/align_keys.h"

struct hpcdb_align_private {
  uint32_t cap;
  align_key *key;            /* per node: the key of the context that made it */
  uint32_t *next_primary, *next_file, *next_offset; /* chains of nodes sharing a scoped key */
  hpcdb_u64map by_primary, by_file, by_offset;      /* scoped key -> the last node made with it */
  hpcdb_strpool names;
  uint32_t *last_child;
  uint32_t tolerance;
};

static uint64_t scoped(uint64_t key, uint32_t scope) { return hash_u64(key ^ hash_u64((uint64_t)scope + 0x51)) | 1; }

static int grow(hpcdb_alignment *al) {
  struct hpcdb_align_private *pv = al->priv;
  if (al->n_nodes < pv->cap) return 0;
  uint32_t cap = pv->cap ? pv->cap * 2 : 1024;
  size_t r = al->n_runs;
#define GROW(p, n) do { void *q_ = realloc((p), (size_t)(n) * sizeof *(p)); if (!q_) return hpcdb_fail(HPCDB_ENOMEM, "out of memory aligning runs"); (p) = q_; } while (0)
  GROW(al->nodes, cap);
  GROW(al->ctx, (size_t)cap * r);
  GROW(al->how, (size_t)cap * r);
  GROW(al->shift, (size_t)cap * r);
  GROW(pv->key, cap);
  GROW(pv->next_primary, cap);
  GROW(pv->next_file, cap);
  GROW(pv->next_offset, cap);
  GROW(pv->last_child, cap);
#undef GROW
  pv->cap = cap;
  return 0;
}

static void chain(hpcdb_u64map *m, uint32_t *next, uint64_t key, uint32_t node, int *rc) {
  uint64_t head = HPCDB_NONE;
  if (!key) {
    next[node] = HPCDB_NONE;
    return;
  }
  u64map_get(m, key, &head);
  next[node] = (uint32_t)head;
  if (u64map_put(m, key, node) != 0) *rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory aligning runs");
}

static int new_node(hpcdb_alignment *al, uint32_t parent, const align_key *k, const hpcdb_experiment *e,
                    uint32_t ctx, uint32_t *out) {
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
  int rc = 0;
  chain(&pv->by_primary, pv->next_primary, scoped(k->primary, scope), n, &rc);
  chain(&pv->by_file, pv->next_file, k->file ? scoped(k->file, scope) : 0, n, &rc);
  chain(&pv->by_offset, pv->next_offset, k->offset ? scoped(k->offset, scope) : 0, n, &rc);
  *out = n;
  return rc;
}

/* The best free node of a chain: under `parent` first, then the first made. */
typedef int (*accept_fn)(const hpcdb_alignment *al, uint32_t node, const align_key *k, long *cost);

static uint32_t pick(const hpcdb_alignment *al, const hpcdb_u64map *m, const uint32_t *next, uint64_t key,
                     uint32_t run, uint32_t parent, const align_key *k, accept_fn accept) {
  uint64_t head;
  if (!key || !u64map_get(m, key, &head)) return HPCDB_NONE;
  uint32_t best = HPCDB_NONE;
  long best_cost = 0;
  for (uint32_t n = (uint32_t)head; n != HPCDB_NONE; n = next[n]) {
    long cost = 0;
    if (al->ctx[(size_t)n * al->n_runs + run] != HPCDB_NONE || !accept(al, n, k, &cost)) continue;
    cost = cost * 4 + (al->nodes[n].parent != parent) * 2;
    if (best == HPCDB_NONE || cost < best_cost || (cost == best_cost && n < best)) {
      best = n;
      best_cost = cost;
    }
  }
  return best;
}

static int same_class(const hpcdb_alignment *al, uint32_t n, const align_key *k, long *cost) {
  return al->priv->key[n].cls == k->cls && al->priv->key[n].primary == k->primary;
}

static int near_line(const hpcdb_alignment *al, uint32_t n, const align_key *k, long *cost) {
  const align_key *o = &al->priv->key[n];
  long d = (long)o->line - (long)k->line;
  *cost = d < 0 ? -d : d;
  return o->cls == k->cls && o->file == k->file && *cost <= (long)al->priv->tolerance;
}

/* Offsets only where one of the two has no name or line to go by. */
static int by_offset(const hpcdb_alignment *al, uint32_t n, const align_key *k, long *cost) {
  const align_key *o = &al->priv->key[n];
  return o->cls == k->cls && o->offset == k->offset &&
         (o->kind == HPCDB_MATCH_OFFSET || k->kind == HPCDB_MATCH_OFFSET);
}

static int align_run(hpcdb_alignment *al, uint32_t r, const hpcdb_align_options *opt) {
  const hpcdb_experiment *e = al->runs[r];
  struct hpcdb_align_private *pv = al->priv;
  uint32_t *map = malloc(((size_t)e->n_contexts + 1) * sizeof *map);
  if (!map) return hpcdb_fail(HPCDB_ENOMEM, "out of memory aligning runs");
  int rc = 0;
  for (uint32_t i = 0; i < e->n_contexts && rc == 0; i++) {
    align_key k;
    align_key_of(e, i, &k);
    uint32_t parent = i == 0 ? HPCDB_NONE : map[e->contexts[i].parent];
    uint32_t scope = parent == HPCDB_NONE ? HPCDB_NONE : al->nodes[parent].scope;
    uint32_t node = HPCDB_NONE;
    uint8_t how = k.kind;
    int32_t shift = 0;
    if (i == 0 && r > 0) node = 0;
    else if (i > 0) node = pick(al, &pv->by_primary, pv->next_primary, scoped(k.primary, scope), r, parent, &k, same_class);
    if (node == HPCDB_NONE && k.file && !(opt && opt->no_shifted_lines)) {
      node = pick(al, &pv->by_file, pv->next_file, scoped(k.file, scope), r, parent, &k, near_line);
      if (node != HPCDB_NONE) {
        how = HPCDB_MATCH_LINE_SHIFTED;
        shift = (int32_t)k.line - (int32_t)pv->key[node].line;
      }
    }
    if (node == HPCDB_NONE && k.offset) {
      node = pick(al, &pv->by_offset, pv->next_offset, scoped(k.offset, scope), r, parent, &k, by_offset);
      if (node != HPCDB_NONE) how = HPCDB_MATCH_OFFSET;
    }
    if (node == HPCDB_NONE && (rc = new_node(al, parent, &k, e, i, &node)) < 0) break;
    al->ctx[(size_t)node * al->n_runs + r] = i;
    al->how[(size_t)node * al->n_runs + r] = how;
    al->shift[(size_t)node * al->n_runs + r] = shift;
    map[i] = node;
  }
  free(map);
  return rc;
}

int hpcdb_align(hpcdb_alignment **out, const hpcdb_experiment *const *runs, uint32_t n_runs,
                const hpcdb_align_options *options) {
  *out = NULL;
  if (!runs || n_runs == 0) return hpcdb_fail(HPCDB_EINVAL, "hpcdb_align: no runs");
  for (uint32_t r = 0; r < n_runs; r++)
    if (!runs[r] || runs[r]->n_contexts == 0) return hpcdb_fail(HPCDB_EINVAL, "hpcdb_align: run %u has no context tree", r);
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
  *out = al;
  return 0;
}

void hpcdb_alignment_free(hpcdb_alignment *al) {
  if (!al) return;
  struct hpcdb_align_private *pv = al->priv;
  if (pv) {
    free(pv->key);
    free(pv->next_primary);
    free(pv->next_file);
    free(pv->next_offset);
    free(pv->last_child);
    u64map_free(&pv->by_primary);
    u64map_free(&pv->by_file);
    u64map_free(&pv->by_offset);
    strpool_free(&pv->names);
    free(pv);
  }
  free(al->nodes);
  free(al->ctx);
  free(al->how);
  free(al->shift);
  free(al);
}
