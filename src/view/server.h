/* The HTTP server's state (internal to src/view). */
#ifndef HPCDB_VIEW_SERVER_H
#define HPCDB_VIEW_SERVER_H

#include <arpa/inet.h>
#include <stdint.h>

#include "routes.h"

typedef struct view_server {
  view_db dbs[2];
  int n_dbs;
  const char *bind;
  uint16_t port; /* the one bound (0 asks the system for a free one) */
  char token[33];
  void *daemon;  /* struct MHD_Daemon */
  unsigned long requests;
  int damaged;   /* a route met SIGBUS: the databases are not read again */
} view_server;

/* 0, or -1 when the address cannot be bound. */
int server_start(view_server *s);
void server_stop(view_server *s);

#endif
