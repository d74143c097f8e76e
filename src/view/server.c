/* SPDX-License-Identifier: BSD-3-Clause */
/* The HTTP side: libmicrohttpd with a thread per connection (what the
 * routes share: server.h), the checks every request passes (Host
 * against DNS rebinding; the token, from the URL, a header or the cookie,
 * for anything but the page's own files), then the page's files or a route
 * from the table. */
#include <microhttpd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "hpcdb/page.h"
#include "server.h"

static int same_token(const char *a, const char *b) { /* in constant time */
  size_t n = strlen(b);
  if (!a || strlen(a) != n) return 0;
  unsigned char d = 0;
  for (size_t i = 0; i < n; i++) d |= (unsigned char)(a[i] ^ b[i]);
  return d == 0;
}

static int host_allowed(const view_server *s, const char *host) {
  if (!host) return 0;
  char want[300];
  const char *names[] = {"127.0.0.1", "localhost", "[::1]", s->bind};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    snprintf(want, sizeof want, "%s:%u", names[i], s->port);
    if (!strcmp(host, want)) return 1;
  }
  return 0;
}

static enum MHD_Result send_bytes(struct MHD_Connection *c, unsigned status, const char *type, const void *data,
                                  size_t len, int copy, const char *cookie) {
  /* MHD only reads the buffer (it copies it or keeps it as it is) but takes it non-const */
  struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)(uintptr_t)data,
                                                           copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);
  if (!r) return MHD_NO;
  MHD_add_response_header(r, "Content-Type", type);
  MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
  MHD_add_response_header(r, "Referrer-Policy", "no-referrer"); /* the token is in the first URL */
  MHD_add_response_header(r, "Cache-Control", "no-store");
  MHD_add_response_header(r, "Content-Security-Policy",
                          "default-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
  if (cookie) MHD_add_response_header(r, "Set-Cookie", cookie);
  enum MHD_Result ok = MHD_queue_response(c, status, r);
  MHD_destroy_response(r);
  return ok;
}

static void answer_error(view_answer *a, unsigned status, const char *msg) {
  snprintf(a->text, sizeof a->text, "{\"error\":\"%s\"}", msg); /* msg: fixed text of this file */
  a->status = status;
  a->type = "application/json";
  a->body = a->text;
  a->len = strlen(a->text);
}

static const char *type_of(const char *name) {
  const char *dot = strrchr(name, '.');
  if (!dot) return "application/octet-stream";
  if (!strcmp(dot, ".html")) return "text/html; charset=utf-8";
  if (!strcmp(dot, ".js")) return "text/javascript; charset=utf-8";
  if (!strcmp(dot, ".css")) return "text/css; charset=utf-8";
  if (!strcmp(dot, ".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

static void answer_asset(view_answer *a, const char *name) {
  const unsigned char *data;
  size_t len;
  if (hpcdb_page_asset(name, &data, &len) < 0) { /* only the names built in: no file system */
    answer_error(a, 404, "no such page");
    return;
  }
  a->status = 200;
  a->type = type_of(name);
  a->body = (const char *)data;
  a->len = len;
  a->persistent = 1;
}

static void answer_route(view_server *s, const view_request *in, view_answer *a) {
  const route *rt = view_routes;
  while (rt->path && strcmp(rt->path, in->url)) rt++;
  if (!rt->path) {
    answer_error(a, 404, "no such route");
    return;
  }
  if (s->damaged) {
    answer_error(a, 503, "a database file changed or shrank while it was served: restart hpcdb view");
    return;
  }
  request r = {in->arg, in->arg_ctx, s->dbs, s->n_dbs, {0}, 200, "application/json", &s->compare, NULL};
  int rc = guard_run(rt->run, &r);
  if (rc == -2) view_compare_abandon(&s->compare, r.cmp); /* outside the guard: a SIGBUS still lets go */
  view_comparison_release(r.cmp);
  s->requests++;
  if (rc == -2) { /* what the route had allocated is left: the databases are not used again */
    s->damaged = 1;
    answer_error(a, 500, "a database file shrank while it was read (SIGBUS): restart hpcdb view");
  } else if (r.out.failed) {
    jb_free(&r.out);
    answer_error(a, 500, "out of memory for the answer");
  } else {
    a->status = r.status;
    a->type = r.content_type;
    a->owned = r.out.p;
    a->body = r.out.p ? r.out.p : "{}";
    a->len = r.out.n;
  }
}

/* The token back, for a link that carries it in its fragment (never sent in a path). */
static void answer_access(view_server *s, view_answer *a) {
  snprintf(a->text, sizeof a->text, "{\"token\":\"%s\"}", s->token);
  a->status = 200;
  a->type = "application/json";
  a->body = a->text;
  a->len = strlen(a->text);
}

void server_answer(view_server *s, const view_request *in, view_answer *a) {
  memset(a, 0, sizeof *a);
  const char *given = in->arg(in->arg_ctx, "token");
  if (!given) given = in->header_token;
  int by_given = same_token(given, s->token), by_cookie = same_token(in->cookie, s->token);
  if (by_given && !by_cookie)
    snprintf(a->set_cookie_buf, sizeof a->set_cookie_buf, "hpcdb_token=%s; Path=/; HttpOnly; SameSite=Strict",
             s->token);
  if (strcmp(in->method, "GET") && strcmp(in->method, "HEAD")) answer_error(a, 405, "only GET");
  else if (in->upload_size) answer_error(a, 413, "no request bodies");
  else if (!host_allowed(s, in->host)) answer_error(a, 403, "the Host header is not this server's address");
  else if (!strcmp(in->url, "/")) answer_asset(a, "index.html"); /* the page's files: no data, no token needed */
  else if (!strncmp(in->url, "/assets/", 8)) answer_asset(a, in->url + 8);
  else if (!by_given && !by_cookie) answer_error(a, 403, "missing or wrong token: open the URL hpcdb view printed");
  else if (!strcmp(in->url, "/api/access")) answer_access(s, a);
  else if (!strncmp(in->url, "/api/trace/", 11)) a->trace = 1;
  else if (!strncmp(in->url, "/api/", 5)) answer_route(s, in, a);
  else answer_error(a, 404, "no such page");
  if (a->set_cookie_buf[0] && a->status < 400) a->set_cookie = a->set_cookie_buf;
}

void server_answer_free(view_answer *a) {
  free(a->owned);
  a->owned = NULL;
}

static const char *mhd_arg(void *conn, const char *name) {
  return MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **state) {
  view_server *s = cls;
  if (!*state) { /* the headers: answer when the whole request is in */
    *state = s;
    return MHD_YES;
  }
  view_request in = {method,
                     url,
                     *upload_size,
                     MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host"),
                     MHD_lookup_connection_value(c, MHD_COOKIE_KIND, "hpcdb_token"),
                     mhd_arg,
                     c,
                     MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Hpcdb-Token")};
  view_answer a;
  server_answer(s, &in, &a);
  if (a.trace) return trace_mount_serve(&s->dbs[0].trace, c, url); /* the timeline */
  enum MHD_Result ok = send_bytes(c, a.status, a.type, a.body, a.len, !a.persistent, a.set_cookie);
  server_answer_free(&a);
  return ok;
}

void server_init(view_server *s) { view_compare_init(&s->compare); }

void server_fini(view_server *s) { view_compare_fini(&s->compare); }

int server_start(view_server *s) {
  if (guard_install() < 0) return -1;
  struct sockaddr_in addr = {0};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(s->port);
  if (inet_pton(AF_INET, s->bind, &addr.sin_addr) != 1) return -1;
  s->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, s->port, NULL, NULL,
                               handle, s, MHD_OPTION_SOCK_ADDR, &addr, MHD_OPTION_CONNECTION_LIMIT, (unsigned)64,
                               MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
                               (size_t)64 * 1024, MHD_OPTION_END);
  if (!s->daemon) return -1;
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
  if (info) s->port = info->port;
  return 0;
}

void server_stop(view_server *s) {
  if (s->daemon) MHD_stop_daemon(s->daemon);
  s->daemon = NULL;
}
