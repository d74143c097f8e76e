/* SPDX-License-Identifier: BSD-3-Clause */
/* The random-access fuzz targets take ids before a directory image
 * (cmd_image.h): ACCESS_IDS_SIZE bytes (fuzz_trace_tiles: 32) of
 * little-endian words the target reads with access_u32, then the image. */
#ifndef HPCDB_FUZZ_ACCESS_IDS_H
#define HPCDB_FUZZ_ACCESS_IDS_H

#include <stddef.h>
#include <stdint.h>

#define ACCESS_IDS_SIZE 16

static inline uint32_t access_u32(const uint8_t *ids, size_t word) {
  const uint8_t *p = ids + 4 * word;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* An id as the fuzzer chose it on odd words of flags, else brought into [0, n) (n > 0). */
static inline uint32_t access_pick(uint32_t id, uint32_t n, int raw) { return raw || !n ? id : id % n; }

#endif
