/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb view A B: the comparison's routes. Everything comes from the public
 * compare API (the alignment, the values, the ranking, the per-function
 * sums); these routes only page and write it.
 *   /api/compare           the runs, the alignment's counts, the totals and
 *                          the largest regressions and improvements
 *   /api/compare/children  a node's children in the aligned tree (top-down),
 *                          every node with its path (flat) or the functions
 *                          (bottom-up), ranked by |delta| or |log ratio| */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_rows.h"

static int req_comparison(request *r, hpcdb_comparison **out) {
  if (r->n_dbs < 2) return req_error(r, 404, "one database is open: hpcdb view A B compares two");
  const char *metric = req_arg(r, "metric"), *metric_b = req_arg(r, "metric_b");
  if ((metric && strlen(metric) > 1024) || (metric_b && strlen(metric_b) > 1024))
    return req_error(r, 400, "metric: longer than 1024 characters");
  char def[1100];
  if ((!metric || !*metric) && r->dbs[0].metric) {
    metric = r->dbs[0].metric;      /* hpcdb view --metric */
  } else if (!metric || !*metric) { /* A's default, as the page shows it: from A's query */
    hpcdb_qcolumn c;
    int rc = hpcdb_query_default_column(r->dbs[0].q, &c);
    if (rc == 0) snprintf(def, sizeof def, "%s", hpcdb_query_column_name(r->dbs[0].q, c));
    if (rc < 0) return req_error(r, 422, "%s", hpcdb_last_error());
    metric = def;
  }
  char why[512];
  int rc = view_compare_get(r->compare, r->dbs, metric, metric_b, &r->cmp, why, sizeof why);
  if (rc == HPCDB_ENOMEM) return req_error(r, 503, "out of memory for the comparison");
  if (rc == HPCDB_EINVAL) return req_error(r, 400, "metric: %s", why);
  if (rc < 0) return req_error(r, 422, "%s", why);
  *out = r->cmp->cmp;
  return 0;
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
  uint32_t *lists[2] = {malloc(((size_t)top + 1) * sizeof(uint32_t)), malloc(((size_t)top + 1) * sizeof(uint32_t))},
           n[2];
  int rc = lists[0] && lists[1] ? 0 : req_error(r, 500, "out of memory");
  for (int s = 0; s < 2 && rc == 0; s++) { /* regressions, improvements; hpcdb compare's default 1% share */
    n[s] = hpcdb_compare_changes(c, 1, 0.01, s == 0, lists[s], top);
    if (n[s] > top) n[s] = top;
    if (compare_profiled(c) && hpcdb_compare_profiles(c, lists[s], n[s]) < 0)
      rc = req_error(r, 422, "%s", hpcdb_last_error());
  }
  uint32_t root = 0;
  if (rc == 0 && compare_profiled(c) && hpcdb_compare_profiles(c, &root, 1) < 0)
    rc = req_error(r, 422, "%s", hpcdb_last_error());
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
  jb_num(b, c->seconds[0]); /* 0 when the metric is not a time */
  jb_fmt(b, ",\"profiled\":%d,\"nodes\":%u,\"both\":%u,\"only_a\":%u,\"only_b\":%u,\"total\":", compare_profiled(c),
         al->n_nodes, both, only[0], only[1]);
  compare_node_json(b, r, 0, CMP_TOP_DOWN, 0);
  for (int s = 0; s < 2; s++) {
    jb_raw(b, s ? "],\"improvements\":[" : ",\"regressions\":[");
    for (uint32_t i = 0; i < n[s]; i++) {
      if (i) jb_raw(b, ",");
      compare_node_json(b, r, lists[s][i], CMP_TOP_DOWN, 1);
    }
  }
  jb_raw(b, "]}");
  free(lists[0]), free(lists[1]);
  return 0;
}

int route_compare_children(request *r) {
  hpcdb_comparison *c;
  uint32_t node, offset, limit;
  const char *v = req_arg(r, "view"), *sort = req_arg(r, "sort"), *flavour = req_arg(r, "flavour");
  int view = !v || !strcmp(v, "top-down") ? CMP_TOP_DOWN
             : !strcmp(v, "bottom-up")    ? CMP_BOTTOM_UP
             : !strcmp(v, "flat")         ? CMP_FLAT
                                          : -1;
  if (view < 0) return req_error(r, 400, "view: expected top-down, bottom-up or flat");
  if (sort && strcmp(sort, "delta") && strcmp(sort, "ratio")) return req_error(r, 400, "sort: expected delta or ratio");
  if (flavour && strcmp(flavour, "inclusive") && strcmp(flavour, "exclusive"))
    return req_error(r, 400, "flavour: expected inclusive or exclusive");
  if (req_u32(r, "node", 0, UINT32_MAX - 1, &node) < 0 || req_u32(r, "offset", 0, UINT32_MAX - 1, &offset) < 0 ||
      req_u32(r, "limit", 100, VIEW_MAX_LIMIT, &limit) < 0 || req_comparison(r, &c) < 0)
    return -1;
  const hpcdb_alignment *al = c->al;
  /* as hpcdb compare: top-down by the inclusive change, the flat and per-function lists by the exclusive one */
  int inclusive = flavour ? !strcmp(flavour, "inclusive") : view == CMP_TOP_DOWN,
      by_ratio = sort && !strcmp(sort, "ratio");
  const hpcdb_compare_functions *fn = NULL;
  if (view == CMP_BOTTOM_UP) {
    int rc = view_comparison_functions(r->cmp, &fn);
    if (rc < 0) return req_error(r, 500, "%s", hpcdb_last_error());
  }
  uint32_t n_nodes = view == CMP_BOTTOM_UP ? fn->n + 1 : al->n_nodes;
  if (node >= n_nodes) return req_error(r, 404, "node %u does not exist in this view", node);
  if (view != CMP_TOP_DOWN && node) return req_error(r, 404, "node %u has no children in the %s view", node, v);
  hpcdb_ranked *kids = malloc((size_t)n_nodes * sizeof *kids);
  if (!kids) return req_error(r, 500, "out of memory");
  uint32_t n = 0;
  hpcdb_delta d;
  if (view == CMP_TOP_DOWN) { /* the rows below node: a scope without a line is none (its cost is its parent's) */
    uint32_t *rows, listed = compare_listed_children(c, node, &rows);
    if (listed == UINT32_MAX) {
      free(kids);
      return req_error(r, 500, "out of memory");
    }
    for (uint32_t i = 0; i < listed; i++)
      hpcdb_compare_delta(c, rows[i], 1, inclusive, 0, &d),
          kids[n++] = (hpcdb_ranked){rows[i], hpcdb_delta_rank(&d, by_ratio)};
    free(rows);
  } else if (view == CMP_FLAT) {
    for (uint32_t k = 1; k < al->n_nodes; k++)
      if (!hpcdb_align_hidden(al, k) && compare_node_has_value(c, k))
        hpcdb_compare_delta(c, k, 1, inclusive, 0, &d), kids[n++] = (hpcdb_ranked){k, hpcdb_delta_rank(&d, by_ratio)};
  } else {
    for (uint32_t f = 0; f < fn->n; f++) {
      const double *inc = &fn->inc[(size_t)f * 2], *exc = &fn->exc[(size_t)f * 2];
      if (!compare_any_value(inc, exc)) continue;
      hpcdb_delta_of(inclusive ? inc : exc, 2, 1, &d);
      kids[n++] = (hpcdb_ranked){f, hpcdb_delta_rank(&d, by_ratio)};
    }
  }
  hpcdb_rank_sort(kids, n);
  uint32_t first = offset < n ? offset : n, count = n - first < limit ? n - first : limit;
  if (view != CMP_BOTTOM_UP && compare_profiled(c)) { /* the page's rows' per-profile figures, from the databases */
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
  compare_node_json(b, r, view == CMP_TOP_DOWN ? node : 0, view, 0);
  jb_raw(b, ",\"rows\":[");
  for (uint32_t i = 0; i < count; i++) {
    if (i) jb_raw(b, ",");
    if (view == CMP_BOTTOM_UP) compare_function_json(b, r, fn, kids[first + i].node);
    else compare_node_json(b, r, kids[first + i].node, view, 0);
  }
  jb_raw(b, "]}");
  free(kids);
  return 0;
}
