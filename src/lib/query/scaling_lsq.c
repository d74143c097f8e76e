/* SPDX-License-Identifier: BSD-3-Clause */
/* Least squares for the scaling models' hypotheses: a few columns (the
 * constant and up to HPCDB_SCALING_MAX_TERMS terms) over up to
 * SCALING_MAX_POINTS points, of the relative errors (each point weighted by
 * 1 / |y|: measurements' noise is a share of the value, and the models are
 * scored by the relative SMAPE), by modified Gram-Schmidt with one
 * re-orthogonalisation (terms such as p^(3/4) and p^(4/5) are nearly
 * parallel: the normal equations would lose their difference). The
 * leave-one-out values come from the same factorisation (the hat matrix's
 * diagonal), not from n more fits. */
#include <math.h>
#include <string.h>

#include "hpcdb/compare.h"
#include "query/scaling_private.h"

double scaling_term(int num, int den, int log_exp, double p) {
  double t = num ? pow(p, (double)num / den) : 1;
  return log_exp ? t * pow(log2(p), log_exp) : t;
}

#define MAX_COLS (HPCDB_SCALING_MAX_TERMS + 1)

static double dot(const double *a, const double *b, uint32_t n) {
  double s = 0;
  for (uint32_t i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

int scaling_lsq(const double *const *cols, uint32_t k, const double *y, uint32_t n, int constant, double *x,
                double *loo) {
  double q[MAX_COLS][SCALING_MAX_POINTS], w[SCALING_MAX_POINTS], yw[SCALING_MAX_POINTS]; /* 48 KiB of stack */
  uint32_t m = k + (constant != 0);
  if (k > HPCDB_SCALING_MAX_TERMS || n > SCALING_MAX_POINTS || n < m) return -1;
  /* relative errors: each row over |y| */
  for (uint32_t i = 0; i < n; i++) w[i] = y[i] != 0 ? 1 / fabs(y[i]) : 1, yw[i] = y[i] * w[i];
  for (uint32_t j = 0; j < m; j++)
    for (uint32_t i = 0; i < n; i++) q[j][i] = w[i] * (constant && j == 0 ? 1 : cols[j - (constant != 0)][i]);
  double r[MAX_COLS][MAX_COLS] = {{0}}, qy[MAX_COLS];
  for (uint32_t j = 0; j < m; j++) {
    double norm0 = sqrt(dot(q[j], q[j], n));
    for (int pass = 0; pass < 2; pass++)
      for (uint32_t i = 0; i < j; i++) {
        double d = dot(q[i], q[j], n);
        r[i][j] += d;
        for (uint32_t t = 0; t < n; t++) q[j][t] -= d * q[i][t];
      }
    r[j][j] = sqrt(dot(q[j], q[j], n));
    if (!(r[j][j] > 1e-9 * norm0)) return -1; /* a column the others (nearly) make */
    for (uint32_t t = 0; t < n; t++) q[j][t] /= r[j][j];
    qy[j] = dot(q[j], yw, n);
  }
  double sol[MAX_COLS];
  for (uint32_t j = m; j-- > 0;) {
    double s = qy[j];
    for (uint32_t i = j + 1; i < m; i++) s -= r[j][i] * sol[i];
    sol[j] = s / r[j][j];
  }
  x[0] = constant ? sol[0] : 0;
  memcpy(x + 1, sol + (constant != 0), k * sizeof *x);
  for (uint32_t i = 0; loo && i < n; i++) {
    double fit = 0, h = 0;
    for (uint32_t j = 0; j < m; j++) fit += q[j][i] * qy[j], h += q[j][i] * q[j][i];
    if (!(1 - h > 1e-9)) return -1;
    fit /= w[i];
    loo[i] = y[i] - (y[i] - fit) / (1 - h);
  }
  return 0;
}
