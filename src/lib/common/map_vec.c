/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "common/map_vec.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/bytes.h"
#include "common/error.h"
#include "common/huge_pages.h"

static uint64_t page_size(void) {
  long p = sysconf(_SC_PAGESIZE);
  return p > 0 ? (uint64_t)p : 4096;
}

/* The mapping that holds cap elements of size bytes: whole pages. */
static size_t mapping_bytes(uint64_t cap, size_t size) {
  uint64_t page = page_size();
  return (size_t)((cap * size + page - 1) / page * page);
}

static void *grow_mapping(void *old, size_t old_bytes, size_t bytes) {
  if (!old) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
  }
#ifdef MREMAP_MAYMOVE
  void *p = mremap(old, old_bytes, bytes, MREMAP_MAYMOVE);
  return p == MAP_FAILED ? NULL : p;
#else
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  memcpy(p, old, old_bytes);
  munmap(old, old_bytes);
  return p;
#endif
}

int map_vec_reserve(void **items, uint64_t *cap, uint64_t need, size_t size) {
  if (need <= *cap) return 0;
  uint64_t next = *cap ? *cap : 1;
  while (next < need) {
    if (next > UINT64_MAX / 2)
      return hpcdb_fail(HPCDB_ENOMEM, "array of %llu elements is too large", (unsigned long long)need);
    next *= 2;
  }
  uint64_t bytes, page = page_size();
  if (!mul_ok(next, size, &bytes) || bytes > SIZE_MAX - page)
    return hpcdb_fail(HPCDB_ENOMEM, "array of %llu elements is too large", (unsigned long long)need);
  next = (bytes + page - 1) / page * page / size; /* the rest of the last page too */
  size_t map_bytes = mapping_bytes(next, size);
  void *p = grow_mapping(*items, *items ? mapping_bytes(*cap, size) : 0, map_bytes);
  if (!p) return hpcdb_fail(HPCDB_ENOMEM, "out of memory growing an array to %llu elements", (unsigned long long)next);
  huge_pages_advise(p, map_bytes);
  *items = p;
  *cap = next;
  return 0;
}

void map_vec_free(void *items, uint64_t cap, size_t size) {
  if (items) munmap(items, mapping_bytes(cap, size));
}
