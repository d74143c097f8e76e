/* SPDX-License-Identifier: BSD-3-Clause */
/* UTF-8 well-formedness: the table of well-formed byte sequences of the
 * Unicode standard (chapter 3, "Well-Formed UTF-8 Byte Sequences"). */
#include "common/utf8.h"

/* The continuation bytes a lead byte takes, and the range of the first one
 * (the ranges that exclude overlong forms, surrogates and code points above
 * U+10FFFF); 0 continuation bytes and lo > hi for an invalid lead byte. */
static void lead(uint8_t b, int *more, uint8_t *lo, uint8_t *hi) {
  *lo = 0x80, *hi = 0xbf;
  if (b < 0x80) *more = 0;
  else if (b >= 0xc2 && b <= 0xdf) *more = 1;
  else if (b >= 0xe0 && b <= 0xef) {
    *more = 2;
    if (b == 0xe0) *lo = 0xa0;
    if (b == 0xed) *hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    *more = 3;
    if (b == 0xf0) *lo = 0x90;
    if (b == 0xf4) *hi = 0x8f;
  } else {
    *more = -1;
  }
}

size_t utf8_invalid_at(const uint8_t *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    int more;
    uint8_t lo, hi;
    lead(s[i], &more, &lo, &hi);
    if (more < 0 || (size_t)more > n - i - 1) return i;
    for (int k = 1; k <= more; k++) {
      uint8_t c = s[i + (size_t)k];
      if (c < (k == 1 ? lo : 0x80) || c > (k == 1 ? hi : 0xbf)) return i;
    }
    i += (size_t)more + 1;
  }
  return n;
}
