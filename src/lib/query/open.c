/* SPDX-License-Identifier: BSD-3-Clause */
/* Opening a query over a source: one opened from a path, an experiment's
 * or a caller's value interface. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/query_internal.h"

int hpcdb_query_on(hpcdb_query **out, hpcdb_source *src) {
  *out = NULL;
  if (!src || !src->q.exp || src->q.exp->n_contexts == 0)
    return hpcdb_fail(HPCDB_EINVAL, "a query needs a source with a tree");
  hpcdb_query *q = calloc(1, sizeof *q);
  if (q && !(q->cols = calloc(QUERY_MAX_COLUMNS, sizeof *q->cols))) free(q), q = NULL;
  if (!q) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  pthread_mutex_init(&q->lock, NULL);
  pthread_cond_init(&q->computed, NULL);
  q->source = hpcdb_source_ref(src);
  q->src = src->q;
  q->exp = src->q.exp;
  *out = q;
  return 0;
}

/* A query over a source made for it alone (the query holds the only reference). */
static int query_own(hpcdb_query **out, hpcdb_source *src) {
  int rc = hpcdb_query_on(out, src);
  hpcdb_source_close(src);
  return rc;
}

int hpcdb_query_from_source(hpcdb_query **out, const hpcdb_qsource *src) {
  hpcdb_source *s;
  *out = NULL;
  if (!src || !src->ops) return hpcdb_fail(HPCDB_EINVAL, "a query needs a source with a tree");
  if (src->ops->version == 0 || src->ops->version > HPCDB_QSOURCE_OPS_VERSION)
    return hpcdb_fail(HPCDB_EINVAL, "hpcdb_qsource_ops: version %u, this library knows 1 to %u", src->ops->version,
                      HPCDB_QSOURCE_OPS_VERSION);
  HPCDB_TRY(query_source_adopt(&s, src));
  return query_own(out, s);
}

int hpcdb_query_from_experiment(hpcdb_query **out, const hpcdb_experiment *exp) {
  hpcdb_source *s;
  *out = NULL;
  HPCDB_TRY(hpcdb_source_from_experiment(&s, exp));
  return query_own(out, s);
}

int hpcdb_query_open(hpcdb_query **out, const char *path) {
  hpcdb_source *s;
  *out = NULL;
  HPCDB_TRY(hpcdb_source_open(&s, path, NULL));
  return query_own(out, s);
}

void hpcdb_query_close(hpcdb_query *q) {
  if (!q) return;
  query_columns_free(q);
  for (int a = 0; a < 2; a++) query_agg_free(&q->agg[a]);
  for (int k = 0; k < QUERY_SORTS; k++) free(q->sorts[k].kids);
  free(q->rows);
  free(q->twins);
  free(q->walk);
  free(q->row_ctx[0]), free(q->row_ctx[1]);
  pthread_cond_destroy(&q->computed);
  pthread_mutex_destroy(&q->lock);
  hpcdb_source_close(q->source);
  free(q);
}

void query_lock(hpcdb_query *q) { pthread_mutex_lock(&q->lock); }
void query_unlock(hpcdb_query *q) { pthread_mutex_unlock(&q->lock); }

const hpcdb_experiment *hpcdb_query_experiment(const hpcdb_query *q) { return q->exp; }
const char *hpcdb_query_source_name(const hpcdb_query *q) { return q->src.ops->name; }
uint32_t hpcdb_query_n_profiles(const hpcdb_query *q) { return q->src.n_profiles; }
hpcdb_source *hpcdb_query_source(const hpcdb_query *q) { return q->source; }
