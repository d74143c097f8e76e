/* SPDX-License-Identifier: BSD-3-Clause */
/* Growable arrays: `VEC_PUSH(&items, &n, &cap, value)` style helpers over a
 * (pointer, count, capacity) triple. Growth is checked for overflow. */
#ifndef HPCDB_COMMON_VEC_H
#define HPCDB_COMMON_VEC_H

#include <stddef.h>
#include <stdint.h>

/* Ensures room for `need` elements of `size` bytes in *items (capacity *cap). */
int vec_reserve(void **items, uint64_t *cap, uint64_t need, size_t size);

#define VEC_RESERVE(items_ptr, cap_ptr, need) \
  vec_reserve((void **)(items_ptr), (cap_ptr), (need), sizeof(**(items_ptr)))

#endif
