/* SPDX-License-Identifier: BSD-3-Clause */
/* Every row of a view as CSV, in hpcdb report --csv's columns (depth,
 * context, name, then per metric inclusive, percent of the total,
 * exclusive): the page's CSV button, whatever rows the page has loaded.
 * Rows depth first from node (default the root), children in the page's
 * sort, zero rows left out as report leaves them out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routes.h"

static void csv_text(jbuf *b, const char *s) {
  jb_raw(b, "\"");
  for (const char *q; (q = strchr(s, '"')); s = q + 1) jb_fmt(b, "%.*s\"\"", (int)(q - s), s);
  jb_raw(b, s);
  jb_raw(b, "\"");
}

static void header(jbuf *b, hpcdb_query *q, const hpcdb_qcolumn *cols, uint32_t n_cols) {
  static const char *const flavours[] = {" inclusive,", " percent,", " exclusive"};
  jb_raw(b, "depth,context,name");
  for (uint32_t c = 0; c < n_cols; c++)
    for (int f = 0; f < 3; f++) {
      jb_raw(b, f ? "" : ",");
      csv_text(b, hpcdb_query_column_name(q, cols[c]));
      jb_raw(b, flavours[f]);
    }
  jb_raw(b, "\n");
}

/* A number as report prints it (%.17g), never -0. */
static void number(jbuf *b, double v) { jb_fmt(b, "%.17g", v + 0.0); }

static void row(jbuf *b, hpcdb_query *q, hpcdb_qview v, hpcdb_qnode n, uint32_t depth, const hpcdb_qcolumn *cols,
                const double *totals, uint32_t n_cols) {
  char name[512];
  hpcdb_query_name(q, v, n, name, sizeof name);
  jb_fmt(b, "%u,", depth);
  if (v == HPCDB_QVIEW_TOP_DOWN) jb_fmt(b, "%u", hpcdb_query_experiment(q)->contexts[n].id);
  jb_raw(b, ",");
  csv_text(b, name);
  for (uint32_t c = 0; c < n_cols; c++) {
    double inc = 0, exc = 0;
    hpcdb_query_value(q, v, cols[c], n, &inc, &exc);
    jb_raw(b, ",");
    number(b, inc);
    jb_fmt(b, ",%.2f,", totals[c] != 0 ? 100.0 * inc / totals[c] + 0.0 : 0.0);
    number(b, exc);
  }
  jb_raw(b, "\n");
}

typedef struct pending {
  hpcdb_qnode node;
  uint32_t depth;
} pending;

/* a (of *cap items of size) grown to hold at least want: the same or a larger block, NULL when out of memory. */
static void *room(void *a, size_t *cap, size_t want, size_t size) {
  if (want <= *cap) return a;
  size_t c = want > 2 * *cap ? want : 2 * *cap;
  void *p = realloc(a, c * size);
  if (p) *cap = c;
  return p;
}

/* Depth first with a stack of the rows still to write (each node's children pushed last first). */
static int walk(request *r, hpcdb_query *q, hpcdb_qview v, hpcdb_qnode root, const hpcdb_qsort *s,
                const hpcdb_qcolumn *cols, const double *totals, uint32_t n_cols) {
  size_t n = 0, cap = 0, kids_cap = 0;
  pending *stack = NULL;
  hpcdb_qnode *kids = NULL;
  int rc = (stack = room(stack, &cap, 1024, sizeof *stack)) ? 0 : req_error(r, 500, "out of memory");
  if (rc == 0) stack[n++] = (pending){root, 0};
  while (n && rc == 0 && !r->out.failed) {
    pending p = stack[--n];
    row(&r->out, q, v, p.node, p.depth, cols, totals, n_cols);
    uint32_t count = 0, got = 0, total = 0;
    hpcdb_query_n_children(q, v, p.node, &count);
    if (!count) continue;
    hpcdb_qnode *k2 = room(kids, &kids_cap, count, sizeof *kids);
    kids = k2 ? k2 : kids;
    pending *s2 = k2 ? room(stack, &cap, n + count, sizeof *stack) : NULL;
    stack = s2 ? s2 : stack;
    if (!s2) rc = req_error(r, 500, "out of memory");
    else if (hpcdb_query_children(q, v, p.node, s, 0, count, kids, &got, &total) < 0)
      rc = req_error(r, 400, "%s", hpcdb_last_error());
    else
      for (uint32_t k = got; k-- > 0;) stack[n++] = (pending){kids[k], p.depth + 1};
  }
  free(kids);
  free(stack);
  return rc;
}

int route_csv(request *r) {
  view_db *db;
  hpcdb_qview v;
  hpcdb_qcolumn cols[VIEW_MAX_COLUMNS];
  hpcdb_qsort s;
  uint32_t n_cols, node;
  double totals[VIEW_MAX_COLUMNS];
  if (req_db(r, &db) < 0 || req_view(r, &v) < 0 || route_columns(r, db, cols, &n_cols) < 0 ||
      route_sort(r, cols, n_cols, &s) < 0 || req_u32(r, "node", 0, UINT32_MAX - 1, &node) < 0)
    return -1;
  if (node >= hpcdb_query_n_nodes(db->q, v)) return req_error(r, 404, "node %u does not exist in this view", node);
  for (uint32_t c = 0; c < n_cols; c++)
    if (hpcdb_query_total(db->q, cols[c], &totals[c]) < 0) return req_error(r, 422, "%s", hpcdb_last_error());
  header(&r->out, db->q, cols, n_cols);
  if (walk(r, db->q, v, node, &s, cols, totals, n_cols) < 0) return -1;
  r->content_type = "text/csv; charset=utf-8";
  return 0;
}
