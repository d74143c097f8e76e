/* SPDX-License-Identifier: BSD-3-Clause */
/* Growable arenas of fixed-size records in mmap'ed chunks: chunk k holds
 * first << k records, so an index finds its chunk with one bit scan, records
 * never move, and memory grows with the records used (never with samples).
 * Growing maps a new chunk, which is async-signal-safe. */
#include <string.h>
#include <sys/mman.h>

#include "record.h"

int rec_arena_init(rec_arena *a, size_t rec_size, uint32_t first) {
  memset(a, 0, sizeof *a);
  a->rec_size = rec_size;
  a->first = first; /* a power of two */
  return rec_arena_alloc(a) == UINT32_MAX ? -1 : (a->count = 0, 0);
}

static void locate(const rec_arena *a, uint32_t i, unsigned *k, uint64_t *slot) {
  uint64_t q = (uint64_t)i / a->first + 1; /* chunk k covers q in [2^k, 2^(k+1)) */
  *k = 63u - (unsigned)__builtin_clzll(q);
  *slot = (uint64_t)i - (uint64_t)a->first * ((1ull << *k) - 1);
}

void *rec_arena_at(const rec_arena *a, uint32_t i) {
  unsigned k;
  uint64_t slot;
  locate(a, i, &k, &slot);
  return (char *)a->chunks[k] + slot * a->rec_size;
}

uint32_t rec_arena_alloc(rec_arena *a) {
  uint32_t i = a->count;
  unsigned k;
  uint64_t slot;
  locate(a, i, &k, &slot);
  if (k >= REC_ARENA_CHUNKS) return UINT32_MAX;
  if (!a->chunks[k]) {
    size_t bytes = ((size_t)a->first << k) * a->rec_size;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return UINT32_MAX;
    a->chunks[k] = p;
    a->mapped_bytes += bytes;
  }
  return i;
}

void rec_arena_free(rec_arena *a) {
  for (unsigned k = 0; k < REC_ARENA_CHUNKS; k++)
    if (a->chunks[k]) munmap(a->chunks[k], ((size_t)a->first << k) * a->rec_size);
  memset(a, 0, sizeof *a);
}
