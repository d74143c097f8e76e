/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb view A B: the comparison of the two databases, made through the
 * public compare API on the first comparison request and shared by the
 * requests that read it (internal to src/view). A comparison is for one
 * metric pair and never changes but for its on-demand figures, which the
 * library fills safely for concurrent readers; asking for another metric
 * publishes a new one, and the old one is freed when its last request lets
 * go of it. */
#ifndef HPCDB_VIEW_COMPARE_STATE_H
#define HPCDB_VIEW_COMPARE_STATE_H

#include <pthread.h>
#include <stdatomic.h>

#include "hpcdb/compare.h"
#include "hpcdb/hpcdb.h"

struct view_db;

typedef struct view_comparison {
  atomic_uint refs;                /* the slot's while it is the current one, and each request's */
  char *metric[2];                 /* the metrics asked for: A's, and B's (NULL: the same or an equivalent one) */
  const hpcdb_experiment *runs[2]; /* the databases' experiments, as their queries hold them */
  hpcdb_comparison *cmp;           /* over the databases' sources (the queries'), holding references */
  int made;                        /* under the slot's lock: cmp made, or rc says why not */
  int rc;
  char why[512];
  pthread_mutex_t fn_lock;    /* the bottom-up view's rows, made once by the first request for them */
  hpcdb_compare_functions fn; /* valid once have_fn is */
  int have_fn;
} view_comparison;

/* The server's slot: the current comparison (or the one being made). */
typedef struct view_compare {
  pthread_mutex_t lock;
  pthread_cond_t made; /* a comparison was made, or failed */
  view_comparison *current;
} view_compare;

void view_compare_init(view_compare *vc);
/* Lets go of the current comparison (the requests are over). */
void view_compare_fini(view_compare *vc);

/* A reference to the comparison of dbs[0] (A) and dbs[1] (B) for metric of
 * A (never NULL: the route resolves it) against metric_b of B (NULL or "":
 * --metric's, else the same or one documented as the same): the current
 * one, else one made now (without the slot's lock: a request for another
 * metric pair does not wait; one for the same pair waits for it), in *out
 * from before it is made. 0, or HPCDB_ENOMEM, or a negative hpcdb_status
 * with why (HPCDB_EINVAL: no such metric on a side; *out NULL then). */
int view_compare_get(view_compare *vc, const struct view_db *dbs, const char *metric, const char *metric_b,
                     view_comparison **out, char *why, size_t why_size);
/* The request making c met SIGBUS (server.c's guard jumped out of it): the requests waiting for c
 * answer an error instead of waiting for ever (NULL-safe; nothing when c was made). */
void view_compare_abandon(view_compare *vc, view_comparison *c);
/* A request's reference let go (NULL-safe): the last one frees the comparison. */
void view_comparison_release(view_comparison *c);
/* The per-function rows of the comparison (bottom-up), made once. */
int view_comparison_functions(view_comparison *c, const hpcdb_compare_functions **out);

#endif
