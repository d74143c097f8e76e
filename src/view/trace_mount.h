/* SPDX-License-Identifier: BSD-3-Clause */
/* Registering the trace view with an HTTP server built on libmicrohttpd:
 * one trace_mount per database, and one call in the server's request
 * handler:
 *
 *     if (!strncmp(url, "/api/trace/", 11)) return trace_mount_serve(&db->trace, conn, url);
 *
 * The database's traces are opened on a thread of their own (the index then
 * comes from the cache or is built once), started by trace_mount_start as
 * the server starts, or else by the first trace request: the server keeps
 * serving meanwhile. A trace request waits a moment for the opening and is
 * then answered 503 with how far the index is ({"error", "building": 0..1});
 * the page asks again. Requests are answered one at a time (the trace set
 * is not for concurrent use). */
#ifndef HPCDB_VIEW_TRACE_MOUNT_H
#define HPCDB_VIEW_TRACE_MOUNT_H

#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>

#include "routes_trace.h"

typedef struct trace_mount {
  hpcdb_source *source; /* the database, as the viewer opened it (the caller's reference) */
  const char *path;     /* its path */
  pthread_mutex_t lock;
  pthread_cond_t changed;
  int opened; /* 0: not yet started; 2: opening; 1: open; -1: failed (error holds why) */
  int has_opener;
  pthread_t opener;
  atomic_uint_fast64_t done, total; /* elements of the index built so far, of total */
  char error[512];
  trace_view view;
} trace_mount;

void trace_mount_init(trace_mount *m, hpcdb_source *source);
/* Starts opening the traces in the background (nothing when started already). */
void trace_mount_start(trace_mount *m);
/* Waits for an opening under way, then closes. */
void trace_mount_fini(trace_mount *m);
/* Answers a /api/trace/... request on conn (404 JSON for other URLs). */
enum MHD_Result trace_mount_serve(trace_mount *m, struct MHD_Connection *conn, const char *url);

#endif
