/* hpcdb view A B: the comparison's routes. Everything comes from the public
 * compare API (the alignment, the values, the ranking, the per-function
 * sums); these routes only page and write it.
 *   /api/compare           the runs, the alignment's counts, the totals and
 *                          the largest regressions and improvements
 *   /api/compare/children  a node's children in the aligned tree (top-down),
 *                          every node with its path (flat) or the functions
 *                          (bottom-up), ranked by |delta| or |log ratio| */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_state.h"
#include "routes.h"

enum { CMP_TOP_DOWN, CMP_BOTTOM_UP, CMP_FLAT };

static int req_comparison(request *r, hpcdb_comparison **out) {
  if (r->n_dbs < 2) return req_error(r, 404, "one database is open: hpcdb view A B compares two");
  const char *metric = req_arg(r, "metric");
  if (metric && strlen(metric) > 1024) return req_error(r, 400, "metric: longer than 1024 characters");
  int rc = view_compare_get(r->cmp, r->dbs, metric);
  if (rc == HPCDB_EINVAL) return req_error(r, 400, "metric: %s", hpcdb_last_error());
  if (rc < 0) return req_error(r, 422, "%s", hpcdb_last_error());
  *out = r->cmp->cmp;
  return 0;
}

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

static int any_value(const double *inc, const double *exc) { return inc[0] || inc[1] || exc[0] || exc[1]; }

static int node_has_value(const hpcdb_comparison *c, uint32_t k) { return any_value(&c->inc[(size_t)k * 2], &c->exc[(size_t)k * 2]); }

static uint32_t listed_children(const hpcdb_comparison *c, uint32_t node) {
  uint32_t n = 0;
  for (uint32_t k = c->al->nodes[node].first_child; k != HPCDB_NONE; k = c->al->nodes[k].next_sibling) n += node_has_value(c, k);
  return n;
}

static int profiled(const hpcdb_comparison *c) { return c->n_profiles[0] > 1 || c->n_profiles[1] > 1; }

/* An aligned node's row: its name (flat: its path), sides, values, per-profile figures; with_path: its path too. */
static void node_json(jbuf *b, request *r, uint32_t node, int view, int with_path) {
  const hpcdb_comparison *c = r->cmp->cmp;
  const hpcdb_alignment *al = c->al;
  char path[4096];
  jb_fmt(b, "{\"node\":%u,\"children\":%u,\"name\":", node, view == CMP_TOP_DOWN ? listed_children(c, node) : 0);
  if (view == CMP_FLAT && node) hpcdb_align_path(al, node, path, sizeof path);
  jb_str(b, view == CMP_FLAT && node ? path : al->nodes[node].name);
  if (with_path) { /* and its ancestors, root first: the page opens them to show the node */
    hpcdb_align_path(al, node, path, sizeof path);
    jb_raw(b, ",\"path\":");
    jb_str(b, path);
    uint32_t up[256], n = 0;
    for (uint32_t k = al->nodes[node].parent; k != HPCDB_NONE && n < 256; k = al->nodes[k].parent) up[n++] = k;
    jb_raw(b, ",\"up\":[");
    while (n-- > 0) jb_fmt(b, "%u%s", up[n], n ? "," : "");
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
  if (profiled(c)) {
    hpcdb_compare_delta(c, node, 1, 1, 1, &d);
    delta_json(b, "mean", &d);
    hpcdb_compare_delta(c, node, 1, 1, 2, &d);
    delta_json(b, "max", &d);
  }
  jb_raw(b, "}");
}

/* A function's row (bottom-up): its sums over its frames. */
static void function_json(jbuf *b, request *r, const hpcdb_compare_functions *fn, uint32_t f) {
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

int route_compare(request *r) {
  hpcdb_comparison *c;
  uint32_t top;
  if (req_comparison(r, &c) < 0 || req_u32(r, "top", 10, 1000, &top) < 0) return -1;
  const hpcdb_alignment *al = c->al;
  uint32_t both = 0, only[2] = {0, 0};
  for (uint32_t k = 0; k < al->n_nodes; k++) {
    int a = al->ctx[(size_t)k * 2] != HPCDB_NONE, b = al->ctx[(size_t)k * 2 + 1] != HPCDB_NONE;
    if (a && b) both++;
    else only[b]++;
  }
  uint32_t *lists[2] = {malloc(((size_t)top + 1) * sizeof(uint32_t)), malloc(((size_t)top + 1) * sizeof(uint32_t))}, n[2];
  int rc = lists[0] && lists[1] ? 0 : req_error(r, 500, "out of memory");
  for (int s = 0; s < 2 && rc == 0; s++) { /* regressions, improvements; hpcdb compare's default 1% share */
    n[s] = hpcdb_compare_changes(c, 1, 0.01, s == 0, lists[s], top);
    if (n[s] > top) n[s] = top;
    if (profiled(c) && hpcdb_compare_profiles(c, lists[s], n[s]) < 0) rc = req_error(r, 422, "%s", hpcdb_last_error());
  }
  uint32_t root = 0;
  if (rc == 0 && profiled(c) && hpcdb_compare_profiles(c, &root, 1) < 0) rc = req_error(r, 422, "%s", hpcdb_last_error());
  if (rc < 0) {
    free(lists[0]), free(lists[1]);
    return -1;
  }
  jbuf *b = &r->out;
  jb_raw(b, "{\"runs\":[");
  for (int d = 0; d < 2; d++) {
    const hpcdb_experiment *e = r->cmp->runs[d];
    jb_raw(b, d ? ",{\"path\":" : "{\"path\":");
    jb_str(b, r->dbs[d].path);
    jb_raw(b, ",\"format\":");
    jb_str(b, e->format ? e->format : "");
    jb_raw(b, ",\"metric\":");
    jb_str(b, e->metrics[c->metric[d]].name);
    jb_fmt(b, ",\"profiles\":%u}", c->n_profiles[d]);
  }
  jb_raw(b, "],\"seconds\":");
  num(b, c->seconds[0]);
  jb_fmt(b, ",\"profiled\":%d,\"nodes\":%u,\"both\":%u,\"only_a\":%u,\"only_b\":%u,\"total\":", profiled(c), al->n_nodes,
         both, only[0], only[1]);
  node_json(b, r, 0, CMP_TOP_DOWN, 0);
  for (int s = 0; s < 2; s++) {
    jb_raw(b, s ? "],\"improvements\":[" : ",\"regressions\":[");
    for (uint32_t i = 0; i < n[s]; i++) {
      if (i) jb_raw(b, ",");
      node_json(b, r, lists[s][i], CMP_TOP_DOWN, 1);
    }
  }
  jb_raw(b, "]}");
  free(lists[0]), free(lists[1]);
  return 0;
}

typedef struct ranked {
  uint32_t node;
  double key;
} ranked;

static int by_key(const void *x, const void *y) {
  const ranked *a = x, *b = y;
  if (a->key != b->key) return a->key > b->key ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}

int route_compare_children(request *r) {
  hpcdb_comparison *c;
  uint32_t node, offset, limit;
  const char *v = req_arg(r, "view"), *sort = req_arg(r, "sort"), *flavour = req_arg(r, "flavour");
  int view = !v || !strcmp(v, "top-down") ? CMP_TOP_DOWN : !strcmp(v, "bottom-up") ? CMP_BOTTOM_UP : !strcmp(v, "flat") ? CMP_FLAT : -1;
  if (view < 0) return req_error(r, 400, "view: expected top-down, bottom-up or flat");
  if (sort && strcmp(sort, "delta") && strcmp(sort, "ratio")) return req_error(r, 400, "sort: expected delta or ratio");
  if (flavour && strcmp(flavour, "inclusive") && strcmp(flavour, "exclusive"))
    return req_error(r, 400, "flavour: expected inclusive or exclusive");
  if (req_u32(r, "node", 0, UINT32_MAX - 1, &node) < 0 || req_u32(r, "offset", 0, UINT32_MAX - 1, &offset) < 0 ||
      req_u32(r, "limit", 100, VIEW_MAX_LIMIT, &limit) < 0 || req_comparison(r, &c) < 0)
    return -1;
  const hpcdb_alignment *al = c->al;
  /* as hpcdb compare: top-down by the inclusive change, the flat and per-function lists by the exclusive one */
  int inclusive = flavour ? !strcmp(flavour, "inclusive") : view == CMP_TOP_DOWN, by_ratio = sort && !strcmp(sort, "ratio");
  const hpcdb_compare_functions *fn = NULL;
  if (view == CMP_BOTTOM_UP) {
    int rc = view_compare_functions(r->cmp, &fn);
    if (rc < 0) return req_error(r, 500, "%s", hpcdb_last_error());
  }
  uint32_t n_nodes = view == CMP_BOTTOM_UP ? fn->n + 1 : al->n_nodes;
  if (node >= n_nodes) return req_error(r, 404, "node %u does not exist in this view", node);
  if (view != CMP_TOP_DOWN && node) return req_error(r, 404, "node %u has no children in the %s view", node, v);
  ranked *kids = malloc((size_t)n_nodes * sizeof *kids);
  if (!kids) return req_error(r, 500, "out of memory");
  uint32_t n = 0;
  hpcdb_delta d;
  if (view == CMP_TOP_DOWN) {
    for (uint32_t k = al->nodes[node].first_child; k != HPCDB_NONE; k = al->nodes[k].next_sibling)
      if (node_has_value(c, k)) hpcdb_compare_delta(c, k, 1, inclusive, 0, &d), kids[n++] = (ranked){k, hpcdb_delta_rank(&d, by_ratio)};
  } else if (view == CMP_FLAT) {
    for (uint32_t k = 1; k < al->n_nodes; k++)
      if (node_has_value(c, k)) hpcdb_compare_delta(c, k, 1, inclusive, 0, &d), kids[n++] = (ranked){k, hpcdb_delta_rank(&d, by_ratio)};
  } else {
    for (uint32_t f = 0; f < fn->n; f++) {
      const double *inc = &fn->inc[(size_t)f * 2], *exc = &fn->exc[(size_t)f * 2];
      if (!any_value(inc, exc)) continue;
      hpcdb_delta_of(inclusive ? inc : exc, 2, 1, &d);
      kids[n++] = (ranked){f, hpcdb_delta_rank(&d, by_ratio)};
    }
  }
  qsort(kids, n, sizeof *kids, by_key);
  uint32_t first = offset < n ? offset : n, count = n - first < limit ? n - first : limit;
  if (view != CMP_BOTTOM_UP && profiled(c)) { /* the page's rows' per-profile figures, from the databases */
    uint32_t *ask = malloc(((size_t)count + 1) * sizeof *ask);
    if (!ask) {
      free(kids);
      return req_error(r, 500, "out of memory");
    }
    ask[0] = node;
    for (uint32_t i = 0; i < count; i++) ask[i + 1] = kids[first + i].node;
    int rc = hpcdb_compare_profiles(c, ask, count + 1);
    free(ask);
    if (rc < 0) {
      free(kids);
      return req_error(r, 422, "%s", hpcdb_last_error());
    }
  }
  jbuf *b = &r->out;
  jb_fmt(b, "{\"total\":%u,\"offset\":%u,\"parent\":", n, offset);
  node_json(b, r, view == CMP_TOP_DOWN ? node : 0, view, 0);
  jb_raw(b, ",\"rows\":[");
  for (uint32_t i = 0; i < count; i++) {
    if (i) jb_raw(b, ",");
    if (view == CMP_BOTTOM_UP) function_json(b, r, fn, kids[first + i].node);
    else node_json(b, r, kids[first + i].node, view, 0);
  }
  jb_raw(b, "]}");
  free(kids);
  return 0;
}
