/* SPDX-License-Identifier: BSD-3-Clause */
/* The JSON routes of the viewer. To add one: a handler (route_fn) and one
 * line in view_routes. Every handler checks its arguments first (request.c)
 * and answers a 4xx JSON error for anything it cannot answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routes.h"

const route view_routes[] = {
    {"/api/info", route_info},                         /* databases, metrics, profiles */
    {"/api/children", route_children},                 /* a node's children, sorted, paged */
    {"/api/path", route_path},                         /* a node's ancestors (state in the URL) */
    {"/api/spread", route_spread},                     /* one node over the profiles */
    {"/api/groups", route_groups},                     /* one node over the profiles, by group of identity */
    {"/api/search", route_search},                     /* nodes whose name matches a regex */
    {"/api/hotpath", route_hotpath},                   /* the hot path from a node */
    {"/api/source", route_source},                     /* a node's source file with per-line values */
    {"/api/formula", route_formula},                   /* checks a derived metric's formula */
    {"/api/csv", route_csv},                           /* every row of a view as CSV (report --csv's columns) */
    {"/api/compare", route_compare},                   /* hpcdb view A B: the runs, totals, largest changes */
    {"/api/compare/children", route_compare_children}, /* the aligned tree's rows with deltas and ratios */
    {NULL, NULL},
};

/* A metric's name, column and time unit, left open for more fields. */
static void metric_head(jbuf *b, hpcdb_query *q, hpcdb_qcolumn c) {
  jb_raw(b, "{\"name\":");
  jb_str(b, hpcdb_query_column_name(q, c));
  jb_fmt(b, ",\"column\":%u,\"seconds\":", c);
  jb_num(b, hpcdb_query_column_seconds(q, c));
}

void route_metric_json(jbuf *b, hpcdb_query *q, hpcdb_qcolumn c) {
  double total = 0;
  hpcdb_query_total(q, c, &total);
  metric_head(b, q, c);
  jb_raw(b, ",\"total\":");
  jb_num(b, total);
  jb_raw(b, "}");
}

int route_info(request *r) {
  jbuf *b = &r->out;
  jb_raw(b, "{\"databases\":[");
  for (int d = 0; d < r->n_dbs; d++) {
    hpcdb_query *q = r->dbs[d].q;
    const hpcdb_experiment *e = hpcdb_query_experiment(q);
    hpcdb_qcolumn def = 0;
    const char *why = "named by hpcdb view --metric";
    int have_def = (r->dbs[d].metric ? hpcdb_query_column(q, r->dbs[d].metric, &def)
                                     : hpcdb_query_default_column_why(q, &def, &why)) == 0;
    jb_raw(b, d ? ",{\"path\":" : "{\"path\":");
    jb_str(b, r->dbs[d].path);
    jb_raw(b, ",\"title\":");
    jb_str(b, e->title ? e->title : "");
    jb_raw(b, ",\"format\":");
    jb_str(b, e->format ? e->format : "");
    jb_raw(b, ",\"access\":");
    jb_str(b, hpcdb_query_source_name(q));
    jb_raw(b, ",\"warnings\":["); /* what the reader could not take: the page shows it */
    for (uint32_t w = 0; w < e->n_warnings; w++) {
      if (w) jb_raw(b, ",");
      jb_str(b, e->warnings[w]);
    }
    jb_raw(b, "]");
    jb_raw(b, ",\"trace\":"); /* the timeline serves the first database */
    jb_str(b, d == 0 ? trace_mount_state(&r->dbs[0].trace) : "none");
    jb_fmt(b, ",\"contexts\":%u,\"profiles\":%u,\"default_metric\":", e->n_contexts, hpcdb_query_n_profiles(q));
    if (have_def) jb_str(b, hpcdb_query_column_name(q, def));
    else jb_raw(b, "null");
    jb_raw(b, ",\"default_why\":");
    jb_str(b, have_def ? why : hpcdb_last_error());
    jb_raw(b, ",\"metrics\":[");
    const hpcdb_metric_list *l = &r->dbs[d].metrics;
    for (uint32_t k = 0; k < l->n; k++) { /* in the database's order, with its descriptions and groups */
      const hpcdb_metric_entry *m = &l->entries[k];
      hpcdb_qcolumn c;
      if (k) jb_raw(b, ",");
      if (hpcdb_query_column(q, e->metrics[m->metric].name, &c) < 0) {
        jb_raw(b, "null");
        continue;
      }
      metric_head(b, q, c);           /* no total: a Cube file stores none, so each would read a whole metric; */
      jb_raw(b, ",\"description\":"); /* the page gets a metric's total with its values (/api/children) */
      if (m->description) jb_str(b, m->description);
      else jb_raw(b, "null");
      jb_raw(b, ",\"group\":");
      if (m->group) jb_str(b, m->group);
      else jb_raw(b, "null");
      jb_raw(b, "}");
    }
    jb_raw(b, "]}");
  }
  jb_raw(b, "]}");
  return 0;
}

int route_formula(request *r) {
  view_db *db;
  hpcdb_qcolumn col;
  const char *f = req_arg(r, "expr");
  if (req_db(r, &db) < 0) return -1;
  if (!f || !*f) return req_error(r, 400, "expr: a formula is needed");
  if (hpcdb_query_column(db->q, f, &col) < 0) return req_error(r, 400, "%s", hpcdb_last_error());
  jb_raw(&r->out, "{\"metric\":");
  route_metric_json(&r->out, db->q, col);
  jb_raw(&r->out, "}");
  return 0;
}
