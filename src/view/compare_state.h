/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb view A B: the comparison of the two databases, made through the
 * public compare API on the first comparison request and kept while the
 * metric stays the same (internal to src/view). */
#ifndef HPCDB_VIEW_COMPARE_STATE_H
#define HPCDB_VIEW_COMPARE_STATE_H

#include "hpcdb/compare.h"
#include "hpcdb/hpcdb.h"

struct view_db;

typedef struct view_compare {
  const hpcdb_experiment *runs[2]; /* the databases' experiments, as their queries hold them */
  hpcdb_comparison *cmp;           /* over the databases' sources (the queries'), holding references */
  char *metric[2];                 /* the metrics compared: A's, and B's (NULL: the same or an equivalent one) */
  hpcdb_compare_functions fn;      /* the bottom-up view's rows, made on first use */
  int have_fn;
} view_compare;

/* The comparison of dbs[0] (A) and dbs[1] (B) for metric of A (never NULL:
 * the route resolves it) against metric_b of B (NULL or "": --metric's, else
 * the same or one documented as the same). 0, HPCDB_ENOMEM, or a negative
 * hpcdb_status with the library's error (HPCDB_EINVAL: no such metric on a
 * side). */
int view_compare_get(view_compare *vc, const struct view_db *dbs, const char *metric, const char *metric_b);
/* The per-function rows of the comparison (bottom-up). */
int view_compare_functions(view_compare *vc, const hpcdb_compare_functions **out);
void view_compare_free(view_compare *vc);

#endif
