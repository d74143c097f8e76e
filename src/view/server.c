/* The HTTP side: libmicrohttpd with one internal thread (so the query
 * layer is used by one thread at a time), the checks every request passes
 * (Host against DNS rebinding, the token from the URL then a cookie), then
 * the page's files or a route from the table. */
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets.h"
#include "guard.h"
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

static enum MHD_Result send_bytes(struct MHD_Connection *c, unsigned status, const char *type, const void *data, size_t len,
                                  int copy, const char *cookie) {
  struct MHD_Response *r =
      MHD_create_response_from_buffer(len, (void *)data, copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);
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

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *msg) {
  char body[300];
  snprintf(body, sizeof body, "{\"error\":\"%s\"}", msg); /* msg: fixed text of this file */
  return send_bytes(c, status, "application/json", body, strlen(body), 1, NULL);
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

static enum MHD_Result serve_asset(struct MHD_Connection *c, const char *name, const char *cookie) {
  for (const view_asset *a = view_assets; a->name; a++) /* only the names built in: no file system */
    if (!strcmp(a->name, name)) return send_bytes(c, 200, type_of(name), a->data, a->len, 0, cookie);
  return send_error(c, 404, "no such page");
}

static enum MHD_Result serve_route(view_server *s, struct MHD_Connection *c, const char *url) {
  for (const route *rt = view_routes; rt->path; rt++) {
    if (strcmp(rt->path, url)) continue;
    if (s->damaged) return send_error(c, 503, "a database file changed or shrank while it was served: restart hpcdb view");
    request r = {c, s->dbs, s->n_dbs, {0}, 200, "application/json"};
    int rc = guard_run(rt->run, &r);
    s->requests++;
    if (rc == -2) { /* what the route had allocated is left: the databases are not used again */
      s->damaged = 1;
      return send_error(c, 500, "a database file shrank while it was read (SIGBUS): restart hpcdb view");
    }
    if (r.out.failed) {
      jb_free(&r.out);
      return send_error(c, 500, "out of memory for the answer");
    }
    enum MHD_Result ok = send_bytes(c, r.status, r.content_type, r.out.p ? r.out.p : "{}", r.out.n, 1, NULL);
    jb_free(&r.out);
    return ok;
  }
  return send_error(c, 404, "no such route");
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method, const char *version,
                              const char *upload, size_t *upload_size, void **state) {
  view_server *s = cls;
  if (!*state) { /* the headers: answer when the whole request is in */
    *state = s;
    return MHD_YES;
  }
  if (strcmp(method, "GET") && strcmp(method, "HEAD")) return send_error(c, 405, "only GET");
  if (*upload_size) return send_error(c, 413, "no request bodies");
  if (!host_allowed(s, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host")))
    return send_error(c, 403, "the Host header is not this server's address");
  const char *in_url = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
  const char *cookie = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, "hpcdb_token");
  if (!same_token(in_url, s->token) && !same_token(cookie, s->token))
    return send_error(c, 403, "missing or wrong token: open the URL hpcdb view printed");
  char set_cookie[128] = "";
  if (same_token(in_url, s->token) && !same_token(cookie, s->token))
    snprintf(set_cookie, sizeof set_cookie, "hpcdb_token=%s; Path=/; HttpOnly; SameSite=Strict", s->token);
  const char *sc = set_cookie[0] ? set_cookie : NULL;
  if (!strcmp(url, "/")) return serve_asset(c, "index.html", sc);
  if (!strncmp(url, "/assets/", 8)) return serve_asset(c, url + 8, sc);
  if (!strncmp(url, "/api/trace/", 11)) return trace_mount_serve(&s->dbs[0].trace, c, url); /* the timeline */
  if (!strncmp(url, "/api/", 5)) return serve_route(s, c, url);
  return send_error(c, 404, "no such page");
}

int server_start(view_server *s) {
  if (guard_install() < 0) return -1;
  struct sockaddr_in addr = {0};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(s->port);
  if (inet_pton(AF_INET, s->bind, &addr.sin_addr) != 1) return -1;
  s->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, s->port, NULL, NULL, handle, s, MHD_OPTION_SOCK_ADDR, &addr,
                               MHD_OPTION_CONNECTION_LIMIT, (unsigned)64, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
                               MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)64 * 1024, MHD_OPTION_END);
  if (!s->daemon) return -1;
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
  if (info) s->port = info->port;
  return 0;
}

void server_stop(view_server *s) {
  if (s->daemon) MHD_stop_daemon(s->daemon);
  s->daemon = NULL;
}
