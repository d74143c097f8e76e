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
 * the page asks again. Once open, the trace set is read by any number of
 * requests at once (the lock guards the opening only), and a request that
 * names a slot (argument "slot", supersede.h) is cancelled by a newer one of
 * the same slot: it is answered 409 {"error", "cancelled": true}. */
#ifndef HPCDB_VIEW_TRACE_MOUNT_H
#define HPCDB_VIEW_TRACE_MOUNT_H

#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>

#include "routes_trace.h"
#include "supersede.h"

typedef struct trace_mount {
  hpcdb_source *source; /* the database, as the viewer opened it (the caller's reference) */
  const char *path;     /* its path */
  pthread_mutex_t lock;
  pthread_cond_t changed;
  int opened; /* 0: not yet started; 2: opening; 1: open; -1: failed (error holds why, open_rc the status) */
  int open_rc;
  int has_opener;
  pthread_t opener;
  atomic_uint_fast64_t done, total; /* elements of the index built so far, of total */
  char error[512];
  trace_view view; /* read-only once opened is 1 */
  supersede superseded;
} trace_mount;

void trace_mount_init(trace_mount *m, hpcdb_source *source);
/* Starts opening the traces in the background (nothing when started already). */
void trace_mount_start(trace_mount *m);
/* Waits for an opening under way, then closes. */
void trace_mount_fini(trace_mount *m);
/* What the page's Timeline link may say: "events" (open, with trace
 * events), "none" (no trace.db, or one without events), "opening" (the index
 * is being built) or "error" (the trace page says why). Not started counts
 * as none: hpcdb view starts the opening whenever trace.db exists. */
const char *trace_mount_state(trace_mount *m);
/* Answers a /api/trace/... request on conn (404 JSON for other URLs). */
enum MHD_Result trace_mount_serve(trace_mount *m, struct MHD_Connection *conn, const char *url);

#endif
