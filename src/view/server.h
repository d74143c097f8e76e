/* SPDX-License-Identifier: BSD-3-Clause */
/* The HTTP server's state (internal to src/view). */
#ifndef HPCDB_VIEW_SERVER_H
#define HPCDB_VIEW_SERVER_H

#include <arpa/inet.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "compare_state.h"
#include "routes.h"

typedef struct view_server {
  view_db dbs[2];
  int n_dbs;
  const char *bind;
  uint16_t port; /* the one bound (0 asks the system for a free one) */
  char token[33];
  void *daemon; /* struct MHD_Daemon */
  atomic_ulong requests;
  atomic_int damaged; /* a route met SIGBUS: the databases are not read again */
  /* Requests are answered on a thread per connection. The query objects
   * (dbs[].q) are safe for concurrent readers (they lock their caches
   * themselves, and compute a column's values without the lock): their routes
   * take no lock. The comparison's routes hold a reference to the comparison
   * they read (compare_state.h), which fills its figures without blocking
   * other readers. The timeline's routes hold none (trace_mount.h): a trace
   * summary never delays a tree. */
  view_compare compare; /* with two databases: their comparison */
} view_server;

/* A request as the checks and the routes see it: from libmicrohttpd
 * (server.c), or built by a test without a socket. */
typedef struct view_request {
  const char *method, *url;
  size_t upload_size;
  const char *host;   /* the Host header, or NULL */
  const char *cookie; /* the hpcdb_token cookie, or NULL */
  req_arg_fn arg;     /* the query string's arguments (token, and the route's) */
  void *arg_ctx;
  const char
      *header_token; /* the X-Hpcdb-Token header (a link with access: the page sends its fragment's token), or NULL */
} view_request;

/* The answer to send: body is a built-in page, error, or owned. */
typedef struct view_answer {
  unsigned status;
  const char *type;
  const char *body;
  size_t len;
  int persistent;         /* body is a built-in page: sent without a copy */
  int trace;              /* a /api/trace/ request that passed the checks: trace_mount_serve answers it */
  const char *set_cookie; /* NULL, or set_cookie_buf */
  char *owned;            /* a route's JSON (server_answer_free) */
  char text[300];         /* a small body: an error, or /api/access's token */
  char set_cookie_buf[128];
} view_answer;

/* Checks the request (method, body, Host, then the token for anything but
 * the page's own files, which hold no data) and answers it: a page, a
 * route's JSON or a JSON error (the timeline's routes: a->trace). The token
 * comes from the query string, the X-Hpcdb-Token header or the cookie; the
 * first two set the cookie. /api/access gives the token back to a request
 * that has it (the page's "copy link with access"). Routes run under the
 * SIGBUS guard. */
void server_answer(view_server *s, const view_request *in, view_answer *a);
void server_answer_free(view_answer *a);

/* The comparison slot of a zeroed server (before any request); server_fini lets it go. */
void server_init(view_server *s);
void server_fini(view_server *s);
/* 0, or -1 when the address cannot be bound. */
int server_start(view_server *s);
void server_stop(view_server *s);

#endif
