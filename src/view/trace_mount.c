/* The trace routes on a libmicrohttpd connection (see trace_mount.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_mount.h"

static const char *arg(void *conn, const char *name) {
  return MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name);
}

void trace_mount_init(trace_mount *m, const char *path) {
  memset(m, 0, sizeof *m);
  m->path = path;
  pthread_mutex_init(&m->lock, NULL);
}

void trace_mount_fini(trace_mount *m) {
  if (m->opened == 1) trace_view_close(&m->view);
  pthread_mutex_destroy(&m->lock);
  m->opened = 0;
}

static char *json_error(const char *msg, size_t *len) {
  size_t n = strlen(msg), k = 0;
  char *b = malloc(2 * n + 16);
  if (!b) return NULL;
  k += (size_t)sprintf(b, "{\"error\":\"");
  for (const char *p = msg; *p; p++) {
    if (*p == '"' || *p == '\\') b[k++] = '\\';
    b[k++] = (unsigned char)*p < 0x20 ? ' ' : *p;
  }
  k += (size_t)sprintf(b + k, "\"}");
  *len = k;
  return b;
}

enum MHD_Result trace_mount_serve(trace_mount *m, struct MHD_Connection *conn, const char *url) {
  trace_reply r = {404, "application/json", NULL, 0};
  pthread_mutex_lock(&m->lock);
  if (m->opened == 0) {
    m->opened = trace_view_open(&m->view, m->path) == 0 ? 1 : -1;
    if (m->opened < 0) snprintf(m->error, sizeof m->error, "no timeline: %s", hpcdb_last_error());
  }
  if (m->opened < 0) r.body = (uint8_t *)json_error(m->error, &r.len);
  else if (!trace_route(&m->view, url, arg, conn, &r)) r.body = (uint8_t *)json_error("no such trace route", &r.len);
  pthread_mutex_unlock(&m->lock);
  if (!r.body) return MHD_NO;
  struct MHD_Response *resp = MHD_create_response_from_buffer(r.len, r.body, MHD_RESPMEM_MUST_FREE);
  if (!resp) return MHD_NO;
  MHD_add_response_header(resp, "Content-Type", r.content_type);
  MHD_add_response_header(resp, "Cache-Control", "no-store");
  enum MHD_Result ok = MHD_queue_response(conn, r.status, resp);
  MHD_destroy_response(resp);
  return ok;
}
