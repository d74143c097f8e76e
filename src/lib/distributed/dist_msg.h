/* SPDX-License-Identifier: BSD-3-Clause */
/* Messages between the ranks of a distributed analysis: bytes built with
 * msg_* (little-endian fields, strings as length + bytes + NUL) and read back
 * with the bounds-checked cursor (a message is checked like a file). */
#ifndef HPCDB_ANALYSIS_DIST_MSG_H
#define HPCDB_ANALYSIS_DIST_MSG_H

#include <stdint.h>

#include "common/cursor.h"

typedef struct dist_msg {
  uint8_t *data;
  uint64_t len, cap;
  int failed; /* out of memory: every later put is dropped, dist_msg_status fails */
} dist_msg;

void dist_msg_u8(dist_msg *m, uint8_t v);
void dist_msg_u16(dist_msg *m, uint16_t v);
void dist_msg_u32(dist_msg *m, uint32_t v);
void dist_msg_u64(dist_msg *m, uint64_t v);
void dist_msg_f64(dist_msg *m, double v);
void dist_msg_bytes(dist_msg *m, const void *p, uint64_t n);
/* An unsigned number in 7-bit groups, lowest first, the high bit of each byte
 * telling that another follows (LEB128): 1 byte below 128, at most 10. */
void dist_msg_varint(dist_msg *m, uint64_t v);
/* Room for n bytes at the end, to fill in place (NULL when out of memory). */
uint8_t *dist_msg_put(dist_msg *m, uint64_t n);
/* Filling such room: v as dist_msg_varint writes it (10 bytes at most), the
 * string s of n bytes as dist_msg_str writes it (n + 5 bytes, 4 for NULL);
 * each returns the end of what it wrote. */
static inline uint8_t *dist_put_varint(uint8_t *p, uint64_t v) { /* inline: a tree sends millions */
  for (; v >= 0x80; v >>= 7) *p++ = (uint8_t)(v | 0x80);
  *p++ = (uint8_t)v;
  return p;
}
uint8_t *dist_put_str(uint8_t *p, const char *s, uint32_t n);
/* NULL is sent as length UINT32_MAX. */
void dist_msg_str(dist_msg *m, const char *s);
/* 0, or HPCDB_ENOMEM with a message. */
int dist_msg_status(const dist_msg *m);
void dist_msg_free(dist_msg *m);

/* A number sent with dist_msg_varint; more than 10 bytes, or past 64 bits, is an error. */
int dist_msg_read_varint(hpcdb_cursor *c, uint64_t *v, const char *what);

/* A string sent with dist_msg_str; *s points into the message (NULL for NULL). */
int dist_msg_read_str(hpcdb_cursor *c, const char **s);

#endif
