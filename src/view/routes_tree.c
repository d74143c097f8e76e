/* SPDX-License-Identifier: BSD-3-Clause */
/* The tree routes: a node's children (sorted, paged, any metrics), its
 * path to the root, the hot path, and search by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routes.h"

/* vals: [inclusive, exclusive] per column of this node */
static void node_json(jbuf *b, hpcdb_query *q, hpcdb_qview v, hpcdb_qnode n, const double *vals,
                      const hpcdb_qcolumn *cols, uint32_t n_cols) {
  char name[512];
  uint32_t kids = 0;
  hpcdb_query_name(q, v, n, name, sizeof name);
  hpcdb_query_n_children(q, v, n, &kids);
  jb_fmt(b, "{\"node\":%u,\"children\":%u,\"name\":", n, kids);
  jb_str(b, name);
  uint32_t file, line;
  if (hpcdb_query_view_location(q, v, n, &file, &line) == 0 && file != HPCDB_NONE)
    jb_fmt(b, ",\"file\":%u,\"line\":%u", file, line);
  jb_raw(b, ",\"values\":[");
  for (uint32_t c = 0; c < n_cols; c++) {
    int is_unsigned = hpcdb_query_column_integer(q, cols[c]) == HPCDB_INTEGER_UNSIGNED;
    jb_raw(b, c ? ",[" : "[");
    jb_value(b, vals[2 * c], is_unsigned);
    jb_raw(b, ",");
    jb_value(b, vals[2 * c + 1], is_unsigned);
    jb_raw(b, "]");
  }
  jb_raw(b, "]}");
}

int route_columns(request *r, view_db *db, hpcdb_qcolumn *cols, uint32_t *n) {
  const char *list = req_arg(r, "metrics");
  *n = 0;
  if (!list || !*list) {
    if (req_column(r, db, &cols[0]) < 0) return -1;
    *n = 1;
    return 0;
  }
  /* names and formulas separated by a newline */
  char *buf = strdup(list);
  if (!buf) return req_error(r, 500, "out of memory");
  int rc = 0;
  for (char *s = buf, *next; s && rc == 0; s = next) {
    next = strchr(s, '\n');
    if (next) *next++ = '\0';
    if (*n == VIEW_MAX_COLUMNS) rc = req_error(r, 400, "metrics: more than %d", VIEW_MAX_COLUMNS);
    else if (req_spec_column(r, db, "metrics", s, &cols[*n]) < 0) rc = -1;
    else (*n)++;
  }
  free(buf);
  return rc;
}

int route_sort(request *r, const hpcdb_qcolumn *cols, uint32_t n_cols, hpcdb_qsort *s) {
  uint32_t sort_col;
  if (req_u32(r, "sort_col", 0, n_cols - 1, &sort_col) < 0) return -1;
  const char *by = req_arg(r, "sort"), *order = req_arg(r, "order");
  if (by && strcmp(by, "inclusive") && strcmp(by, "exclusive"))
    return req_error(r, 400, "sort: expected inclusive or exclusive");
  if (order && strcmp(order, "desc") && strcmp(order, "asc")) return req_error(r, 400, "order: expected desc or asc");
  *s = (hpcdb_qsort){cols[sort_col], (uint8_t)(by && !strcmp(by, "exclusive")),
                     (uint8_t)(order && !strcmp(order, "asc"))};
  return 0;
}

int route_children(request *r) {
  view_db *db;
  hpcdb_qview v;
  hpcdb_qcolumn cols[VIEW_MAX_COLUMNS];
  uint32_t n_cols, node, offset, limit, n, total;
  hpcdb_qsort s;
  if (req_db(r, &db) < 0 || req_view(r, &v) < 0 || route_columns(r, db, cols, &n_cols) < 0) return -1;
  if (req_u32(r, "node", 0, UINT32_MAX - 1, &node) < 0 || req_u32(r, "offset", 0, UINT32_MAX - 1, &offset) < 0 ||
      req_u32(r, "limit", 100, VIEW_MAX_LIMIT, &limit) < 0 || route_sort(r, cols, n_cols, &s) < 0)
    return -1;
  if (node >= hpcdb_query_n_nodes(db->q, v)) return req_error(r, 404, "node %u does not exist in this view", node);
  hpcdb_qnode *kids = malloc(((size_t)limit + 1) * sizeof *kids);
  if (!kids) return req_error(r, 500, "out of memory");
  if (hpcdb_query_children(db->q, v, node, &s, offset, limit, kids, &n, &total) < 0) {
    free(kids);
    return req_error(r, 400, "%s", hpcdb_last_error());
  }
  /* the values column by column: each column's values are computed at most once per request,
   * however few the query layer keeps at a time */
  double *vals = calloc(((size_t)n + 1) * n_cols * 2, sizeof *vals);
  if (!vals) {
    free(kids);
    return req_error(r, 500, "out of memory");
  }
  for (uint32_t c = 0; c < n_cols; c++)
    for (uint32_t k = 0; k <= n; k++) {
      double *at = &vals[((size_t)k * n_cols + c) * 2];
      hpcdb_query_value(db->q, v, cols[c], k == n ? node : kids[k], &at[0], &at[1]);
    }
  jbuf *b = &r->out;
  jb_raw(b, "{\"metrics\":[");
  for (uint32_t c = 0; c < n_cols; c++) {
    if (c) jb_raw(b, ",");
    route_metric_json(b, db->q, cols[c]);
  }
  jb_fmt(b, "],\"total\":%u,\"offset\":%u,\"parent\":", total, offset);
  node_json(b, db->q, v, node, &vals[(size_t)n * n_cols * 2], cols, n_cols);
  jb_raw(b, ",\"rows\":[");
  for (uint32_t k = 0; k < n; k++) {
    if (k) jb_raw(b, ",");
    node_json(b, db->q, v, kids[k], &vals[(size_t)k * n_cols * 2], cols, n_cols);
  }
  jb_raw(b, "]}");
  free(vals);
  free(kids);
  return 0;
}

int route_path(request *r) {
  view_db *db;
  hpcdb_qview v;
  uint32_t node;
  if (req_db(r, &db) < 0 || req_view(r, &v) < 0 || req_u32(r, "node", 0, UINT32_MAX - 1, &node) < 0) return -1;
  if (node >= hpcdb_query_n_nodes(db->q, v)) return req_error(r, 404, "node %u does not exist in this view", node);
  jb_raw(&r->out, "{\"path\":[");
  for (hpcdb_qnode n = node, k = 0; n != HPCDB_NONE && k < 100000; k++) { /* ancestors first is the client's job */
    jb_fmt(&r->out, k ? ",%u" : "%u", n);
    if (hpcdb_query_parent(db->q, v, n, &n) < 0) break;
  }
  jb_raw(&r->out, "]}");
  return 0;
}

/* ,"path":[parent, grandparent, ..., root] of a top-down node (what opening it takes) */
static void ancestors(jbuf *b, hpcdb_query *q, hpcdb_qnode n) {
  jb_raw(b, ",\"path\":[");
  for (uint32_t k = 0; hpcdb_query_parent(q, HPCDB_QVIEW_TOP_DOWN, n, &n) == 0 && n != HPCDB_NONE && k < 100000; k++)
    jb_fmt(b, k ? ",%u" : "%u", n);
  jb_raw(b, "]");
}

int route_search(request *r) {
  view_db *db;
  uint32_t offset, limit, n, total, with_paths;
  const char *re = req_arg(r, "re");
  if (req_db(r, &db) < 0 || req_u32(r, "offset", 0, UINT32_MAX - 1, &offset) < 0 ||
      req_u32(r, "limit", 100, VIEW_MAX_LIMIT, &limit) < 0 || req_u32(r, "paths", 0, 1, &with_paths) < 0)
    return -1;
  if (!re || !*re) return req_error(r, 400, "re: a regular expression is needed");
  if (strlen(re) > 512) return req_error(r, 400, "re: longer than 512 characters");
  hpcdb_qnode *hits = malloc(((size_t)limit + 1) * sizeof *hits);
  if (!hits) return req_error(r, 500, "out of memory");
  if (hpcdb_query_search(db->q, re, offset, limit, hits, &n, &total) < 0) {
    free(hits);
    return req_error(r, 400, "%s", hpcdb_last_error());
  }
  jb_fmt(&r->out, "{\"total\":%u,\"hits\":[", total);
  char name[512];
  for (uint32_t k = 0; k < n; k++) {
    hpcdb_query_name(db->q, HPCDB_QVIEW_TOP_DOWN, hits[k], name, sizeof name);
    jb_fmt(&r->out, k ? ",{\"node\":%u,\"name\":" : "{\"node\":%u,\"name\":", hits[k]);
    jb_str(&r->out, name);
    if (with_paths) ancestors(&r->out, db->q, hits[k]);
    jb_raw(&r->out, "}");
  }
  jb_raw(&r->out, "]}");
  free(hits);
  return 0;
}

int route_hotpath(request *r) {
  view_db *db;
  hpcdb_qcolumn col;
  uint32_t node, n;
  if (req_db(r, &db) < 0 || req_column(r, db, &col) < 0 || req_u32(r, "node", 0, UINT32_MAX - 1, &node) < 0) return -1;
  if (node >= hpcdb_query_n_nodes(db->q, HPCDB_QVIEW_TOP_DOWN))
    return req_error(r, 404, "node %u does not exist", node);
  hpcdb_qnode path[1024];
  if (hpcdb_query_hot_path(db->q, col, node, path, 1024, &n) < 0) return req_error(r, 400, "%s", hpcdb_last_error());
  jb_raw(&r->out, "{\"path\":[");
  for (uint32_t k = 0; k < n; k++) jb_fmt(&r->out, k ? ",%u" : "%u", path[k]);
  jb_raw(&r->out, "]}");
  return 0;
}
