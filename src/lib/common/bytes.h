/* SPDX-License-Identifier: BSD-3-Clause */
/* Byte-order helpers: the byte order is in the name; bytes are widened to
 * unsigned before shifting; nothing casts a pointer into file bytes. */
#ifndef HPCDB_COMMON_BYTES_H
#define HPCDB_COMMON_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint16_t rd_le16(const uint8_t *p) { return (uint16_t)(p[0] | (uint16_t)p[1] << 8); }
static inline uint32_t rd_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t rd_le64(const uint8_t *p) { return (uint64_t)rd_le32(p) | (uint64_t)rd_le32(p + 4) << 32; }
static inline uint16_t rd_be16(const uint8_t *p) { return (uint16_t)((uint16_t)p[0] << 8 | p[1]); }
static inline uint32_t rd_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}
static inline uint64_t rd_be64(const uint8_t *p) { return (uint64_t)rd_be32(p) << 32 | (uint64_t)rd_be32(p + 4); }
static inline double bits_to_f64(uint64_t bits) {
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}
static inline uint64_t f64_to_bits(double d) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  return bits;
}
static inline double rd_le_f64(const uint8_t *p) { return bits_to_f64(rd_le64(p)); }
static inline double rd_be_f64(const uint8_t *p) { return bits_to_f64(rd_be64(p)); }

/* On a little-endian host the stores are copies of the value's bytes: GCC
 * at -O2 leaves the byte loops below byte stores (8-byte ones a loop). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HPCDB_HOST_LE 1
#else
#define HPCDB_HOST_LE 0
#endif
static inline void wr_le16(uint8_t *p, uint16_t v) {
  if (HPCDB_HOST_LE) {
    memcpy(p, &v, sizeof v);
    return;
  }
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static inline void wr_le32(uint8_t *p, uint32_t v) {
  if (HPCDB_HOST_LE) {
    memcpy(p, &v, sizeof v);
    return;
  }
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void wr_le64(uint8_t *p, uint64_t v) {
  if (HPCDB_HOST_LE) {
    memcpy(p, &v, sizeof v);
    return;
  }
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void wr_be16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}
static inline void wr_be32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (24 - 8 * i));
}
static inline void wr_be64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (56 - 8 * i));
}
static inline void wr_le_f64(uint8_t *p, double d) { wr_le64(p, f64_to_bits(d)); }
static inline void wr_be_f64(uint8_t *p, double d) { wr_be64(p, f64_to_bits(d)); }

/* True when [off, off + n) lies within a buffer of len bytes, without overflow. */
static inline int in_bounds(uint64_t len, uint64_t off, uint64_t n) { return off <= len && n <= len - off; }

/* a * b into *out; 0 on overflow. */
static inline int mul_ok(uint64_t a, uint64_t b, uint64_t *out) {
  if (a != 0 && b > UINT64_MAX / a) return 0;
  *out = a * b;
  return 1;
}
static inline int add_ok(uint64_t a, uint64_t b, uint64_t *out) {
  if (b > UINT64_MAX - a) return 0;
  *out = a + b;
  return 1;
}

#endif
