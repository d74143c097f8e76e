/* Scaling models in Extra-P's performance-model normal form, one term:
 * f(p) = c0 + c1 * p^(i) * log2(p)^j, found by Extra-P's hypothesis search
 * for one parameter (Calotoiu et al., SC'13; Extra-P's single-parameter
 * "Basic" modeler): the constant model first (the mean; exact data keeps it),
 * then every (i, j) of its default building blocks, each fitted by least
 * squares and scored by leave-one-out cross-validation; a hypothesis whose
 * term contributes less than 0.05 % of a value nowhere is skipped, and the
 * lowest SMAPE wins (the constant model's SMAPE over all points to beat). */
#include <math.h>
#include <stdio.h>

#include "common/error.h"
#include "hpcdb/compare.h"

/* Extra-P's default building blocks with log terms: (numerator,
 * denominator, log exponent) of p^(n/d) * log2(p)^j. */
static const int blocks[][3] = {
    {0, 1, 1}, {0, 1, 2}, {1, 4, 0}, {1, 3, 0}, {1, 4, 1}, {1, 3, 1}, {1, 4, 2}, {1, 3, 2}, {1, 2, 0},
    {1, 2, 1}, {1, 2, 2}, {2, 3, 0}, {3, 4, 0}, {2, 3, 1}, {3, 4, 1}, {4, 5, 0}, {2, 3, 2}, {3, 4, 2},
    {1, 1, 0}, {1, 1, 1}, {1, 1, 2}, {5, 4, 0}, {5, 4, 1}, {4, 3, 0}, {4, 3, 1}, {3, 2, 0}, {3, 2, 1},
    {3, 2, 2}, {5, 3, 0}, {7, 4, 0}, {2, 1, 0}, {2, 1, 1}, {2, 1, 2}, {9, 4, 0}, {7, 3, 0}, {5, 2, 0},
    {5, 2, 1}, {5, 2, 2}, {8, 3, 0}, {11, 4, 0}, {3, 1, 0}, {3, 1, 1}};
#define EPSILON 0.0005 /* Extra-P's minimum term contribution */
#define MAX_POINTS 1024

static double term(int num, int den, int log_exp, double p) {
  double t = num ? pow(p, (double)num / den) : 1;
  return log_exp ? t * pow(log2(p), log_exp) : t;
}

double hpcdb_scaling_eval(const hpcdb_scaling_model *m, double p) {
  if (m->num == 0 && m->log_exp == 0) return m->c0;
  return m->c0 + m->c1 * term(m->num, m->den, m->log_exp, p);
}

/* Least squares of y = c0 + c1 * t over the points but `skip`; a constant
 * coefficient that contributes less than EPSILON of every value is dropped
 * (the fit done again through the origin), as Extra-P cleans it. */
static int fit(const double *t, const double *y, uint32_t n, uint32_t skip, double *c0, double *c1) {
  double st = 0, sy = 0, stt = 0, sty = 0, k = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (i == skip) continue;
    st += t[i], sy += y[i], stt += t[i] * t[i], sty += t[i] * y[i], k++;
  }
  double det = k * stt - st * st;
  if (k < 2 || fabs(det) <= 1e-12 * fmax(1, k * stt)) return -1;
  *c1 = (k * sty - st * sy) / det;
  *c0 = (sy - *c1 * st) / k;
  int small = 1;
  for (uint32_t i = 0; i < n && small; i++)
    if (i != skip && fabs(*c0) >= EPSILON * fabs(y[i])) small = 0;
  if (small && stt > 0) {
    *c0 = 0;
    *c1 = sty / stt;
  }
  return 0;
}

static double smape_term(double y, double f) {
  double s = fabs(y) + fabs(f);
  return s > 0 ? 2 * fabs(f - y) / s : 0;
}

int hpcdb_scaling_fit(hpcdb_scaling_model *out, const double *p, const double *y, uint32_t n) {
  if (n < 2 || n > MAX_POINTS) return hpcdb_fail(HPCDB_EINVAL, "a scaling model needs 2 to %d runs, not %u", MAX_POINTS, n);
  double mean = 0, t[MAX_POINTS];
  int log_ok = 1;
  for (uint32_t i = 0; i < n; i++) {
    if (!(p[i] > 0)) return hpcdb_fail(HPCDB_EINVAL, "parameter value %g is not positive", p[i]);
    log_ok &= p[i] >= 1;
    mean += y[i] / n;
  }
  hpcdb_scaling_model best = {mean, 0, 0, 1, 0, 0, 0, 0};
  for (uint32_t i = 0; i < n; i++) {
    best.rss += (y[i] - mean) * (y[i] - mean);
    best.smape += smape_term(y[i], mean) * 100 / n;
  }
  double constant_rss = best.rss;
  for (size_t b = 0; constant_rss > 0 && b < sizeof blocks / sizeof *blocks; b++) {
    const int *bl = blocks[b];
    if (bl[2] && !log_ok) continue; /* log terms need p >= 1 */
    for (uint32_t i = 0; i < n; i++) t[i] = term(bl[0], bl[1], bl[2], p[i]);
    hpcdb_scaling_model m = {0, 0, bl[0], bl[1], bl[2], 0, 0, 0};
    int ok = 1;
    for (uint32_t i = 0; i < n && ok; i++) { /* leave one out */
      double c0, c1;
      if (fit(t, y, n, i, &c0, &c1) < 0) ok = 0;
      else m.smape += smape_term(y[i], c0 + c1 * t[i]) * 100 / n;
    }
    if (!ok || fit(t, y, n, n, &m.c0, &m.c1) < 0 || m.c1 == 0 || !isfinite(m.c1)) continue;
    int contributes = 0;
    for (uint32_t i = 0; i < n; i++) {
      double f = hpcdb_scaling_eval(&m, p[i]);
      m.rss += (y[i] - f) * (y[i] - f);
      if (fabs(f) > 0 && fabs(m.c1 * t[i]) / fabs(f) >= EPSILON) contributes = 1;
    }
    if (!contributes || !(m.smape < best.smape)) continue;
    best = m;
  }
  if (best.smape < 1e-9) best.smape = 0; /* an exact fit, up to rounding */
  /* adjusted R^2 against the constant model, one term */
  best.ar2 = constant_rss > 0 && n > 2 ? 1 - (best.rss / constant_rss) * (n - 1.0) / (n - 2.0) : 1;
  *out = best;
  return 0;
}

size_t hpcdb_scaling_format(const hpcdb_scaling_model *m, char *buf, size_t size) {
  size_t len = 0;
#define PUT(...) len += (size_t)snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0, __VA_ARGS__)
  int constant_only = m->num == 0 && m->log_exp == 0;
  if (m->c0 != 0 || constant_only) PUT("%.4g", m->c0);
  if (!constant_only) {
    if (m->c0 != 0) PUT(" %c ", m->c1 < 0 ? '-' : '+');
    else if (m->c1 < 0) PUT("-");
    PUT("%.4g", fabs(m->c1));
    if (m->num) {
      if (m->den == 1 && m->num == 1) PUT(" * p");
      else if (m->den == 1) PUT(" * p^%d", m->num);
      else PUT(" * p^(%d/%d)", m->num, m->den);
    }
    if (m->log_exp == 1) PUT(" * log2(p)");
    else if (m->log_exp > 1) PUT(" * log2(p)^%d", m->log_exp);
  }
#undef PUT
  return len;
}

double hpcdb_scaling_growth(const hpcdb_scaling_model *m) {
  if (m->c1 <= 0 || (m->num == 0 && m->log_exp == 0)) return 0;
  return (double)m->num / m->den + 0.01 * m->log_exp;
}
