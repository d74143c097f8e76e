/* SPDX-License-Identifier: BSD-3-Clause */
/* Shortest round-trip doubles (see dtoa.h). The core follows Ryu's d2d:
 * the interval of decimals that read back as the double is computed with
 * 128-bit multiplications by powers of five (dtoa_tables.h, generated
 * exactly by scripts/gen_dtoa_tables.py), then digits are removed while the
 * interval still holds a shorter decimal. */
#include "common/dtoa.h"

#include <math.h>
#include <string.h>

#include "common/dtoa_tables.h"

typedef unsigned __int128 u128;

static uint32_t pow5bits(int32_t e) { return (uint32_t)(((e * 1217359) >> 19) + 1); } /* bit length of 5^e */
static uint32_t log10_pow2(int32_t e) { return (uint32_t)((e * 78913) >> 18); }
static uint32_t log10_pow5(int32_t e) { return (uint32_t)((e * 732923) >> 20); }

static uint32_t pow5_factor(uint64_t v) {
  uint32_t n = 0;
  while (v % 5 == 0) v /= 5, n++;
  return n;
}

static int multiple_of_pow5(uint64_t v, uint32_t p) { return pow5_factor(v) >= p; }
static int multiple_of_pow2(uint64_t v, uint32_t p) { return (v & ((1ull << p) - 1)) == 0; }

static uint64_t mul_shift(uint64_t m, const uint64_t *mul, int32_t j) {
  u128 b0 = (u128)m * mul[0], b2 = (u128)m * mul[1];
  return (uint64_t)(((b0 >> 64) + b2) >> (j - 64));
}

/* The shortest decimal digits * 10^exp10 of a finite positive double given
 * by its IEEE fields. */
static void shortest(uint64_t ieee_mantissa, uint32_t ieee_exponent, uint64_t *digits, int32_t *exp10) {
  int32_t e2;
  uint64_t m2;
  if (ieee_exponent == 0) {
    e2 = 1 - 1023 - 52 - 2;
    m2 = ieee_mantissa;
  } else {
    e2 = (int32_t)ieee_exponent - 1023 - 52 - 2;
    m2 = (1ull << 52) | ieee_mantissa;
  }
  int accept_bounds = (m2 & 1) == 0; /* round-half-even reading accepts the interval's ends */
  uint64_t mv = 4 * m2;
  uint32_t mm_shift = ieee_mantissa != 0 || ieee_exponent <= 1;
  uint64_t vr, vp, vm;
  int32_t e10;
  int vm_zeros = 0, vr_zeros = 0; /* the dropped parts of vm and vr are all zeros */
  if (e2 >= 0) {
    uint32_t q = log10_pow2(e2) - (e2 > 3);
    e10 = (int32_t)q;
    int32_t k = DTOA_POW5_INV_BITS + (int32_t)pow5bits((int32_t)q) - 1;
    int32_t i = -e2 + (int32_t)q + k;
    vr = mul_shift(4 * m2, dtoa_pow5_inv[q], i);
    vp = mul_shift(4 * m2 + 2, dtoa_pow5_inv[q], i);
    vm = mul_shift(4 * m2 - 1 - mm_shift, dtoa_pow5_inv[q], i);
    if (q <= 21) {
      if (mv % 5 == 0) vr_zeros = multiple_of_pow5(mv, q);
      else if (accept_bounds) vm_zeros = multiple_of_pow5(mv - 1 - mm_shift, q);
      else if (multiple_of_pow5(mv + 2, q)) vp--;
    }
  } else {
    uint32_t q = log10_pow5(-e2) - (-e2 > 1);
    e10 = (int32_t)q + e2;
    int32_t i = -e2 - (int32_t)q;
    int32_t k = (int32_t)pow5bits(i) - DTOA_POW5_BITS;
    int32_t j = (int32_t)q - k;
    vr = mul_shift(4 * m2, dtoa_pow5[i], j);
    vp = mul_shift(4 * m2 + 2, dtoa_pow5[i], j);
    vm = mul_shift(4 * m2 - 1 - mm_shift, dtoa_pow5[i], j);
    if (q <= 1) {
      vr_zeros = 1;
      if (accept_bounds) vm_zeros = mm_shift == 1;
      else --vp;
    } else if (q < 63) {
      vr_zeros = multiple_of_pow2(mv, q);
    }
  }
  int32_t removed = 0;
  uint8_t last = 0;
  uint64_t out;
  if (vm_zeros || vr_zeros) { /* the rare general case */
    for (; vp / 10 > vm / 10; removed++) {
      vm_zeros &= vm % 10 == 0;
      vr_zeros &= last == 0;
      last = (uint8_t)(vr % 10);
      vr /= 10, vp /= 10, vm /= 10;
    }
    if (vm_zeros)
      for (; vm % 10 == 0; removed++) {
        vr_zeros &= last == 0;
        last = (uint8_t)(vr % 10);
        vr /= 10, vp /= 10, vm /= 10;
      }
    if (vr_zeros && last == 5 && vr % 2 == 0) last = 4; /* exactly ...50..0: round half to even */
    out = vr + ((vr == vm && (!accept_bounds || !vm_zeros)) || last >= 5);
  } else { /* the common case: only the most significant removed digit rounds, so remove in chunks */
    int round_up = 0;
    for (; vp / 10000 > vm / 10000; removed += 4) {
      round_up = vr % 10000 >= 5000;
      vr /= 10000, vp /= 10000, vm /= 10000;
    }
    for (; vp / 10 > vm / 10; removed++) {
      round_up = vr % 10 >= 5;
      vr /= 10, vp /= 10, vm /= 10;
    }
    out = vr + (vr == vm || round_up);
  }
  *digits = out;
  *exp10 = e10 + removed;
}

static const char pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

size_t fmt_u64(char *buf, uint64_t v) {
  char tmp[20], *p = tmp + 20;
  while (v >= 100) { /* two digits a division */
    p -= 2;
    memcpy(p, pairs + 2 * (v % 100), 2);
    v /= 100;
  }
  if (v >= 10) {
    p -= 2;
    memcpy(p, pairs + 2 * v, 2);
  } else {
    *--p = (char)('0' + v);
  }
  size_t n = (size_t)(tmp + 20 - p);
  memcpy(buf, p, n);
  return n;
}

size_t fmt_i64(char *buf, int64_t v) {
  if (v >= 0) return fmt_u64(buf, (uint64_t)v);
  buf[0] = '-';
  return 1 + fmt_u64(buf + 1, 0 - (uint64_t)v);
}

/* digits * 10^exp10 as text (digits > 0, without trailing zeros). */
static size_t decimal(char *buf, int neg, uint64_t digits, int32_t exp10) {
  char d[20];
  size_t nd = fmt_u64(d, digits), n = 0;
  int32_t point = (int32_t)nd + exp10; /* digits before the decimal point */
  if (neg) buf[n++] = '-';
  if (point > 0 && point <= 17) {
    if ((size_t)point >= nd) {
      memcpy(buf + n, d, nd), n += nd;
      memset(buf + n, '0', (size_t)point - nd), n += (size_t)point - nd;
    } else {
      memcpy(buf + n, d, (size_t)point), n += (size_t)point;
      buf[n++] = '.';
      memcpy(buf + n, d + point, nd - (size_t)point), n += nd - (size_t)point;
    }
  } else if (point <= 0 && point > -5) {
    buf[n++] = '0', buf[n++] = '.';
    memset(buf + n, '0', (size_t)-point), n += (size_t)-point;
    memcpy(buf + n, d, nd), n += nd;
  } else {
    buf[n++] = d[0];
    if (nd > 1) {
      buf[n++] = '.';
      memcpy(buf + n, d + 1, nd - 1), n += nd - 1;
    }
    int32_t e = point - 1;
    buf[n++] = 'e', buf[n++] = e < 0 ? '-' : '+';
    if (e < 0) e = -e;
    if (e < 10) buf[n++] = '0';
    n += fmt_u64(buf + n, (uint64_t)e);
  }
  return n;
}

static size_t special(char *buf, double v) {
  const char *s = isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
  size_t n = strlen(s);
  memcpy(buf, s, n);
  return n;
}

/* The shortest digits of a finite non-zero |v|, trailing zeros removed. */
static void digits_of(double v, uint64_t *digits, int32_t *exp10) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  shortest(bits & ((1ull << 52) - 1), (uint32_t)(bits >> 52) & 0x7ff, digits, exp10);
  while (*digits % 10 == 0) *digits /= 10, ++*exp10;
}

/* Short decimals (measured values often have a few digits after the point):
 * r = |v| * 10^9 rounded. Below 2^50 the decimals with nine digits after the
 * point are further apart than the doubles near v, so at most one of them
 * reads back as v, and the rounding finds it; when r / 10^9 (both exact, so
 * one correctly rounded division, as strtod reads) is v, r without its
 * trailing zeros is the shortest form: a shorter one would be r. 0 when v
 * is not such a decimal (Ryu then). */
enum { SHORT_DIGITS = 9 };
static int short_decimal(double a, uint64_t *digits, int32_t *exp10) {
  double x = a * 1e9;
  if (!(x < 1125899906842624.0)) return 0; /* 2^50 */
  uint64_t r = (uint64_t)(x + 0.5);
  if (r == 0 || (double)r / 1e9 != a) return 0;
  *exp10 = -SHORT_DIGITS;
  while (r % 10 == 0) r /= 10, ++*exp10;
  *digits = r;
  return 1;
}

size_t fmt_double(char *buf, double v) {
  if (!isfinite(v)) return special(buf, v);
  if (v == 0) {
    memcpy(buf, signbit(v) ? "-0" : "0", 2);
    return signbit(v) ? 2 : 1;
  }
  if (fabs(v) < 9007199254740992.0 && v == (double)(int64_t)v)
    return fmt_i64(buf, (int64_t)v); /* whole numbers (below 2^53) are common: counts, sums of counts */
  uint64_t digits;
  int32_t exp10;
  if (!short_decimal(fabs(v), &digits, &exp10)) digits_of(fabs(v), &digits, &exp10);
  return decimal(buf, v < 0, digits, exp10);
}

size_t fmt_double_quantum(char *buf, double v, double quantum) {
  if (!isfinite(v) || !(quantum > 0) || !isfinite(quantum)) return fmt_double(buf, v);
  if (fabs(v) < quantum / 2) {
    buf[0] = '0';
    return 1;
  }
  uint64_t digits, qd;
  int32_t exp10, qexp;
  digits_of(fabs(v), &digits, &exp10);
  digits_of(quantum, &qd, &qexp);
  char tmp[DTOA_BUF];
  int32_t keep_from = qexp + (int32_t)fmt_u64(tmp, qd) - 1; /* the power of ten of the quantum's leading digit */
  if (exp10 < keep_from) {                                  /* drop the digits below 10^keep_from, rounding half up */
    int32_t drop = keep_from - exp10;
    if (drop > 19) {
      buf[0] = '0';
      return 1;
    }
    uint64_t p = 1;
    for (int32_t i = 0; i < drop; i++) p *= 10;
    uint64_t rest = digits % p;
    digits = digits / p + (rest >= p / 2);
    exp10 = keep_from;
    if (digits == 0) {
      buf[0] = '0';
      return 1;
    }
    while (digits % 10 == 0) digits /= 10, exp10++;
  }
  return decimal(buf, v < 0, digits, exp10);
}
