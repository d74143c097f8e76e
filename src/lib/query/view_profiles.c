/* SPDX-License-Identifier: BSD-3-Clause */
/* A bottom-up or flat row over the profiles: each profile's value summed
 * over the row's contexts, as the row's own value is summed over them
 * (aggregate.h), from one context's values over the profiles at a time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/query_internal.h"

/* The contexts adding to row: inclusive, those it is the outermost context of; exclusive, all
 * (their own cost, the inclusive value less the children's, as the row's exclusive value). */
static uint32_t row_contexts(const hpcdb_experiment *e, const agg_view *a, uint32_t row, int exclusive, uint32_t *out) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < e->n_contexts; i++) {
    unsigned k = 0;
    for (uint32_t r = a->ctx_row[i]; r != HPCDB_NONE; r = a->group[r], k++)
      if (r == row) {
        if (exclusive || (k < 8 && a->ctx_inclusive[i] >> k & 1)) out[n++] = i;
        break;
      }
  }
  return n;
}

/* values += sign * ctx's inclusive value in each of the n profiles, size += its magnitude (one:
 * scratch; each array n long). */
static int add_inclusive(hpcdb_query *q, const column *c, uint32_t ctx, double sign, double *one, double *values,
                         double *size, uint32_t n) {
  memset(one, 0, n * sizeof *one);
  int rc = query_gather_profiles(q, c, ctx, 0, one, n);
  for (uint32_t k = 0; k < n && rc == 0; k++) values[k] += sign * one[k], size[k] += fabs(one[k]);
  return rc;
}

int hpcdb_query_view_profiles(hpcdb_query *q, hpcdb_qview view, hpcdb_qcolumn col, hpcdb_qnode node, int exclusive,
                              double *values, uint32_t *profiles) {
  if (view == HPCDB_QVIEW_TOP_DOWN || node == 0)
    return hpcdb_query_node_profiles(q, col, node, exclusive, values, profiles);
  if (view != HPCDB_QVIEW_BOTTOM_UP && view != HPCDB_QVIEW_FLAT)
    return hpcdb_fail(HPCDB_EINVAL, "view %d does not exist", (int)view);
  if (col >= q->n_cols) return hpcdb_fail(HPCDB_EINVAL, "column %u does not exist", col);
  const agg_view *a;
  uint32_t *ctxs = malloc(((size_t)q->exp->n_contexts + 1) * sizeof *ctxs), n_ctx = 0;
  if (!ctxs) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  query_lock(q); /* the view is built once, then never changes: read without the lock after */
  int rc = query_agg(q, view == HPCDB_QVIEW_FLAT, &a);
  query_unlock(q);
  if (rc == 0 && node > a->n_rows)
    rc = hpcdb_fail(HPCDB_EINVAL, "node %u does not exist (the view has %u)", node, a->n_rows + 1);
  if (rc == 0) n_ctx = row_contexts(q->exp, a, node - 1, exclusive, ctxs);
  uint32_t n = q->src.n_profiles;
  double *one = rc == 0 ? malloc(((size_t)n + 1) * 2 * sizeof *one) : NULL, *size = one ? one + n + 1 : NULL;
  if (rc == 0 && !one) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u profiles", n);
  if (rc == 0) memset(size, 0, n * sizeof *size);
  if (profiles && rc == 0) memcpy(profiles, q->src.profile_of, n * sizeof *profiles);
  if (rc == 0) memset(values, 0, n * sizeof *values);
  const hpcdb_context *cs = q->exp->contexts;
  for (uint32_t c = 0; c < n_ctx && rc == 0; c++) {
    rc = add_inclusive(q, &q->cols[col], ctxs[c], 1, one, values, size, n);
    for (uint32_t k = exclusive ? cs[ctxs[c]].first_child : HPCDB_NONE; k != HPCDB_NONE && rc == 0;
         k = cs[k].next_sibling)
      rc = add_inclusive(q, &q->cols[col], k, -1, one, values, size, n);
  }
  for (uint32_t k = 0; k < n && rc == 0; k++) /* differences leave rounding noise: as the row's own value, 0 */
    if (fabs(values[k]) <= 1e-9 * size[k]) values[k] = 0;
  free(one);
  free(ctxs);
  return rc;
}
