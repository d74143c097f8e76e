/* SPDX-License-Identifier: BSD-3-Clause */
/* fmt_double: every double reads back as itself (strtod), and no shorter
 * decimal would (the correctly rounded one with a digit less does not read
 * back: if any shorter decimal did, the nearest would). Checked on random bit
 * patterns (every exponent), random "nice" values (k / 10^n, sums of them),
 * integers and the edges (subnormals, powers of two and ten, extremes); of
 * the decimals as short, it is the nearest that reads back. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dtoa.h"
#include "testlib.h"

static uint64_t state = 0x9e3779b97f4a7c15u;
static uint64_t next(void) { /* splitmix64 */
  uint64_t z = (state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static int significant(const char *s) { /* significant digits of a decimal */
  int n = 0, started = 0, trailing = 0;
  for (; *s && *s != 'e'; s++) {
    if (*s < '0' || *s > '9') continue;
    if (*s != '0') started = 1;
    if (!started) continue;
    n++;
    trailing = *s == '0' ? trailing + 1 : 0;
  }
  return n - trailing;
}

/* The significant digits of a decimal, as a string. */
static void digit_string(const char *s, char *out) {
  size_t n = 0;
  for (; *s && *s != 'e'; s++)
    if (*s >= '0' && *s <= '9' && (n || *s != '0')) out[n++] = *s;
  while (n && out[n - 1] == '0') n--;
  out[n] = '\0';
}

static long failures;

static void check(double v) {
  char buf[DTOA_BUF + 1];
  size_t n = fmt_double(buf, v);
  buf[n] = '\0';
  if (n > DTOA_BUF - 8 || strtod(buf, NULL) != v || (v == 0 && signbit(v) != signbit(strtod(buf, NULL)))) {
    if (failures++ < 10) fprintf(stderr, "%a: \"%s\" does not read back\n", v, buf);
    return;
  }
  int digits = significant(buf);
  if (digits >= 1) { /* of the decimals this long, the nearest (printf's correctly rounded one) when it reads back */
    char nearest[64], a[32], b[64];
    snprintf(nearest, sizeof nearest, "%.*e", digits - 1, v);
    digit_string(buf, a);
    digit_string(nearest, b);
    if (strtod(nearest, NULL) == v && strcmp(a, b) && failures++ < 10)
      fprintf(stderr, "%a: \"%s\" is not the nearest (\"%s\")\n", v, buf, nearest);
  }
  if (digits > 1) {
    char shorter[64];
    snprintf(shorter, sizeof shorter, "%.*e", digits - 2, v);
    if (strtod(shorter, NULL) == v && failures++ < 10)
      fprintf(stderr, "%a: \"%s\" is not the shortest (\"%s\" reads back)\n", v, buf, shorter);
  }
}

static void check_both(double v) {
  check(v);
  check(-v);
}

int main(int argc, char **argv) {
  long n = 0, scale = argc > 1 ? atol(argv[1]) : 1; /* the suite runs the short campaign; more by hand */
  for (long i = 0; i < 200000 * scale; i++, n++) {  /* random bits: every exponent, subnormals */
    uint64_t b = next();
    double v;
    memcpy(&v, &b, sizeof v);
    if (isfinite(v)) check(v);
  }
  for (long i = 0; i < 50000 * scale; i++, n++) { /* values of real data: k * 10^-p and their sums */
    double v = (double)(next() % 1000000) * pow(10, -(int)(next() % 12));
    check_both(v);
    check_both(v + (double)(next() % 1000) * 1e-3);
  }
  for (long i = 0; i < 20000 * scale; i++, n++) check_both((double)(next() >> (next() % 64)));
  for (int e = -1074; e <= 1023; e++, n++) check_both(ldexp(1, e));
  for (int e = -323; e <= 308; e++, n++) {
    char p10[16];
    snprintf(p10, sizeof p10, "1e%d", e);
    check_both(strtod(p10, NULL));
  }
  const double edges[] = {0.0,
                          -0.0,
                          DBL_MIN,
                          DBL_MAX,
                          DBL_TRUE_MIN,
                          DBL_EPSILON,
                          0.1,
                          0.2,
                          0.3,
                          1.0 / 3,
                          9007199254740991.0,
                          9007199254740992.0,
                          9007199254740993.0,
                          1e16,
                          1e17,
                          1e21,
                          1e-5,
                          1e-4,
                          123456789012345678.0,
                          5e-324,
                          2.2250738585072009e-308,
                          1.7976931348623157e308};
  for (size_t i = 0; i < sizeof edges / sizeof *edges; i++, n++) check_both(edges[i]);
  printf("%ld doubles, %ld failures\n", n, failures);
  CHECK(failures == 0);

  char buf[DTOA_BUF + 1];
#define SAME(expr, text)                                                                       \
  do {                                                                                         \
    size_t len_ = (expr);                                                                      \
    buf[len_] = '\0';                                                                          \
    CHECK(strcmp(buf, text) == 0);                                                             \
    if (strcmp(buf, text)) fprintf(stderr, "%s: \"%s\", expected \"%s\"\n", #expr, buf, text); \
  } while (0)
  SAME(fmt_double(buf, 0.1 + 0.2), "0.30000000000000004");
  SAME(fmt_double(buf, 0.537), "0.537");
  SAME(fmt_double(buf, 1234.5), "1234.5");
  SAME(fmt_double(buf, 3), "3");
  SAME(fmt_double(buf, -0.0), "-0");
  SAME(fmt_double(buf, 1e-7), "1e-07");
  SAME(fmt_double(buf, 1.5e300), "1.5e+300");
  SAME(fmt_double(buf, 0.00012), "0.00012");
  SAME(fmt_double(buf, NAN), "nan");
  SAME(fmt_u64(buf, UINT64_MAX), "18446744073709551615");
  SAME(fmt_i64(buf, INT64_MIN), "-9223372036854775808");
  SAME(fmt_double_quantum(buf, 0.1 + 0.2, 1e-12), "0.3");
  SAME(fmt_double_quantum(buf, -1.3877787807814457e-17, 1e-12), "0");
  SAME(fmt_double_quantum(buf, 2.9999999999999996, 1e-9), "3");
  SAME(fmt_double_quantum(buf, 0.6, 1), "1");
  SAME(fmt_double_quantum(buf, 123.456, 0.01), "123.46");
  return TEST_END();
}
