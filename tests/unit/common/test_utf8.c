/* SPDX-License-Identifier: BSD-3-Clause */
/* utf8_invalid_at: well-formed sequences of every length pass; the ill-formed
 * ones of the Unicode standard's table are found at their first byte. */
#include <string.h>

#include "common/utf8.h"
#include "testlib.h"

static size_t at(const char *s) { return utf8_invalid_at((const uint8_t *)s, strlen(s)); }

int main(void) {
  CHECK(at("") == 0);
  CHECK(at("plain ascii") == 11);
  CHECK(at("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf") == 19); /* é € 😀 U+10FFFF */
  CHECK(at("\xed\x9f\xbf") == 3);                                                /* U+D7FF, just below the surrogates */
  CHECK(at("a\xff") == 1);                                                       /* never a UTF-8 byte */
  CHECK(at("a\x80") == 1);                                                       /* a continuation byte alone */
  CHECK(at("ab\xc0\x80") == 2);                                                  /* overlong NUL */
  CHECK(at("\xc1\xbf") == 0);                                                    /* overlong two-byte form */
  CHECK(at("\xe0\x9f\xbf") == 0);                                                /* overlong three-byte form */
  CHECK(at("\xf0\x8f\xbf\xbf") == 0);                                            /* overlong four-byte form */
  CHECK(at("x\xed\xa0\x80") == 1);                                               /* a surrogate, U+D800 */
  CHECK(at("\xf4\x90\x80\x80") == 0);                                            /* above U+10FFFF */
  CHECK(at("\xf5\x80\x80\x80") == 0);                                            /* lead byte past F4 */
  CHECK(at("ok\xe2\x82") == 2);                                                  /* cut short */
  CHECK(at("\xe2\x28\xa1") == 0);                                                /* a bad continuation byte */
  return TEST_END();
}
