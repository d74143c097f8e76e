/* SPDX-License-Identifier: BSD-3-Clause */
/* Opening a query over a path, an experiment or a caller's source. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/query_internal.h"

int hpcdb_query_from_source(hpcdb_query **out, const hpcdb_qsource *src) {
  *out = NULL;
  if (!src || !src->ops || !src->exp || src->exp->n_contexts == 0)
    return hpcdb_fail(HPCDB_EINVAL, "a query needs a source with a tree");
  hpcdb_query *q = calloc(1, sizeof *q);
  if (!q) {
    if (src->ops->close) src->ops->close(src->impl);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  q->src = *src;
  q->exp = src->exp;
  *out = q;
  return 0;
}

int hpcdb_query_from_experiment(hpcdb_query **out, const hpcdb_experiment *exp) {
  hpcdb_qsource s;
  *out = NULL;
  HPCDB_TRY(query_source_model(&s, exp, 0));
  return hpcdb_query_from_source(out, &s);
}

int hpcdb_query_open(hpcdb_query **out, const char *path) {
  *out = NULL;
  hpcdb_format f;
  HPCDB_TRY(hpcdb_detect(&f, path));
  hpcdb_qsource s;
  if (f == HPCDB_FORMAT_HPCTK4_DIR) {
    HPCDB_TRY(query_source_db(&s, path));
  } else if (f == HPCDB_FORMAT_CUBE) {
    HPCDB_TRY(query_source_cube(&s, path));
  } else {
    hpcdb_experiment *exp;
    HPCDB_TRY(hpcdb_read(&exp, path));
    int rc = query_source_model(&s, exp, 1);
    if (rc < 0) {
      hpcdb_experiment_free(exp);
      return rc;
    }
  }
  return hpcdb_query_from_source(out, &s);
}

void hpcdb_query_close(hpcdb_query *q) {
  if (!q) return;
  query_columns_free(q);
  for (int a = 0; a < 2; a++) query_agg_free(&q->agg[a]);
  for (int k = 0; k < QUERY_SORTS; k++) free(q->sorts[k].kids);
  free(q->rows);
  free(q->twins);
  free(q->walk);
  if (q->src.ops->close) q->src.ops->close(q->src.impl);
  free(q);
}

const hpcdb_experiment *hpcdb_query_experiment(const hpcdb_query *q) { return q->exp; }
const char *hpcdb_query_source_name(const hpcdb_query *q) { return q->src.ops->name; }
uint32_t hpcdb_query_n_profiles(const hpcdb_query *q) { return q->src.n_profiles; }
