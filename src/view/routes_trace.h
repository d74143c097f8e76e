/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace view's routes, apart from the HTTP server: each takes its
 * arguments through a getter and answers a body with a status and a content
 * type, so the server registers them with one call per request
 * (trace_route) and tests drive them without a socket. Public API only.
 *
 *   /api/trace/info                               JSON: rows, time range, contexts
 *                                                 ([parent, name, procedure frame?])
 *   /api/trace/tile?t0&t1&w&h[&first&count&depth&rows&ctx]   binary, run-length encoded
 *   /api/trace/stats?t0&t1[&depth&rows&ctx]        JSON: exact shares, largest first
 *   /api/trace/at?row&t                            JSON: the calling path in effect
 *                                                 ([context, name, frame?, call site])
 * depth=D counts procedure frames; with scopes=all, every scope.
 *   /api/trace/summary?t0&t1&w[&depth&rows&ctx]    JSON: per column, the top shares
 *                                                  of the column's cells over the rows
 *
 * The tile body (little-endian): "HTL2", u32 width, u32 height (cell rows),
 * u32 number of runs, the scale (hpcdb_tile_scale: u32 coarse rows, u32
 * level min, u32 level max, u32 0, u64 events per bucket min, max, u64
 * bucket ns), then per run: u16 cells, u8 share (dominant time /
 * covered time, 0..255), u8 contexts covering time (255: 255 or more), u32
 * context (0xffffffff: nothing covered, 0xfffffffe: filtered out). Runs go
 * row by row and never cross a row's end. */
#ifndef HPCDB_VIEW_ROUTES_TRACE_H
#define HPCDB_VIEW_ROUTES_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/trace_query.h"

#define TRACE_MAX_WIDTH 8192
#define TRACE_MAX_HEIGHT 4096
#define TRACE_MAX_CELLS (4u << 20) /* width x height: bounds a tile's memory (~100 MB) */

typedef struct trace_view {
  const hpcdb_experiment *exp; /* the source's */
  hpcdb_trace_set *set;        /* holds a reference to the source */
} trace_view;

typedef struct trace_reply {
  unsigned status;          /* 200, or 4xx with a JSON {"error": ...} body */
  const char *content_type; /* "application/json" or "application/octet-stream" */
  uint8_t *body;            /* malloc'ed */
  size_t len;
} trace_reply;

/* A query argument by name, or NULL when absent. */
typedef const char *(*trace_arg_fn)(void *ctx, const char *name);

/* Opens the experiment at path and its traces (trace.db in place for a
 * v4.0 directory), with options (NULL: the defaults) for building the
 * index. 0, or a negative hpcdb_status (the viewer then shows no timeline:
 * HPCDB_EINVAL means the database has no traces). */
int trace_view_open(trace_view *v, hpcdb_source *src, const hpcdb_trace_options *options);
void trace_view_close(trace_view *v);

/* Superseded work: cancelled(user) is asked by the long loops (tiles,
 * statistics, summaries); nonzero stops the route with 409 {"error",
 * "cancelled": true}. */
typedef struct trace_cancel {
  int (*cancelled)(void *user);
  void *user;
} trace_cancel;

/* 1 when url is a trace route (then *out holds the answer, the body to be
 * freed by the caller), 0 when it is not one of these routes. cancel: NULL
 * or the request's hook. Routes of one view may run at once (the view is
 * only read). */
int trace_route(trace_view *v, const char *url, trace_arg_fn arg, void *ctx, const trace_cancel *cancel,
                trace_reply *out);

#endif
