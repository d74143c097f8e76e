/* SPDX-License-Identifier: BSD-3-Clause */
/* Building and reading the messages ranks exchange (dist_msg.h). */
#include <stdlib.h>
#include <string.h>

#include "distributed/dist_msg.h"
#include "common/bytes.h"
#include "common/error.h"

static uint8_t *room(dist_msg *m, uint64_t n) {
  if (m->failed) return NULL;
  if (m->len + n > m->cap) {
    uint64_t cap = m->cap ? m->cap : 4096;
    while (cap < m->len + n) cap *= 2;
    uint8_t *d = realloc(m->data, (size_t)cap);
    if (!d) {
      m->failed = 1;
      return NULL;
    }
    m->data = d;
    m->cap = cap;
  }
  uint8_t *p = m->data + m->len;
  m->len += n;
  return p;
}

uint8_t *dist_msg_put(dist_msg *m, uint64_t n) { return room(m, n); }

void dist_msg_u8(dist_msg *m, uint8_t v) {
  uint8_t *p = room(m, 1);
  if (p) *p = v;
}
void dist_msg_u16(dist_msg *m, uint16_t v) {
  uint8_t *p = room(m, 2);
  if (p) wr_le16(p, v);
}
void dist_msg_u32(dist_msg *m, uint32_t v) {
  uint8_t *p = room(m, 4);
  if (p) wr_le32(p, v);
}
void dist_msg_u64(dist_msg *m, uint64_t v) {
  uint8_t *p = room(m, 8);
  if (p) wr_le64(p, v);
}
void dist_msg_f64(dist_msg *m, double v) {
  uint8_t *p = room(m, 8);
  if (p) wr_le_f64(p, v);
}
void dist_msg_bytes(dist_msg *m, const void *src, uint64_t n) {
  uint8_t *p = n ? room(m, n) : NULL;
  if (p) memcpy(p, src, (size_t)n);
}

void dist_msg_varint(dist_msg *m, uint64_t v) {
  uint8_t *p = room(m, 10);
  if (p) m->len -= 10 - (uint64_t)(dist_put_varint(p, v) - p); /* room made for the longest */
}

int dist_msg_read_varint(hpcdb_cursor *c, uint64_t *v, const char *what) {
  uint64_t x = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (c->pos >= c->limit)
      return hpcdb_fail_at(HPCDB_ETRUNCATED, c->path, c->section, c->pos, what, "truncated number");
    uint8_t b = c->base[c->pos++];
    if (shift == 63 && b > 1)
      return hpcdb_fail_at(HPCDB_ECORRUPT, c->path, c->section, c->pos - 1, what, "number past 64 bits");
    x |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) break;
  }
  *v = x;
  return 0;
}

uint8_t *dist_put_str(uint8_t *p, const char *s, uint32_t n) {
  if (!s) {
    wr_le32(p, UINT32_MAX);
    return p + 4;
  }
  wr_le32(p, n);
  memcpy(p + 4, s, n);
  p[4 + (size_t)n] = 0;
  return p + 5 + (size_t)n;
}

void dist_msg_str(dist_msg *m, const char *s) {
  size_t n = s ? strlen(s) : 0;
  if (n >= UINT32_MAX) n = UINT32_MAX - 1;
  uint8_t *p = room(m, 5 + (uint64_t)n);
  if (p) m->len -= 5 + (uint64_t)n - (uint64_t)(dist_put_str(p, s, (uint32_t)n) - p); /* 4 bytes for NULL */
}

int dist_msg_status(const dist_msg *m) {
  return m->failed ? hpcdb_fail(HPCDB_ENOMEM, "out of memory for a message between ranks") : 0;
}

void dist_msg_free(dist_msg *m) {
  free(m->data);
  memset(m, 0, sizeof *m);
}

int dist_msg_read_str(hpcdb_cursor *c, const char **s) {
  uint32_t n;
  HPCDB_TRY(cursor_le32(c, &n, "string length"));
  if (n == UINT32_MAX) {
    *s = NULL;
    return 0;
  }
  const uint8_t *p = cursor_take(c, (uint64_t)n + 1, "string");
  if (!p) return HPCDB_ETRUNCATED;
  if (p[n] != 0 || memchr(p, 0, n))
    return hpcdb_fail_at(HPCDB_ECORRUPT, c->path, c->section, c->pos - n - 1, "string", "not NUL-terminated");
  *s = (const char *)p;
  return 0;
}
