/* SPDX-License-Identifier: BSD-3-Clause */
/* Scaling models in Extra-P's performance-model normal form, found by its
 * hypothesis search for one parameter (Calotoiu et al., SC'13; Extra-P's
 * single-parameter modelers; docs/compare.md "The model"):
 *   - the constant model first (the mean; data it fits exactly keeps it);
 *   - then, for one, two and three terms (k terms from 2 (k + 1) points on),
 *     every combination of Extra-P's default building blocks
 *     p^(i) * log2(p)^j, each fitted by least squares of the relative errors
 *     and scored by leave-one-out cross-validation (the SMAPE at the point
 *     left out, averaged); a hypothesis with a term contributing less than
 *     0.05 % to every value is not taken, and of each number of terms the
 *     lowest SMAPE is the candidate;
 *   - one term replaces the constant model when its SMAPE is lower (Extra-P's
 *     Basic modeler); each further term must cut the SMAPE to a third: the
 *     best of hundreds of combinations fits noise a little better by chance,
 *     and that is not a term (tests/unit/query/test_compare_scaling.c). */
#include <math.h>
#include <stdlib.h>

#include "common/error.h"
#include "hpcdb/compare.h"
#include "query/scaling_private.h"

/* Extra-P's default building blocks with log terms: (numerator,
 * denominator, log exponent) of p^(n/d) * log2(p)^j, slower growth first. */
static const int blocks[][3] = {{0, 1, 1}, {0, 1, 2}, {1, 4, 0}, {1, 3, 0}, {1, 4, 1},  {1, 3, 1}, {1, 4, 2},
                                {1, 3, 2}, {1, 2, 0}, {1, 2, 1}, {1, 2, 2}, {2, 3, 0},  {3, 4, 0}, {2, 3, 1},
                                {3, 4, 1}, {4, 5, 0}, {2, 3, 2}, {3, 4, 2}, {1, 1, 0},  {1, 1, 1}, {1, 1, 2},
                                {5, 4, 0}, {5, 4, 1}, {4, 3, 0}, {4, 3, 1}, {3, 2, 0},  {3, 2, 1}, {3, 2, 2},
                                {5, 3, 0}, {7, 4, 0}, {2, 1, 0}, {2, 1, 1}, {2, 1, 2},  {9, 4, 0}, {7, 3, 0},
                                {5, 2, 0}, {5, 2, 1}, {5, 2, 2}, {8, 3, 0}, {11, 4, 0}, {3, 1, 0}, {3, 1, 1}};
#define N_BLOCKS (int)(sizeof blocks / sizeof *blocks)
#define EPSILON 0.0005 /* Extra-P's minimum term contribution, and its constant cleaning */
#define ACCEPT 3       /* a further term must cut the SMAPE to a third (noise does not, tests/unit/query) */

typedef struct search {
  const double *y;
  uint32_t n;
  double tss;                /* the constant model's residual sum of squares */
  const double *t[N_BLOCKS]; /* each block's values at the points; NULL: not used (log terms with p < 1) */
} search;

static double smape_term(double y, double f) {
  double s = fabs(y) + fabs(f);
  return s > 0 ? 2 * fabs(f - y) / s : 0;
}

/* 1 - (1 - R^2) (n - 1) / (n - terms - 1), as Extra-P's hypotheses compute it */
static double adjusted_r2(const search *s, double rss, uint32_t terms) {
  if (s->tss <= 0) return 1;
  double df = (double)s->n - terms - 1;
  return df > 0 ? 1 - (rss / s->tss) * (s->n - 1.0) / df : -INFINITY;
}

/* One hypothesis, the blocks b[0..k): fitted (a constant contributing less
 * than EPSILON to every value dropped, the fit done again through the
 * origin, as Extra-P cleans it) and scored. -1 when it is not taken. */
static int score(const search *s, const int *b, uint32_t k, hpcdb_scaling_model *m) {
  const double *cols[HPCDB_SCALING_MAX_TERMS];
  double x[HPCDB_SCALING_MAX_TERMS + 1], loo[SCALING_MAX_POINTS];
  for (uint32_t j = 0; j < k; j++) cols[j] = s->t[b[j]];
  if (scaling_lsq(cols, k, s->y, s->n, 1, x, loo) < 0) return -1;
  int small = 1;
  for (uint32_t i = 0; i < s->n && small; i++) small = fabs(x[0]) < EPSILON * fabs(s->y[i]);
  if (small) scaling_lsq(cols, k, s->y, s->n, 0, x, loo); /* on failure: the fit with its constant stays */
  *m = (hpcdb_scaling_model){.c0 = x[0], .n_terms = k};
  for (uint32_t j = 0; j < k; j++) {
    double c = x[j + 1], most = 0;
    if (c == 0 || !isfinite(c)) return -1;
    for (uint32_t i = 0; i < s->n; i++) most = s->y[i] != 0 ? fmax(most, fabs(c * cols[j][i] / s->y[i])) : INFINITY;
    if (most < EPSILON) return -1; /* a term that hardly matters anywhere */
    m->terms[j] = (hpcdb_scaling_term){c, blocks[b[j]][0], blocks[b[j]][1], blocks[b[j]][2]};
  }
  for (uint32_t i = 0; i < s->n; i++) {
    double f = x[0];
    for (uint32_t j = 0; j < k; j++) f += x[j + 1] * cols[j][i];
    m->rss += (s->y[i] - f) * (s->y[i] - f);
    m->smape += smape_term(s->y[i], loo[i]) * 100 / s->n;
  }
  m->ar2 = adjusted_r2(s, m->rss, k);
  return 0;
}

/* The lowest-SMAPE hypothesis of k terms: every combination of usable blocks from `from` on. */
static void combinations(const search *s, int *b, uint32_t depth, uint32_t k, int from, hpcdb_scaling_model *best,
                         int *found) {
  if (depth == k) {
    hpcdb_scaling_model m;
    if (score(s, b, k, &m) == 0 && (!*found || m.smape < best->smape)) *best = m, *found = 1;
    return;
  }
  for (int i = from; i < N_BLOCKS; i++)
    if (s->t[i]) b[depth] = i, combinations(s, b, depth + 1, k, i + 1, best, found);
}

int hpcdb_scaling_fit(hpcdb_scaling_model *out, const double *p, const double *y, uint32_t n) {
  if (n < 2 || n > SCALING_MAX_POINTS)
    return hpcdb_fail(HPCDB_EINVAL, "a scaling model needs 2 to %d runs, not %u", SCALING_MAX_POINTS, n);
  double mean = 0;
  int log_ok = 1;
  for (uint32_t i = 0; i < n; i++) {
    if (!(p[i] > 0)) return hpcdb_fail(HPCDB_EINVAL, "parameter value %g is not positive", p[i]);
    log_ok &= p[i] >= 1; /* log terms need p >= 1 */
    mean += y[i] / n;
  }
  search s = {y, n, 0, {0}};
  hpcdb_scaling_model best = {.c0 = mean};
  for (uint32_t i = 0; i < n; i++) {
    s.tss += (y[i] - mean) * (y[i] - mean);
    best.smape += smape_term(y[i], mean) * 100 / n;
  }
  best.rss = s.tss;
  best.ar2 = adjusted_r2(&s, s.tss, 0);
  double *values = s.tss > 0 ? malloc((size_t)N_BLOCKS * n * sizeof *values) : NULL;
  if (s.tss > 0 && !values) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the scaling model's terms");
  for (int b = 0; values && b < N_BLOCKS; b++) {
    if (blocks[b][2] && !log_ok) continue;
    for (uint32_t i = 0; i < n; i++)
      values[(size_t)b * n + i] = scaling_term(blocks[b][0], blocks[b][1], blocks[b][2], p[i]);
    s.t[b] = values + (size_t)b * n;
  }
  /* one term from any number of points; k terms from 2 (k + 1) points: two per coefficient */
  uint32_t max_terms = n / 2 - 1 > HPCDB_SCALING_MAX_TERMS ? HPCDB_SCALING_MAX_TERMS : n >= 4 ? n / 2 - 1 : 1;
  for (uint32_t k = 1; values && k <= max_terms && best.smape > 0; k++) {
    hpcdb_scaling_model cand;
    int b[HPCDB_SCALING_MAX_TERMS], found = 0;
    combinations(&s, b, 0, k, 0, &cand, &found);
    if (found && (k == 1 ? cand.smape < best.smape : cand.smape * ACCEPT <= best.smape)) best = cand;
    if (best.smape < 1e-9) best.smape = 0; /* an exact fit, up to rounding: no term more */
  }
  free(values);
  *out = best;
  return 0;
}
