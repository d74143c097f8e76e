/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace routes on a libmicrohttpd connection (see trace_mount.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace_mount.h"

static const char *arg(void *conn, const char *name) {
  return MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name);
}

/* How long a request waits for an opening under way before it is told how
 * far the index is (the page then asks again). */
#define WAIT_MS 100

void trace_mount_init(trace_mount *m, hpcdb_source *source) {
  memset(m, 0, sizeof *m);
  m->source = source;
  m->path = hpcdb_source_path(source);
  pthread_mutex_init(&m->lock, NULL);
  pthread_cond_init(&m->changed, NULL);
  supersede_init(&m->superseded);
}

static void progress(void *user, uint64_t done, uint64_t total) {
  trace_mount *m = user;
  atomic_store(&m->total, total);
  atomic_store(&m->done, done);
}

/* The opening, on the opener thread: m->view is this thread's alone until
 * opened says 1. */
static void *open_traces(void *arg) {
  trace_mount *m = arg;
  hpcdb_trace_options o = HPCDB_TRACE_OPTIONS_INIT;
  o.progress = progress;
  o.progress_user = m;
  trace_view v;
  int rc = trace_view_open(&v, m->source, &o), ok = rc == 0;
  pthread_mutex_lock(&m->lock);
  m->open_rc = rc;
  if (ok) m->view = v;
  else if (rc == HPCDB_EINVAL)
    snprintf(m->error, sizeof m->error, "no timeline: this database has no trace events (%s)", hpcdb_last_error());
  else snprintf(m->error, sizeof m->error, "no timeline: %s", hpcdb_last_error());
  m->opened = ok ? 1 : -1;
  pthread_cond_broadcast(&m->changed);
  pthread_mutex_unlock(&m->lock);
  return NULL;
}

/* Called with the lock held. Without a thread, the opening happens here. */
static void start_locked(trace_mount *m) {
  if (m->opened != 0) return;
  m->opened = 2;
  m->has_opener = pthread_create(&m->opener, NULL, open_traces, m) == 0;
  if (!m->has_opener) {
    pthread_mutex_unlock(&m->lock);
    open_traces(m);
    pthread_mutex_lock(&m->lock);
  }
}

void trace_mount_start(trace_mount *m) {
  pthread_mutex_lock(&m->lock);
  start_locked(m);
  pthread_mutex_unlock(&m->lock);
}

void trace_mount_fini(trace_mount *m) {
  if (m->has_opener) pthread_join(m->opener, NULL);
  if (m->opened == 1) trace_view_close(&m->view);
  pthread_cond_destroy(&m->changed);
  supersede_fini(&m->superseded);
  pthread_mutex_destroy(&m->lock);
  m->opened = 0;
  m->has_opener = 0;
}

const char *trace_mount_state(trace_mount *m) {
  pthread_mutex_lock(&m->lock);
  hpcdb_trace_info i = {0};
  if (m->opened == 1) hpcdb_trace_get_info(m->view.set, &i);
  const char *state = m->opened == 2                                ? "opening"
                      : m->opened == 1 && i.n_events                ? "events"
                      : m->opened < 0 && m->open_rc != HPCDB_EINVAL ? "error"
                                                                    : "none";
  pthread_mutex_unlock(&m->lock);
  return state;
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
  start_locked(m);
  if (m->opened == 2) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += WAIT_MS * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    while (m->opened == 2 && pthread_cond_timedwait(&m->changed, &m->lock, &until) == 0) continue;
  }
  if (m->opened == 2) {
    uint64_t done = atomic_load(&m->done), total = atomic_load(&m->total);
    double f = total ? (double)done / (double)total : 0;
    r.status = 503;
    r.body = malloc(128);
    if (r.body)
      r.len = (size_t)snprintf((char *)r.body, 128,
                               "{\"error\":\"building the trace index (%.0f%%)\",\"building\":%.3f}", 100 * f, f);
  } else if (m->opened < 0) r.body = (uint8_t *)json_error(m->error, &r.len);
  int open = m->opened == 1;
  pthread_mutex_unlock(&m->lock);
  if (open) { /* the view is read-only from now on: no lock while the route computes */
    supersede_ticket ticket;
    supersede_enter(&m->superseded, arg(conn, "slot"), &ticket);
    trace_cancel cancel = {supersede_stale, &ticket};
    if (!trace_route(&m->view, url, arg, conn, &cancel, &r))
      r.body = (uint8_t *)json_error("no such trace route", &r.len);
  }
  if (!r.body) return MHD_NO;
  struct MHD_Response *resp = MHD_create_response_from_buffer(r.len, r.body, MHD_RESPMEM_MUST_FREE);
  if (!resp) return MHD_NO;
  MHD_add_response_header(resp, "Content-Type", r.content_type);
  MHD_add_response_header(resp, "Cache-Control", "no-store");
  enum MHD_Result ok = MHD_queue_response(conn, r.status, resp);
  MHD_destroy_response(resp);
  return ok;
}
