/* SPDX-License-Identifier: BSD-3-Clause */
/* The snapshot an exported page answers its routes from, as one JSON object:
 *   "views": {"top-down": [[node, parent, name, [inc, exc per metric], file, line], ...], ...}
 *            (kept nodes, parents first; file and line when known, as /api/children gives them)
 *   "spread", "profile_names" (snapshot_spread.c),
 *   "info": what /api/info answers, over the metrics kept,
 *   "export": the limits and what was cut (also said in info's "access",
 *             which the page's status line shows). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "core/json_out.h"
#include "page/snapshot.h"

static const char *const view_names[3] = {"top-down", "bottom-up", "flat"};

static void number(FILE *out, double v) { json_number(out, isfinite(v) ? v : 0); } /* as the server's JSON */

/* The kept nodes' values, [node k][column c][inclusive, exclusive]: column by column, as the query
 * layer holds a few columns' values at once (node by node, each would be computed again per node). */
static int view_values(hpcdb_query *q, const snapshot_view *v, const hpcdb_qcolumn *cols, uint32_t n_cols,
                       double **out) {
  double *x = malloc(((size_t)v->kept * n_cols + 1) * 2 * sizeof *x);
  if (!x) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the page's values");
  for (uint32_t c = 0; c < n_cols; c++)
    for (uint32_t k = 0; k < v->kept; k++) {
      double *at = &x[((size_t)k * n_cols + c) * 2];
      int rc = hpcdb_query_value(q, v->view, cols[c], v->node[k], &at[0], &at[1]);
      if (rc < 0) {
        free(x);
        return rc;
      }
    }
  *out = x;
  return 0;
}

static int write_view(FILE *out, hpcdb_query *q, const snapshot_view *v, const hpcdb_qcolumn *cols, uint32_t n_cols) {
  char name[512];
  double *values = NULL;
  HPCDB_TRY(view_values(q, v, cols, n_cols, &values));
  fprintf(out, "\"%s\":[", view_names[v->view]);
  for (uint32_t k = 0; k < v->kept; k++) {
    hpcdb_qnode n = v->node[k];
    hpcdb_query_name(q, v->view, n, name, sizeof name);
    fprintf(out, k ? ",[%u," : "[%u,", n);
    if (v->parent[k] == HPCDB_NONE) fputs("null,", out);
    else fprintf(out, "%u,", v->parent[k]);
    json_script_string(out, name);
    fputs(",[", out);
    for (uint32_t c = 0; c < n_cols; c++) {
      if (c) fputc(',', out);
      number(out, values[((size_t)k * n_cols + c) * 2]);
      fputc(',', out);
      number(out, values[((size_t)k * n_cols + c) * 2 + 1]);
    }
    fputc(']', out);
    uint32_t file, line;
    if (hpcdb_query_view_location(q, v->view, n, &file, &line) == 0 && file != HPCDB_NONE)
      fprintf(out, ",%u,%u", file, line);
    fputc(']', out);
  }
  fputc(']', out);
  free(values);
  return 0;
}

/* The metrics kept: all while the nodes that may be kept x metrics fit the budget, else the chosen one
 * and the default (the chosen one among them, in the experiment's order). */
static int choose_metrics(hpcdb_query *q, hpcdb_qcolumn chosen, uint64_t nodes, hpcdb_qcolumn *cols, uint32_t *n) {
  const hpcdb_experiment *e = hpcdb_query_experiment(q);
  *n = 0;
  if (nodes * e->n_metrics <= SNAPSHOT_VALUES) {
    for (uint32_t m = 0; m < e->n_metrics; m++) {
      uint32_t c = 0;
      if (!e->metrics[m].name || hpcdb_query_column(q, e->metrics[m].name, &cols[*n]) < 0) continue;
      while (c < *n && cols[c] != cols[*n]) c++;
      *n += c == *n; /* two metrics of one name: the column once */
    }
    for (uint32_t c = 0; c < *n; c++)
      if (cols[c] == chosen) return 0;
    *n = 0; /* the chosen one is not a plain metric (a formula): the two below */
  }
  hpcdb_qcolumn def;
  cols[(*n)++] = chosen;
  if (hpcdb_query_default_column(q, &def) == 0 && def != chosen) cols[(*n)++] = def;
  return 0;
}

static void metric_json(FILE *out, hpcdb_query *q, hpcdb_qcolumn col, uint32_t index) {
  double total = 0;
  hpcdb_query_total(q, col, &total);
  fputs("{\"name\":", out);
  json_script_string(out, hpcdb_query_column_name(q, col));
  fprintf(out, ",\"column\":%u,\"seconds\":", index);
  number(out, hpcdb_query_column_seconds(q, col));
  fputs(",\"total\":", out);
  number(out, total);
  fputc('}', out);
}

/* What the page holds, in one line for its status line. */
static void describe(char *buf, size_t size, const snapshot_view *v, uint32_t n_cols, uint32_t n_metrics,
                     uint32_t spreads, const char *by) {
  int cut = n_cols < n_metrics;
  size_t at = (size_t)snprintf(buf, size, "exported page:");
  for (int k = 0; k < 3 && at < size; k++) {
    cut |= !v[k].whole;
    at += (size_t)snprintf(buf + at, size - at, v[k].whole ? "%s %s %u nodes" : "%s %s %u of %u nodes", k ? "," : "",
                           view_names[k], v[k].kept, v[k].n_nodes);
  }
  if (at < size)
    at +=
        (size_t)snprintf(buf + at, size - at, " · %u of %u metrics · spreads of %u nodes", n_cols, n_metrics, spreads);
  if (cut && at < size)
    snprintf(buf + at, size - at,
             n_cols > 1 ? " · the heaviest by each metric in turn, %s first" : " · the heaviest by %s", by);
}

int page_snapshot_write(FILE *out, hpcdb_query *q, const char *path, const char *metric) {
  const hpcdb_experiment *e = hpcdb_query_experiment(q);
  hpcdb_qcolumn chosen;
  const char *why = "the export's metric";
  HPCDB_TRY(metric ? hpcdb_query_column(q, metric, &chosen) : hpcdb_query_default_column_why(q, &chosen, &why));
  snapshot_view v[3] = {{0}};
  hpcdb_qcolumn *cols = malloc(((size_t)e->n_metrics + 2) * sizeof *cols);
  int rc = cols ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory for the page's metrics");
  uint64_t nodes = 0; /* at most */
  for (int k = 0; k < 3; k++) {
    uint32_t n = hpcdb_query_n_nodes(q, (hpcdb_qview)k);
    nodes += n < SNAPSHOT_NODES ? n : SNAPSHOT_NODES;
  }
  uint32_t n_cols = 0, spreads = 0;
  if (rc == 0) rc = choose_metrics(q, chosen, nodes, cols, &n_cols);
  hpcdb_qcolumn *order = rc == 0 ? malloc(((size_t)n_cols + 1) * sizeof *order) : NULL; /* the page's metric first */
  if (rc == 0 && !order) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for the page's metrics");
  for (uint32_t c = 0, k = 1; rc == 0 && c < n_cols; c++) {
    if (cols[c] == chosen) order[0] = chosen;
    else order[k++] = cols[c];
  }
  for (int k = 0; k < 3 && rc == 0; k++) rc = snapshot_select(q, (hpcdb_qview)k, order, n_cols, SNAPSHOT_NODES, &v[k]);
  free(order);
  fputs("{\"views\":{", out);
  for (int k = 0; k < 3 && rc == 0; k++) {
    if (k) fputc(',', out);
    rc = write_view(out, q, &v[k], cols, n_cols);
  }
  fputc('}', out);
  if (rc == 0) rc = snapshot_spreads(out, q, chosen, &v[0], &spreads);
  if (rc == 0) {
    const char *by = hpcdb_query_column_name(q, chosen);
    char access[512];
    describe(access, sizeof access, v, n_cols, e->n_metrics, spreads, by);
    fputs(",\"info\":{\"databases\":[{\"path\":", out);
    json_script_string(out, path ? path : "");
    fputs(",\"title\":", out);
    json_script_string(out, e->title ? e->title : "");
    fputs(",\"format\":", out);
    json_script_string(out, e->format ? e->format : "");
    fputs(",\"access\":", out);
    json_script_string(out, access);
    fputs(",\"warnings\":[", out); /* what the reader could not take, shown above the tree as the viewer does */
    for (uint32_t w = 0; w < e->n_warnings; w++) {
      if (w) fputc(',', out);
      json_script_string(out, e->warnings[w]);
    }
    fputc(']', out);
    fprintf(out, ",\"contexts\":%u,\"profiles\":%u,\"default_metric\":", e->n_contexts, hpcdb_query_n_profiles(q));
    json_script_string(out, by);
    fputs(",\"default_why\":", out);
    json_script_string(out, why);
    fputs(",\"metrics\":[", out);
    for (uint32_t c = 0; c < n_cols; c++) {
      if (c) fputc(',', out);
      metric_json(out, q, cols[c], c);
    }
    fprintf(out, "]}]},\"export\":{\"node_limit\":%u,\"value_budget\":%u,\"spread_points\":%u,\"by\":", SNAPSHOT_NODES,
            SNAPSHOT_VALUES, SNAPSHOT_SPREAD_POINTS);
    json_script_string(out, by);
    fputs(",\"views\":{", out);
    for (int k = 0; k < 3; k++)
      fprintf(out, "%s\"%s\":{\"nodes\":%u,\"kept\":%u,\"whole\":%s}", k ? "," : "", view_names[k], v[k].n_nodes,
              v[k].kept, v[k].whole ? "true" : "false");
    fprintf(out, "},\"metrics\":{\"kept\":%u,\"in_database\":%u},\"spread_nodes\":%u,\"summary\":", n_cols,
            e->n_metrics, spreads);
    json_script_string(out, access);
    fputs("}}", out);
  }
  for (int k = 0; k < 3; k++) snapshot_view_free(&v[k]);
  free(cols);
  return rc;
}
