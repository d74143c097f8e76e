/* SPDX-License-Identifier: BSD-3-Clause */
/* A growable byte buffer the hpcrun writers serialise into (big-endian). */
#ifndef HPCDB_HPCRUN_OUTBUF_H
#define HPCDB_HPCRUN_OUTBUF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/vec.h"
#include "hpcrun/hpcrun_file.h"

typedef struct hpcrun_outbuf {
  uint8_t *data;
  uint64_t len, cap;
  int failed; /* out of memory: later writes are ignored */
} hpcrun_outbuf;

static inline uint8_t *hpcrun_out_room(hpcrun_outbuf *b, uint64_t n) {
  if (b->failed) return NULL;
  uint64_t need;
  if (!add_ok(b->len, n, &need) || vec_reserve((void **)&b->data, &b->cap, need, 1) < 0) {
    b->failed = 1;
    return NULL;
  }
  uint8_t *p = b->data + b->len;
  b->len = need;
  return p;
}
static inline void hpcrun_out_bytes(hpcrun_outbuf *b, const void *src, uint64_t n) {
  uint8_t *p = hpcrun_out_room(b, n);
  if (p && n) memcpy(p, src, (size_t)n);
}
static inline void hpcrun_out_zeros(hpcrun_outbuf *b, uint64_t n) {
  uint8_t *p = hpcrun_out_room(b, n);
  if (p && n) memset(p, 0, (size_t)n);
}
static inline void hpcrun_out_u8(hpcrun_outbuf *b, uint8_t v) { hpcrun_out_bytes(b, &v, 1); }
static inline void hpcrun_out_u16(hpcrun_outbuf *b, uint16_t v) {
  uint8_t *p = hpcrun_out_room(b, 2);
  if (p) wr_be16(p, v);
}
static inline void hpcrun_out_u32(hpcrun_outbuf *b, uint32_t v) {
  uint8_t *p = hpcrun_out_room(b, 4);
  if (p) wr_be32(p, v);
}
static inline void hpcrun_out_u64(hpcrun_outbuf *b, uint64_t v) {
  uint8_t *p = hpcrun_out_room(b, 8);
  if (p) wr_be64(p, v);
}
static inline void hpcrun_out_str(hpcrun_outbuf *b, const hpcrun_str *s) {
  hpcrun_out_u32(b, s->len);
  hpcrun_out_bytes(b, s->s, s->len);
}

/* Writes bytes to path through a temporary file renamed on success. */
int hpcrun_write_bytes(const char *path, const uint8_t *data, uint64_t len);

#endif
