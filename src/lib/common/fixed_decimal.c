/* SPDX-License-Identifier: BSD-3-Clause */
/* "%.3g" and "%.1f" by scaling to an integer: v times an exact power of ten
 * is one rounding away from the true product (relative error below 2^-53),
 * so the integer it rounds to is the correctly rounded one unless the
 * product lies within that error of a half; such values, and those outside
 * the plain ranges below, go through snprintf. */
#include "common/fixed_decimal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "common/dtoa.h"

static const double powers_of_ten[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6}; /* exact doubles */

/* x (a product rounded once) rounded to the nearest integer into *out: 0
 * when x is too near a half for its rounding error (x * 2^-53; allowed for
 * ten times over) to tell which way printf rounds the exact value, or too
 * large. */
static int round_sure(double x, uint64_t *out) {
  if (!(x >= 0 && x < 1e12)) return 0;
  double f = floor(x), frac = x - f;
  if (fabs(frac - 0.5) <= x * 1e-15 + 1e-12) return 0;
  *out = (uint64_t)f + (frac > 0.5);
  return 1;
}

int fmt_g3(char *buf, size_t size, double v) {
  double a = fabs(v);
  int e = a >= 100 ? 2 : a >= 10 ? 1 : a >= 1 ? 0 : a >= 0.1 ? -1 : a >= 0.01 ? -2 : a >= 0.001 ? -3 : -4;
  uint64_t r;
  /* plain notation needs a decimal exponent of -4 .. 2 after rounding: 1e-4 <= |v| < 999.5 */
  if (v == 0 || !(a >= 1.0001e-4 && a < 999.4) || !round_sure(a * powers_of_ten[2 - e], &r) || r < 100 || r > 999)
    return snprintf(buf, size, "%.3g", v);
  char digits[3] = {(char)('0' + r / 100), (char)('0' + r / 10 % 10), (char)('0' + r % 10)};
  int n = 0, last = digits[2] != '0' ? 3 : digits[1] != '0' ? 2 : 1; /* %g drops trailing zeros */
  if (v < 0) buf[n++] = '-';
  if (e < 0) {
    buf[n++] = '0', buf[n++] = '.';
    for (int z = -1; z > e; z--) buf[n++] = '0';
    for (int i = 0; i < last; i++) buf[n++] = digits[i];
  } else {
    for (int i = 0; i <= e; i++) buf[n++] = digits[i];
    if (last > e + 1) buf[n++] = '.';
    for (int i = e + 1; i < last; i++) buf[n++] = digits[i];
  }
  buf[n] = '\0';
  return n;
}

int fmt_f1(char *buf, size_t size, double v) {
  uint64_t r;
  if (isnan(v) || !round_sure(fabs(v) * 10, &r)) return snprintf(buf, size, "%.1f", v);
  int n = 0;
  if (signbit(v)) buf[n++] = '-'; /* "-0.0" too, as printf */
  n += (int)fmt_u64(buf + n, r / 10);
  buf[n++] = '.';
  buf[n++] = (char)('0' + r % 10);
  buf[n] = '\0';
  return n;
}
