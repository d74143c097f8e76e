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
#include "query/align_chains.h"
#include "query/align_keys.h"

struct hpcdb_align_private {
  uint32_t cap;
  align_key *key;          /* per node: the key of the context that made it */
  uint32_t *last_child;
  align_chains by_parent;  /* (parent node, primary key) */
  align_chains by_primary; /* (frame scope, primary key) */
  align_chains by_file;    /* (frame scope, loop or line file) */
  align_chains by_offset;  /* (frame scope, module offset) */
  hpcdb_strpool names;
  uint32_t tolerance, run; /* the run being aligned */
};

static uint64_t scoped(uint64_t key, uint32_t scope) {
  return key ? hash_u64(key ^ hash_u64((uint64_t)scope + 0x51)) | 1 : 0;
}

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
  GROW(pv->last_child, cap);
#undef GROW
  HPCDB_TRY(align_chains_reserve(&pv->by_parent, cap));
  HPCDB_TRY(align_chains_reserve(&pv->by_primary, cap));
  HPCDB_TRY(align_chains_reserve(&pv->by_file, cap));
  HPCDB_TRY(align_chains_reserve(&pv->by_offset, cap));
  pv->cap = cap;
  return 0;
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
  HPCDB_TRY(align_chains_add(&pv->by_parent, scoped(k->primary, parent), n));
  HPCDB_TRY(align_chains_add(&pv->by_primary, scoped(k->primary, scope), n));
  HPCDB_TRY(align_chains_add(&pv->by_file, scoped(k->file, scope), n));
  HPCDB_TRY(align_chains_add(&pv->by_offset, scoped(k->offset, scope), n));
  *out = n;
  return 0;
}

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
  for (uint32_t n = align_chains_head(&pv->by_offset, scoped(k->offset, scope)); n != HPCDB_NONE; n = pv->by_offset.next[n]) {
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

#define ACROSS_LEVELS 3     /* wrapper frames looked through, upwards */
#define ACROSS_VISITS 4096  /* nodes of a scope searched for wrappers the run lacks */

/* A frame matched across a frame one side alone has: up, through frames this
 * run made (Score-P's program region above main); down, into frames of the
 * scope this run has not taken (a wrapper this build inlined). */
static uint32_t across(hpcdb_alignment *al, const align_key *k, uint32_t scope, query *q) {
  struct hpcdb_align_private *pv = al->priv;
  uint32_t n = HPCDB_NONE;
  for (uint32_t s = scope, level = 0; n == HPCDB_NONE && level < ACROSS_LEVELS && s != 0 && only_this_run(al, s); level++) {
    s = al->nodes[al->nodes[s].parent].scope;
    n = align_chains_first_free(&pv->by_primary, scoped(k->primary, s), unusable, q);
  }
  uint32_t stack[64], depth = 0, visits = 0;
  for (uint32_t c = al->nodes[scope].first_child; c != HPCDB_NONE && depth < 64; c = al->nodes[c].next_sibling) stack[depth++] = c;
  while (n == HPCDB_NONE && depth > 0 && visits++ < ACROSS_VISITS) {
    uint32_t f = stack[--depth];
    if (al->nodes[f].is_frame) {
      if (!claimed(al, f)) n = align_chains_first_free(&pv->by_primary, scoped(k->primary, f), unusable, q);
      continue; /* the frame's own scope is not this one's */
    }
    for (uint32_t c = al->nodes[f].first_child; c != HPCDB_NONE && depth < 64; c = al->nodes[c].next_sibling) stack[depth++] = c;
  }
  return n;
}

static uint32_t find(hpcdb_alignment *al, const align_key *k, uint32_t parent, uint8_t *how, int32_t *shift,
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
    else if (i > 0 && r > 0) node = find(al, &k, parent, &how, &shift, opt);
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
