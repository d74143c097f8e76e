/* SPDX-License-Identifier: BSD-3-Clause */
#include "common/cursor.h"

#include <string.h>

#include "common/error.h"

void cursor_init(hpcdb_cursor *c, const uint8_t *base, uint64_t len, const char *path) {
  c->base = base;
  c->len = len;
  c->pos = 0;
  c->limit = len;
  c->path = path;
  c->section = "file";
}

int cursor_section(hpcdb_cursor *c, const char *section, uint64_t off, uint64_t n) {
  if (!in_bounds(c->len, off, n))
    return hpcdb_fail_at(HPCDB_ETRUNCATED, c->path, section, off, "section-bounds",
                         "section of %llu bytes does not fit in the file of %llu bytes", (unsigned long long)n,
                         (unsigned long long)c->len);
  c->section = section;
  c->pos = off;
  c->limit = off + n;
  return 0;
}

int cursor_seek(hpcdb_cursor *c, uint64_t off) {
  if (off > c->limit)
    return hpcdb_fail_at(HPCDB_ETRUNCATED, c->path, c->section, off, "bounds", "seek past the end (limit 0x%llx)",
                         (unsigned long long)c->limit);
  c->pos = off;
  return 0;
}

int cursor_skip(hpcdb_cursor *c, uint64_t n) {
  if (!in_bounds(c->limit, c->pos, n))
    return hpcdb_fail_at(HPCDB_ETRUNCATED, c->path, c->section, c->pos, "bounds", "cannot skip %llu bytes",
                         (unsigned long long)n);
  c->pos += n;
  return 0;
}

const uint8_t *cursor_take(hpcdb_cursor *c, uint64_t n, const char *what) {
  if (!in_bounds(c->limit, c->pos, n)) {
    hpcdb_fail_at(HPCDB_ETRUNCATED, c->path, c->section, c->pos, "bounds",
                  "%s (%llu bytes) runs past the end at 0x%llx", what, (unsigned long long)n,
                  (unsigned long long)c->limit);
    return NULL;
  }
  const uint8_t *p = c->base + c->pos;
  c->pos += n;
  return p;
}

int cursor_check_array(const hpcdb_cursor *c, uint64_t off, uint64_t count, uint64_t size, const char *what) {
  uint64_t total;
  if (!mul_ok(count, size, &total))
    return hpcdb_fail_at(HPCDB_ECORRUPT, c->path, c->section, off, "count-overflow",
                         "%s: %llu elements of %llu bytes overflow", what, (unsigned long long)count,
                         (unsigned long long)size);
  if (!in_bounds(c->limit, off, total))
    return hpcdb_fail_at(HPCDB_ETRUNCATED, c->path, c->section, off, "bounds",
                         "%s: %llu elements of %llu bytes run past 0x%llx", what, (unsigned long long)count,
                         (unsigned long long)size, (unsigned long long)c->limit);
  return 0;
}

#define CURSOR_READER(name, type, size, decode)          \
  int name(hpcdb_cursor *c, type *v, const char *what) { \
    const uint8_t *p = cursor_take(c, size, what);       \
    if (!p) return HPCDB_ETRUNCATED;                     \
    *v = decode(p);                                      \
    return 0;                                            \
  }

static inline uint8_t rd_u8(const uint8_t *p) { return p[0]; }
CURSOR_READER(cursor_u8, uint8_t, 1, rd_u8)
CURSOR_READER(cursor_le16, uint16_t, 2, rd_le16)
CURSOR_READER(cursor_le32, uint32_t, 4, rd_le32)
CURSOR_READER(cursor_le64, uint64_t, 8, rd_le64)
CURSOR_READER(cursor_be16, uint16_t, 2, rd_be16)
CURSOR_READER(cursor_be32, uint32_t, 4, rd_be32)
CURSOR_READER(cursor_be64, uint64_t, 8, rd_be64)
CURSOR_READER(cursor_le_f64, double, 8, rd_le_f64)
CURSOR_READER(cursor_be_f64, double, 8, rd_be_f64)

int cursor_cstring_at(const hpcdb_cursor *c, uint64_t off, uint64_t lo, uint64_t hi, const char **out, size_t *out_len,
                      const char *what) {
  if (hi > c->len) hi = c->len;
  if (off < lo || off >= hi)
    return hpcdb_fail_at(HPCDB_ECORRUPT, c->path, c->section, off, "string-bounds",
                         "%s points outside [0x%llx, 0x%llx)", what, (unsigned long long)lo, (unsigned long long)hi);
  const uint8_t *start = c->base + off;
  const uint8_t *nul = memchr(start, 0, (size_t)(hi - off));
  if (!nul)
    return hpcdb_fail_at(HPCDB_ECORRUPT, c->path, c->section, off, "string-bounds",
                         "%s is not NUL-terminated before 0x%llx", what, (unsigned long long)hi);
  *out = (const char *)start;
  *out_len = (size_t)(nul - start);
  return 0;
}
