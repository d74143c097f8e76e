/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb view A B: the rows of the comparison's answers, as JSON: an aligned
 * node (its sides, values, deltas and ratios, per-profile figures, and each
 * side's context for /api/spread) or a function of the bottom-up view. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "compare_rows.h"

static void num(jbuf *b, double v) { /* JSON has no infinity or NaN: null ("new", or not known) */
  if (isfinite(v)) jb_num(b, v);
  else jb_raw(b, "null");
}

static void delta_json(jbuf *b, const char *key, const hpcdb_delta *d) {
  jb_fmt(b, ",\"%s\":[", key);
  num(b, d->a), jb_raw(b, ","), num(b, d->b), jb_raw(b, ","), num(b, d->delta), jb_raw(b, ","), num(b, d->ratio);
  jb_raw(b, "]");
}

/* A side's context of an aligned node as its query's top-down node (for /api/spread?db=D). */
static void ctx_json(jbuf *b, request *r, uint32_t node) {
  const hpcdb_alignment *al = r->cmp->cmp->al;
  jb_raw(b, ",\"ctx\":[");
  for (int d = 0; d < 2; d++) {
    uint32_t i = al->ctx[(size_t)node * 2 + (size_t)d], q = HPCDB_NONE;
    if (i != HPCDB_NONE) q = hpcdb_find_context(hpcdb_query_experiment(r->dbs[d].q), r->cmp->runs[d]->contexts[i].id);
    if (d) jb_raw(b, ",");
    if (q == HPCDB_NONE) jb_raw(b, "null");
    else jb_fmt(b, "%u", q);
  }
  jb_raw(b, "]");
}

int compare_any_value(const double *inc, const double *exc) {
  return inc[0] != 0 || inc[1] != 0 || exc[0] != 0 || exc[1] != 0;
}

int compare_node_has_value(const hpcdb_comparison *c, uint32_t k) {
  return compare_any_value(&c->inc[(size_t)k * 2], &c->exc[(size_t)k * 2]);
}

uint32_t compare_listed_children(const hpcdb_comparison *c, uint32_t node, uint32_t **out) {
  uint32_t n = hpcdb_align_shown_children(c->al, node, NULL, 0), listed = 0;
  uint32_t *kids = malloc(((size_t)n + 1) * sizeof *kids);
  if (!kids) return UINT32_MAX;
  hpcdb_align_shown_children(c->al, node, kids, n);
  for (uint32_t i = 0; i < n; i++)
    if (compare_node_has_value(c, kids[i])) kids[listed++] = kids[i];
  if (out) *out = kids;
  else free(kids);
  return listed;
}

int compare_profiled(const hpcdb_comparison *c) { return c->n_profiles[0] > 1 || c->n_profiles[1] > 1; }

/* node and its ancestors that are rows, root first, comma-separated (a loop, not recursion: a tree may be deep) */
static void ancestors(jbuf *b, const hpcdb_alignment *al, uint32_t node) {
  uint32_t depth = 0;
  for (uint32_t k = node; k != HPCDB_NONE; k = al->nodes[k].parent) depth++;
  uint32_t *up = malloc(((size_t)depth + 1) * sizeof *up);
  if (!up) {
    b->failed = 1; /* the answer becomes a 500 */
    return;
  }
  uint32_t n = 0;
  for (uint32_t k = node; k != HPCDB_NONE; k = al->nodes[k].parent)
    if (!hpcdb_align_hidden(al, k)) up[n++] = k;
  while (n-- > 0) jb_fmt(b, n ? "%u," : "%u", up[n]);
  free(up);
}

/* An aligned node's row: its name (flat: its path), sides, values, per-profile figures; with_path: its path too. */
void compare_node_json(jbuf *b, request *r, uint32_t node, int view, int with_path) {
  const hpcdb_comparison *c = r->cmp->cmp;
  const hpcdb_alignment *al = c->al;
  char path[4096];
  uint32_t children = view == CMP_TOP_DOWN ? compare_listed_children(c, node, NULL) : 0;
  if (children == UINT32_MAX) b->failed = 1; /* out of memory: the answer becomes a 500 */
  jb_fmt(b, "{\"node\":%u,\"children\":%u,\"name\":", node, children);
  if (view == CMP_FLAT && node) hpcdb_align_path(al, node, path, sizeof path);
  jb_str(b, view == CMP_FLAT && node ? path : al->nodes[node].name);
  if (with_path) { /* and its ancestors, root first: the page opens them to show the node */
    hpcdb_align_path(al, node, path, sizeof path);
    jb_raw(b, ",\"path\":");
    jb_str(b, path);
    jb_raw(b, ",\"up\":[");
    ancestors(b, al, al->nodes[node].parent);
    jb_raw(b, "]");
  }
  int a = al->ctx[(size_t)node * 2] != HPCDB_NONE, bb = al->ctx[(size_t)node * 2 + 1] != HPCDB_NONE;
  jb_raw(b, ",\"only\":");
  jb_str(b, a && !bb ? "A" : bb && !a ? "B" : "");
  jb_fmt(b, ",\"frame\":%d", al->nodes[node].is_frame);
  ctx_json(b, r, node);
  hpcdb_delta d;
  hpcdb_compare_delta(c, node, 1, 1, 0, &d);
  delta_json(b, "inc", &d);
  hpcdb_compare_delta(c, node, 1, 0, 0, &d);
  delta_json(b, "exc", &d);
  if (compare_profiled(c)) {
    hpcdb_compare_delta(c, node, 1, 1, 1, &d);
    delta_json(b, "mean", &d);
    hpcdb_compare_delta(c, node, 1, 1, 2, &d);
    delta_json(b, "max", &d);
  }
  jb_raw(b, "}");
}

/* A function's row (bottom-up): its sums over its frames. */
void compare_function_json(jbuf *b, request *r, const hpcdb_compare_functions *fn, uint32_t f) {
  hpcdb_delta inc, exc;
  hpcdb_delta_of(&fn->inc[(size_t)f * 2], 2, 1, &inc);
  hpcdb_delta_of(&fn->exc[(size_t)f * 2], 2, 1, &exc);
  jb_fmt(b, "{\"node\":%u,\"children\":0,\"name\":", f + 1);
  jb_str(b, r->cmp->cmp->al->nodes[fn->node[f]].name);
  jb_raw(b, ",\"only\":");
  jb_str(b, inc.a == 0 && exc.a == 0 ? "B" : inc.b == 0 && exc.b == 0 ? "A" : "");
  jb_raw(b, ",\"frame\":1,\"ctx\":[null,null]");
  delta_json(b, "inc", &inc);
  delta_json(b, "exc", &exc);
  jb_raw(b, "}");
}
