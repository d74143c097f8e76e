/* SPDX-License-Identifier: BSD-3-Clause */
/* Growable arrays in an anonymous mapping of their own, grown with mremap:
 * the pages move to the larger mapping instead of being copied into fresh
 * ones, so growth by doubling neither copies nor faults a page in twice
 * (realloc of a heap block copies it into new pages, each a fault and a
 * zeroed page; expensive in a virtual machine). Large arrays get huge pages
 * (huge_pages.h). Bytes past those written are zero. */
#ifndef HPCDB_COMMON_MAP_VEC_H
#define HPCDB_COMMON_MAP_VEC_H

#include <stddef.h>
#include <stdint.h>

/* Ensures room for `need` elements of `size` bytes in *items (capacity *cap,
 * 0 with *items NULL for none yet); the capacity fills whole pages. */
int map_vec_reserve(void **items, uint64_t *cap, uint64_t need, size_t size);

/* Frees an array of capacity cap (as map_vec_reserve left it). */
void map_vec_free(void *items, uint64_t cap, size_t size);

#define MAP_VEC_RESERVE(items_ptr, cap_ptr, need) \
  map_vec_reserve((void **)(items_ptr), (cap_ptr), (need), sizeof(**(items_ptr)))

#endif
