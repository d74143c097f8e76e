/* SPDX-License-Identifier: BSD-3-Clause */
/* fmt_g3 and fmt_f1 write what snprintf's "%.3g" and "%.1f" write: on
 * every value near the ends of their plain ranges, on halves and their
 * neighbours (printf's exact rounding decides those), on signed zeros,
 * infinities and NaN, and on 600,000 random values of every magnitude
 * the reports print. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fixed_decimal.h"
#include "testlib.h"

static uint64_t seed = 88172645463325252ull;
static uint64_t next_random(void) {
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return seed;
}

static void same(double v) {
  char want[64], got[64];
  int n = snprintf(want, sizeof want, "%.3g", v), m = fmt_g3(got, sizeof got, v), ok = n == m && !strcmp(want, got);
  if (!ok) fprintf(stderr, "%%.3g of %.17g: \"%s\", not \"%s\"\n", v, got, want);
  CHECK(ok);
  n = snprintf(want, sizeof want, "%.1f", v), m = fmt_f1(got, sizeof got, v), ok = n == m && !strcmp(want, got);
  if (!ok) fprintf(stderr, "%%.1f of %.17g: \"%s\", not \"%s\"\n", v, got, want);
  CHECK(ok);
}

static void around(double v) { /* v, its neighbours, and their negatives */
  double x = v;
  for (int i = 0; i < 4; i++) x = nextafter(x, 0);
  for (int i = 0; i < 9; i++, x = nextafter(x, INFINITY)) same(x), same(-x);
}

int main(void) {
  same(0), same(-0.0), same(INFINITY), same(-INFINITY), same(NAN);
  static const double edges[] = {1e-5, 9.9995e-5, 1e-4,  1.0001e-4, 1e-3, 1e-2, 0.1,  1,
                                 10,   100,       999.4, 999.5,     1000, 1e12, 1e15, 1e300};
  for (size_t i = 0; i < sizeof edges / sizeof *edges; i++) around(edges[i]);
  for (int k = -4; k <= 2; k++) /* halves of %.3g's last digit, and of %.1f's */
    for (int d = 100; d < 1000; d++) around((d + 0.5) * pow(10, k - 2));
  for (int d = 0; d < 20000; d++) around((d + 0.5) / 10);
  for (int i = 0; i < 300000; i++) { /* random magnitudes 1e-6 .. 1e6 and random bits */
    double mag = pow(10, (double)(next_random() % 1200) / 100 - 6);
    same(mag * (double)(next_random() >> 11) / 9007199254740992.0);
    uint64_t bits = next_random();
    double any;
    memcpy(&any, &bits, sizeof any);
    same(any);
  }
  return TEST_END();
}
