/* SPDX-License-Identifier: BSD-3-Clause */
/* UTF-8 well-formedness (RFC 3629: no overlong forms, no surrogates, nothing
 * above U+10FFFF), for formats whose strings must be UTF-8. */
#ifndef HPCDB_COMMON_UTF8_H
#define HPCDB_COMMON_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The offset of the first byte of s[0..n) that does not begin a well-formed
 * sequence, or n when all of it is well-formed. */
size_t utf8_invalid_at(const uint8_t *s, size_t n);

#endif
