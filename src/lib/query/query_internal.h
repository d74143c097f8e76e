/* SPDX-License-Identifier: BSD-3-Clause */
/* The query object and its caches (internal to src/lib/query). */
#ifndef HPCDB_QUERY_INTERNAL_H
#define HPCDB_QUERY_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "hpcdb/model.h"
#include "hpcdb/query.h"
#include "hpcdb/source.h"
#include "query/aggregate.h"
#include "query/names.h"
#include "query/shown.h"
#include "query/source_internal.h"

#define QUERY_MAX_COLUMNS 1024 /* registered columns (a spec string each) */
#define QUERY_RESIDENT 8       /* columns whose values are held at once */
#define QUERY_SORTS 16         /* sorted child lists kept */

typedef struct column_values {
  double *inc, *exc, *self; /* per context */
  double *agg[2][2];        /* [view bottom-up 0 / flat 1][inclusive 0 / exclusive 1], per node */
  uint64_t used;            /* the query's clock when last used */
} column_values;

typedef struct column {
  char *spec;
  uint32_t profile; /* index into exp->profiles, HPCDB_NONE: the whole program (or the set) */
  uint32_t *set;    /* a group of profiles summed (indices into exp->profiles), or NULL */
  uint32_t n_set;
  uint32_t metric; /* HPCDB_NONE: derived */
  hpcdb_expr *expr;
  double seconds;
  column_values *values; /* NULL until computed, or after eviction (under the query's lock) */
  int computing;         /* a thread computes values without the lock: others wait for it (q->computed) */
} column;

typedef struct sorted_children {
  hpcdb_qview view;
  hpcdb_qnode node;
  hpcdb_qsort sort;
  uint32_t n;
  hpcdb_qnode *kids;
  uint64_t used;
} sorted_children;

/* Several threads may use one query at once. Its caches (column values, the aggregated views, sorted
 * children, twins, scratch) change under `lock`, which each public function that reads them holds
 * for the call; computing a column's values, the slow part (profiles read from the source), runs
 * without it. A column's spec, profile, set, metric, expr and seconds do not change once n_cols
 * counts it (cols never moves: room for QUERY_MAX_COLUMNS), so they are read without the lock. */
struct hpcdb_query {
  hpcdb_source *source; /* the query's reference */
  hpcdb_qsource src;    /* source->q */
  const hpcdb_experiment *exp;
  pthread_mutex_t lock;
  pthread_cond_t computed; /* a column's computing ended */
  column *cols;            /* QUERY_MAX_COLUMNS */
  atomic_uint n_cols;
  uint64_t clock;
  agg_view agg[2];
  sorted_children sorts[QUERY_SORTS];
  uint32_t *rows, *walk; /* query_rows' scratch: room for every context, allocated on first use */
  uint8_t *twins;        /* query_twins, made on first use */
  uint32_t *row_ctx[2];  /* per bottom-up / flat row: the first context adding to it (view_location.c), on first use */
};

void query_lock(hpcdb_query *q);
void query_unlock(hpcdb_query *q);

/* The rows below top-down node (query_shown_children) into *rows (the query's scratch, valid until
 * the next call); returns how many, or a negative status. */
int query_rows(hpcdb_query *q, hpcdb_qnode node, const uint32_t **rows);

/* The values of a column, computed (or recomputed after eviction) on demand. Called with the
 * lock held, which it lets go while it computes: values and rows had before are stale then. */
int query_values(hpcdb_query *q, hpcdb_qcolumn col, const column_values **out);
void query_columns_free(hpcdb_query *q);
/* The aggregated view (0 bottom-up, 1 flat), built on first use. */
int query_agg(hpcdb_query *q, int flat, const agg_view **out);
int query_agg_values(hpcdb_query *q, hpcdb_qcolumn col, int flat, const double **inc, const double **exc);

/* The values of context ctx in the n non-summary profiles, of a metric column (a formula: input by
 * input, then the formula per profile), read from the source into out; no lock needed. */
int query_gather_profiles(hpcdb_query *q, const column *c, uint32_t ctx, int exclusive, double *out, uint32_t n);

/* A metric's ids in a profile: inclusive (execution) and exclusive (function,
 * else point) scope, as propagated ids (stat 0) or Sum statistics (stat 1); -1: none. */
void query_metric_ids(const hpcdb_experiment *e, uint32_t m, int stat, int32_t *inc, int32_t *exc);
/* Adds one profile's values of metric m into inc/exc by context index. */
void query_add_profile(const hpcdb_experiment *e, const hpcdb_profile *p, int stat, uint32_t m, double *inc,
                       double *exc, unsigned *have);
/* The non-summary profiles of exp, as hpcdb_qsource.profile_of wants them (malloc'ed). */
int query_plain_profiles(const hpcdb_experiment *e, uint32_t **out, uint32_t *n);

#endif
