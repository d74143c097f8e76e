/* SPDX-License-Identifier: BSD-3-Clause */
/* The JSON routes: one table line per route (routes.c); a handler reads
 * its arguments through req_* and writes JSON or an error (internal). */
#ifndef HPCDB_VIEW_ROUTES_H
#define HPCDB_VIEW_ROUTES_H

#include <pthread.h>
#include <stdint.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/metric_list.h"
#include "hpcdb/query.h"
#include "json.h"
#include "trace_mount.h"

#define VIEW_MAX_LIMIT 10000 /* rows in one answer */
#define VIEW_MAX_COLUMNS 64  /* metrics in one /api/children answer */

typedef struct view_db {
  const char *path;
  hpcdb_query *q;
  char *src_root;            /* realpath of PATH/src, or NULL */
  char *dir;                 /* the database's directory (the file's for a single file) */
  trace_mount trace;         /* its traces, opened on the first /api/trace/ request */
  char *temp;                /* a measurements directory's analysis: the temporary (removed at the end), or NULL */
  char *temp_db;             /* the database in it, served in the directory's place */
  hpcdb_metric_list metrics; /* the metrics as the database lists them (metrics/default.yaml) */
  const char *metric; /* hpcdb view --metric's for this side (the page's first metric, the comparison's), or NULL */
} view_db;

/* The value of the query string's argument name, or NULL (server.c takes it from libmicrohttpd). */
typedef const char *(*req_arg_fn)(void *ctx, const char *name);

typedef struct request {
  req_arg_fn arg; /* the request's arguments */
  void *arg_ctx;
  view_db *dbs;
  int n_dbs;
  jbuf out;
  unsigned status; /* 200 unless a handler says otherwise */
  const char *content_type;
  struct view_compare *compare; /* hpcdb view A B: the server's comparison slot (compare_state.h) */
  struct view_comparison *cmp;  /* the comparison the request reads (req_comparison), let go when it is answered */
} request;

typedef int (*route_fn)(request *r);
typedef struct route {
  const char *path;
  route_fn run;
} route;
extern const route view_routes[];

/* Arguments: each returns 0, or sets a 400 JSON error and returns -1. */
const char *req_arg(request *r, const char *name);
int req_u32(request *r, const char *name, uint32_t def, uint32_t max, uint32_t *out);
int req_db(request *r, view_db **out);
int req_view(request *r, hpcdb_qview *out);
/* profile=K (an index into the experiment's profiles): that profile's own values; absent: HPCDB_NONE. */
int req_profile(request *r, view_db *db, uint32_t *out);
/* group=SELECTION (hpcdb_profile_matches: "rank=0-7,thread=0" or a whole identity): the profiles it
 * selects (malloc'ed, in *set), none asked: *set NULL; none matching: 404. */
int req_group(request *r, view_db *db, uint32_t **set, uint32_t *n);
/* The column of spec (a metric or formula) of profile=K, of group=SELECTION (its profiles summed),
 * else of the whole program; a bad one: 400 "what: why". */
int req_spec_column(request *r, view_db *db, const char *what, const char *spec, hpcdb_qcolumn *out);
/* metric=NAME or formula (default: the default metric), of profile=K or group=SELECTION when given. */
int req_column(request *r, view_db *db, hpcdb_qcolumn *out);
/* flavour=inclusive|exclusive (default inclusive): *exclusive 1 for exclusive. */
int req_flavour(request *r, int *exclusive);
/* A JSON error answer: {"error": "..."} with that status; returns -1. */
int req_error(request *r, unsigned status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* metrics=A\nB... (names and formulas; else metric=): the columns to show, of profile=K or group=SELECTION when given
 * (routes_tree.c); cols has room for VIEW_MAX_COLUMNS. */
int route_columns(request *r, view_db *db, hpcdb_qcolumn *cols, uint32_t *n);
/* sort=inclusive|exclusive, order=desc|asc, sort_col=K (an index into cols). */
int route_sort(request *r, const hpcdb_qcolumn *cols, uint32_t n_cols, hpcdb_qsort *s);

/* {"name", "column", "seconds", "total"} of a column (routes.c). */
void route_metric_json(jbuf *b, hpcdb_query *q, hpcdb_qcolumn c);

int route_info(request *r);
int route_children(request *r);
int route_spread(request *r);
int route_search(request *r);
int route_hotpath(request *r);
int route_source(request *r);
int route_formula(request *r);
int route_compare(request *r); /* routes_compare.c */
int route_compare_children(request *r);
int route_path(request *r);
int route_csv(request *r);    /* routes_csv.c */
int route_groups(request *r); /* routes_groups.c */

/* The text of a database's source file k, checked (source_file.c): malloc'ed, or NULL with why. */
char *view_source_text(const view_db *db, uint32_t file, size_t *len, const char **why);

#endif
