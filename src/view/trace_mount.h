/* Registering the trace view with an HTTP server built on libmicrohttpd:
 * one trace_mount per database, and one call in the server's request
 * handler:
 *
 *     if (!strncmp(url, "/api/trace/", 11)) return trace_mount_serve(&db->trace, conn, url);
 *
 * The database's traces are opened on the first trace request (the index
 * then comes from the cache or is built once); requests are answered one at
 * a time (the trace set is not for concurrent use). */
#ifndef HPCDB_VIEW_TRACE_MOUNT_H
#define HPCDB_VIEW_TRACE_MOUNT_H

#include <microhttpd.h>
#include <pthread.h>

#include "routes_trace.h"

typedef struct trace_mount {
  const char *path; /* the database, as the viewer opened it */
  pthread_mutex_t lock;
  int opened;       /* 0: not yet tried; 1: open; -1: failed (error holds why) */
  char error[512];
  trace_view view;
} trace_mount;

void trace_mount_init(trace_mount *m, const char *path);
void trace_mount_fini(trace_mount *m);
/* Answers a /api/trace/... request on conn (404 JSON for other URLs). */
enum MHD_Result trace_mount_serve(trace_mount *m, struct MHD_Connection *conn, const char *url);

#endif
