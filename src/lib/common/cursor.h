/* SPDX-License-Identifier: BSD-3-Clause */
/* A bounds-checked reading cursor over bytes of one file. Every read checks
 * `off > len || n > len - off`; a failed read records a message naming the
 * file, the section, the offset and what was being read, and returns
 * HPCDB_ETRUNCATED. */
#ifndef HPCDB_COMMON_CURSOR_H
#define HPCDB_COMMON_CURSOR_H

#include <stddef.h>
#include <stdint.h>

#include "common/bytes.h"

typedef struct hpcdb_cursor {
  const uint8_t *base; /* start of the whole file */
  uint64_t len;        /* bytes in the file */
  uint64_t pos;        /* absolute offset of the next read */
  uint64_t limit;      /* reads may not pass this (len, or a section end) */
  const char *path;    /* for messages */
  const char *section; /* for messages */
} hpcdb_cursor;

void cursor_init(hpcdb_cursor *c, const uint8_t *base, uint64_t len, const char *path);
/* Restricts reads to [off, off + n) and names the section; fails when that
 * range is outside the file. */
int cursor_section(hpcdb_cursor *c, const char *section, uint64_t off, uint64_t n);
int cursor_seek(hpcdb_cursor *c, uint64_t off);
int cursor_skip(hpcdb_cursor *c, uint64_t n);
/* Pointer to n bytes at the position (advances); NULL + message when short. */
const uint8_t *cursor_take(hpcdb_cursor *c, uint64_t n, const char *what);
/* Checks that count elements of size bytes fit from off within the limit. */
int cursor_check_array(const hpcdb_cursor *c, uint64_t off, uint64_t count, uint64_t size, const char *what);

int cursor_u8(hpcdb_cursor *c, uint8_t *v, const char *what);
int cursor_le16(hpcdb_cursor *c, uint16_t *v, const char *what);
int cursor_le32(hpcdb_cursor *c, uint32_t *v, const char *what);
int cursor_le64(hpcdb_cursor *c, uint64_t *v, const char *what);
int cursor_be16(hpcdb_cursor *c, uint16_t *v, const char *what);
int cursor_be32(hpcdb_cursor *c, uint32_t *v, const char *what);
int cursor_be64(hpcdb_cursor *c, uint64_t *v, const char *what);
int cursor_le_f64(hpcdb_cursor *c, double *v, const char *what);
int cursor_be_f64(hpcdb_cursor *c, double *v, const char *what);

/* A NUL-terminated string starting at off, wholly inside [lo, hi); *out
 * points into the file bytes, *out_len is its length. */
int cursor_cstring_at(const hpcdb_cursor *c, uint64_t off, uint64_t lo, uint64_t hi, const char **out, size_t *out_len,
                      const char *what);

#endif
