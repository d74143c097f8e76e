/* SPDX-License-Identifier: BSD-3-Clause */
/* One node over the profiles: the values of every non-summary profile,
 * summarised (sorted curve sampled, histogram, min/median/max/mean). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/expr.h"
#include "query/query_internal.h"

int query_gather_profiles(hpcdb_query *q, const column *c, uint32_t ctx, int exclusive, double *out, uint32_t n) {
  if (c->metric != HPCDB_NONE) return q->src.ops->profiles(q->src.impl, ctx, c->metric, !exclusive, out, n);
  const uint32_t *metrics;
  uint32_t k = hpcdb_expr_inputs(c->expr, &metrics);
  double *in = calloc((size_t)k * n + 1, sizeof *in);
  if (!in) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u profiles", n);
  int rc = 0;
  for (uint32_t j = 0; j < k && rc == 0; j++)
    rc = q->src.ops->profiles(q->src.impl, ctx, metrics[j], !exclusive, in + (size_t)j * n, n);
  for (uint32_t p = 0; p < n && rc == 0; p++) {
    double x[EXPR_MAX_INPUTS];
    for (uint32_t j = 0; j < k; j++) x[j] = in[(size_t)j * n + p];
    out[p] = hpcdb_expr_eval(c->expr, x);
  }
  free(in);
  return rc;
}

typedef struct pv {
  double key; /* what is summarised: the value, an unsigned integer's as unsigned */
  double v;
  uint64_t u; /* an unsigned integer's exact value, which sorts (0 for other columns) */
  uint32_t profile;
} pv;

static int by_value(const void *x, const void *y) {
  const pv *a = x, *b = y;
  if (a->u != b->u) return a->u < b->u ? -1 : 1;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return (a->profile > b->profile) - (a->profile < b->profile);
}

int hpcdb_query_spread(hpcdb_query *q, hpcdb_qcolumn col, hpcdb_qnode node, int exclusive, hpcdb_qspread *out) {
  memset(out, 0, sizeof *out);
  if (col >= q->n_cols) return hpcdb_fail(HPCDB_EINVAL, "column %u does not exist", col);
  if (node >= q->exp->n_contexts) return hpcdb_fail(HPCDB_EINVAL, "node %u does not exist", node);
  uint32_t n = q->src.n_profiles;
  out->n_profiles = n;
  if (n == 0) return 0;
  double *v = calloc(n, sizeof *v);
  pv *s = malloc(n * sizeof *s);
  int rc = v && s ? query_gather_profiles(q, &q->cols[col], node, exclusive, v, n)
                  : hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u profiles", n);
  if (rc == 0) {
    int is_unsigned = hpcdb_query_column_integer(q, col) == HPCDB_INTEGER_UNSIGNED;
    double sum = 0, sq = 0;
    for (uint32_t k = 0; k < n; k++) { /* a wrapped counter's -1 is 2^64 - 1, the largest */
      int wrapped = is_unsigned && v[k] < 0 && v[k] >= -9223372036854775808.0;
      uint64_t u = is_unsigned && v[k] == floor(v[k]) && (wrapped || v[k] < 18446744073709551616.0)
                       ? (wrapped ? (uint64_t)(int64_t)v[k] : (uint64_t)v[k])
                       : 0;
      s[k] = (pv){wrapped ? v[k] + 18446744073709551616.0 : v[k], v[k], u, q->src.profile_of[k]};
      sum += s[k].key;
    }
    qsort(s, n, sizeof *s, by_value);
    out->min = s[0].v;
    out->max = s[n - 1].v;
    out->mean = sum / n;
    out->median = n % 2 ? s[n / 2].key : (s[n / 2 - 1].key + s[n / 2].key) / 2;
    for (uint32_t k = 0; k < n; k++) sq += (s[k].key - out->mean) * (s[k].key - out->mean);
    out->stddev = sqrt(sq / n);
    double lo = s[0].key, hi = s[n - 1].key;
    out->imbalance = out->mean != 0 ? hi / out->mean - 1 : 0;
    double width = (hi - lo) / HPCDB_QSPREAD_BINS;
    out->bin_width = width;
    for (uint32_t k = 0; k < n; k++) {
      uint32_t b = width > 0 ? (uint32_t)((s[k].key - lo) / width) : 0;
      out->bins[b < HPCDB_QSPREAD_BINS ? b : HPCDB_QSPREAD_BINS - 1]++;
    }
    out->n_points = n < HPCDB_QSPREAD_POINTS ? n : HPCDB_QSPREAD_POINTS;
    for (uint32_t k = 0; k < out->n_points; k++) { /* evenly over the sorted values, both ends included */
      uint32_t at = out->n_points > 1 ? (uint32_t)((uint64_t)k * (n - 1) / (out->n_points - 1)) : 0;
      out->point_value[k] = s[at].v;
      out->point_profile[k] = s[at].profile;
    }
  }
  free(v);
  free(s);
  return rc;
}

int hpcdb_query_node_profiles(hpcdb_query *q, hpcdb_qcolumn col, hpcdb_qnode node, int exclusive, double *values,
                              uint32_t *profiles) {
  if (col >= q->n_cols) return hpcdb_fail(HPCDB_EINVAL, "column %u does not exist", col);
  if (node >= q->exp->n_contexts) return hpcdb_fail(HPCDB_EINVAL, "node %u does not exist", node);
  uint32_t n = q->src.n_profiles;
  if (profiles) memcpy(profiles, q->src.profile_of, n * sizeof *profiles);
  memset(values, 0, n * sizeof *values);
  return n ? query_gather_profiles(q, &q->cols[col], node, exclusive, values, n) : 0;
}
