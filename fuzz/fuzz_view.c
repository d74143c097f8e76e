/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: hpcdb view's request handling without a socket. The input is
 * a request in five lines (method, path, query string, Host header, token
 * cookie); it goes through server_answer (the checks, then a page or a
 * route) over a small real database opened once (fuzz/view_db), twice: as
 * hpcdb view A B has it, for the comparison's routes. Every
 * answer must be a 2xx/4xx status with a JSON body for anything but a
 * page (the timeline's tiles: their binary header), and while a request is
 * answered no file outside the database's directory is opened but the source
 * paths the database records (open and fopen are wrapped at link time:
 * -Wl,--wrap). The timeline's routes (/api/trace/) go to trace_route as
 * trace_mount_serve sends them, over the traces opened once. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"
#include "guard.h"
#include "routes_trace.h"
#include "server.h"

#define TOKEN "00112233445566778899aabbccddeeff"
#define MAX_ARGS 64

static view_server server;
static trace_view timeline; /* what trace_mount_serve would open on the first /api/trace/ request */
static char db_root[PATH_MAX];
static int answering; /* the file checks are on */

static int path_allowed(const char *path) {
  size_t n = strlen(db_root);
  if (!strncmp(path, db_root, n) && path[n] == '/') return 1;
  const hpcdb_experiment *e = hpcdb_query_experiment(server.dbs[0].q);
  for (uint32_t k = 0; k < e->n_files; k++)
    if (e->files[k].path && !strcmp(path, e->files[k].path)) return 1;
  return 0;
}

static void check_path(const char *path) {
  if (answering && !path_allowed(path)) {
    fprintf(stderr, "fuzz_view: a request opened %s, outside the database\n", path);
    abort();
  }
}

int __real_open(const char *path, int flags, ...);
FILE *__real_fopen(const char *path, const char *mode);

int __wrap_open(const char *path, int flags, ...) {
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list ap;
    va_start(ap, flags);
    mode = va_arg(ap, mode_t);
    va_end(ap);
  }
  check_path(path);
  return __real_open(path, flags, mode);
}

FILE *__wrap_fopen(const char *path, const char *mode) {
  check_path(path);
  return __real_fopen(path, mode);
}

static void open_server(void) {
  if (server.n_dbs) return;
  hpcdb_source *db = NULL;
  if (!realpath(HPCDB_FUZZ_VIEW_DB, db_root) || hpcdb_source_open(&db, db_root, NULL) < 0 ||
      hpcdb_query_on(&server.dbs[0].q, db) < 0) {
    fprintf(stderr, "fuzz_view: cannot open %s: %s\n", HPCDB_FUZZ_VIEW_DB, hpcdb_last_error());
    abort();
  }
  char src[PATH_MAX + 8], real[PATH_MAX];
  snprintf(src, sizeof src, "%s/src", db_root);
  server.dbs[0].path = db_root;
  trace_mount_init(&server.dbs[0].trace, db); /* /api/info asks its state (the routes use timeline) */
  server.dbs[0].src_root = realpath(src, real) ? strdup(real) : NULL;
  /* the same database as the second one: hpcdb view A B's routes (db=1, /api/compare/) answer too */
  if (hpcdb_query_on(&server.dbs[1].q, db) < 0) {
    fprintf(stderr, "fuzz_view: cannot query %s twice: %s\n", HPCDB_FUZZ_VIEW_DB, hpcdb_last_error());
    abort();
  }
  server.dbs[1].path = db_root;
  server.n_dbs = 2;
  server_init(&server);
  server.bind = "127.0.0.1";
  server.port = 8080;
  memcpy(server.token, TOKEN, sizeof TOKEN);
  guard_install();
  setenv("XDG_CACHE_HOME", "/tmp/hpcdb-fuzz-view-cache", 1); /* the trace index's cache, not the user's */
  int traced = trace_view_open(&timeline, db, NULL);
  hpcdb_source_close(db); /* the queries and the timeline hold it */
  if (traced < 0) {
    fprintf(stderr, "fuzz_view: no timeline in %s: %s\n", db_root, hpcdb_last_error());
    abort();
  }
}

typedef struct args {
  char *name[MAX_ARGS], *value[MAX_ARGS];
  int n;
} args;

static int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* %XX and '+' decoded in place, as libmicrohttpd does (a bad %-sequence is kept). */
static void unescape(char *s) {
  char *out = s;
  for (; *s; s++) {
    if (*s == '+') *out++ = ' ';
    else if (*s == '%' && hex(s[1]) >= 0 && hex(s[2]) >= 0) {
      *out++ = (char)(hex(s[1]) * 16 + hex(s[2]));
      s += 2;
    } else *out++ = *s;
  }
  *out = '\0';
}

static void parse_query(char *q, args *a) {
  for (char *s = q, *next; s && *s && a->n < MAX_ARGS; s = next) {
    next = strchr(s, '&');
    if (next) *next++ = '\0';
    char *eq = strchr(s, '=');
    if (eq) *eq++ = '\0';
    unescape(s);
    if (eq) unescape(eq);
    a->name[a->n] = s;
    a->value[a->n++] = eq; /* "name" without '=': present, no value (NULL) */
  }
}

static const char *lookup(void *ctx, const char *name) {
  args *a = ctx;
  for (int k = 0; k < a->n; k++)
    if (!strcmp(a->name[k], name)) return a->value[k];
  return NULL;
}

static char *line(char **s) {
  char *at = *s, *nl = at ? strchr(at, '\n') : NULL;
  if (nl) *nl = '\0';
  *s = nl ? nl + 1 : NULL;
  return at;
}

static void check_answer(const view_request *in, unsigned st, const char *type, const char *body, size_t len) {
  if (st != 200 && st != 400 && st != 403 && st != 404 && st != 405 && st != 413 && st != 422) {
    fprintf(stderr, "fuzz_view: %s %s: status %u\n", in->method, in->url, st);
    abort();
  }
  if (!type || (!body && len)) abort();
  int page = st == 200 && strncmp(in->url, "/api/", 5);
  int tile = st == 200 && !strcmp(type, "application/octet-stream") && !strncmp(in->url, "/api/trace/tile", 15);
  if (tile && (len < 56 || memcmp(body, "HTL2", 4))) abort(); /* the tile's header and scale */
  if (!page && !tile && (strcmp(type, "application/json") || !json_valid(body, len))) {
    fprintf(stderr, "fuzz_view: %s %s: not JSON: %.*s\n", in->method, in->url, (int)len, body);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  open_server();
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  char *rest = text;
  char *method = line(&rest), *url = line(&rest), *query = line(&rest), *host = line(&rest), *cookie = line(&rest);
  args a = {0};
  parse_query(query, &a);
  view_request in = {method, url ? url : "/", 0, host, cookie, lookup, &a, NULL};
  view_answer out;
  answering = 1;
  server_answer(&server, &in, &out);
  trace_reply tr = {404, "application/json", NULL, 0};
  if (out.trace &&
      !trace_route(&timeline, in.url, lookup, &a, NULL, &tr)) { /* a 404, as trace_mount_serve answers it */
    tr.body = (uint8_t *)strdup("{}");
    tr.len = 2;
  }
  answering = 0;
  if (out.trace) check_answer(&in, tr.status, tr.content_type, (const char *)tr.body, tr.len);
  else check_answer(&in, out.status, out.type, out.body, out.len);
  free(tr.body);
  server_answer_free(&out);
  free(text);
  return 0;
}
