/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace view's routes (see routes_trace.h): the table, opening a
 * database's traces, and the routes that describe it (info, the calling
 * path at a point). Tiles and statistics: routes_trace_tile.c. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/trace_report.h"
#include "routes_trace_call.h"

int route_trace_info(trace_call *c) {
  if (trace_arg_filter(c) < 0) return -1;
  hpcdb_trace_info i;
  hpcdb_trace_get_info(c->v->set, &i);
  const hpcdb_experiment *e = c->v->exp;
  char *body = NULL, name[1024];
  size_t len = 0;
  FILE *f = open_memstream(&body, &len);
  if (!f) return trace_fail(c, 500, "out of memory");
  fprintf(f, "{\"t_min\":\"%" PRIu64 "\",\"t_max\":\"%" PRIu64 "\",\"events\":%" PRIu64 ",\"rows\":[", i.t_min, i.t_max,
          i.n_events);
  for (uint32_t r = 0; r < i.n_rows; r++) {
    uint32_t p;
    uint64_t n;
    hpcdb_trace_row(c->v->set, r, &p, &n);
    hpcdb_profile_identity(e, &e->profiles[p], name, sizeof name);
    fprintf(f, "%s{\"profile\":%u,\"n\":%" PRIu64 ",\"id\":", r ? "," : "", p, n);
    trace_json_str(f, name);
    fputc('}', f);
  }
  fputs("]", f);
  if (c->filter.rows) {
    fputs(",\"selected\":[", f);
    for (uint32_t r = 0; r < c->filter.n_rows; r++) fprintf(f, "%s%u", r ? "," : "", c->filter.rows[r]);
    fputs("]", f);
  }
  fputs(",\"contexts\":[", f);
  for (uint32_t k = 0; k < e->n_contexts; k++) {
    hpcdb_trace_context_name(e, k, name, sizeof name);
    fprintf(f, "%s[%d,", k ? "," : "", k ? (int)e->contexts[k].parent : -1);
    trace_json_str(f, name);
    fprintf(f, ",%d]", hpcdb_trace_is_frame(e, k));
  }
  fputs("]}", f);
  fclose(f);
  return trace_reply_set(c, 200, "application/json", body, len);
}

int route_trace_at(trace_call *c) {
  uint64_t row, t;
  hpcdb_trace_info i;
  hpcdb_trace_get_info(c->v->set, &i);
  if (i.n_rows == 0) return trace_fail(c, 404, "no trace lines");
  if (trace_arg_u64(c, "row", UINT64_MAX, i.n_rows - 1, &row) < 0 ||
      trace_arg_u64(c, "t", UINT64_MAX, UINT64_MAX - 1, &t) < 0)
    return -1;
  uint32_t ctx, path[512], n, profile;
  uint64_t n_events;
  if (hpcdb_trace_path_at(c->v->set, (uint32_t)row, t, &ctx, path, 512, &n) < 0)
    return trace_fail(c, 404, "%s", hpcdb_last_error());
  hpcdb_trace_row(c->v->set, (uint32_t)row, &profile, &n_events);
  char *body = NULL, name[1024];
  size_t len = 0;
  FILE *f = open_memstream(&body, &len);
  if (!f) return trace_fail(c, 500, "out of memory");
  fprintf(f, "{\"profile\":%u,\"ctx\":%u,\"path\":[", profile, ctx);
  if (n == 0) {
    hpcdb_trace_context_name(c->v->exp, 0, name, sizeof name);
    fputs("[0,", f);
    trace_json_str(f, name);
    fputs(",1,\"\"]", f); /* shown as a frame: the whole path */
  }
  for (uint32_t k = 0; k < n && k < 512; k++) { /* [context, name, procedure frame?, call site] */
    hpcdb_trace_context_name(c->v->exp, path[k], name, sizeof name);
    fprintf(f, "%s[%u,", k ? "," : "", path[k]);
    trace_json_str(f, name);
    fprintf(f, ",%d,", hpcdb_trace_is_frame(c->v->exp, path[k]));
    hpcdb_trace_call_site(c->v->exp, path[k], name, sizeof name);
    trace_json_str(f, name);
    fputc(']', f);
  }
  fputs("]}", f);
  fclose(f);
  return trace_reply_set(c, 200, "application/json", body, len);
}

int trace_route(trace_view *v, const char *url, trace_arg_fn arg, void *ctx, const trace_cancel *cancel,
                trace_reply *out) {
  static const struct {
    const char *path;
    int (*run)(trace_call *);
  } routes[] = {{"/api/trace/info", route_trace_info},       {"/api/trace/tile", route_trace_tile},
                {"/api/trace/stats", route_trace_stats},     {"/api/trace/at", route_trace_at},
                {"/api/trace/summary", route_trace_summary}, {"/api/trace/gpu", route_trace_gpu}};
  for (size_t i = 0; i < sizeof routes / sizeof *routes; i++) {
    if (strcmp(url, routes[i].path)) continue;
    trace_call c = {v, arg, ctx, out, {0}, NULL, NULL};
    if (cancel) c.filter.cancelled = cancel->cancelled, c.filter.cancel_user = cancel->user;
    *out = (trace_reply){0};
    if (!v->set) trace_fail(&c, 404, "this database has no traces");
    else routes[i].run(&c);
    free(c.rows);
    free(c.keep);
    return 1;
  }
  return 0;
}

int trace_view_open(trace_view *v, hpcdb_source *src, const hpcdb_trace_options *options) {
  *v = (trace_view){hpcdb_source_experiment(src), NULL};
  int rc = hpcdb_trace_open_source(&v->set, src, options);
  if (rc == 0) hpcdb_trace_keep_first_tile(v->set); /* after an index built: the page's first request a read */
  return rc;
}

void trace_view_close(trace_view *v) {
  hpcdb_trace_close(v->set);
  *v = (trace_view){0};
}
