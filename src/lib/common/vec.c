/* SPDX-License-Identifier: BSD-3-Clause */
#include "common/vec.h"

#include <stdlib.h>

#include "common/bytes.h"
#include "common/error.h"

int vec_reserve(void **items, uint64_t *cap, uint64_t need, size_t size) {
  if (need <= *cap) return 0;
  uint64_t next = *cap ? *cap : 8;
  while (next < need) {
    if (next > UINT64_MAX / 2)
      return hpcdb_fail(HPCDB_ENOMEM, "array of %llu elements is too large", (unsigned long long)need);
    next *= 2;
  }
  uint64_t bytes;
  if (!mul_ok(next, size, &bytes) || bytes > SIZE_MAX)
    return hpcdb_fail(HPCDB_ENOMEM, "array of %llu elements is too large", (unsigned long long)need);
  void *p = realloc(*items, (size_t)bytes);
  if (!p) return hpcdb_fail(HPCDB_ENOMEM, "out of memory growing an array to %llu elements", (unsigned long long)next);
  *items = p;
  *cap = next;
  return 0;
}
