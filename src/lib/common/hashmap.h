/* SPDX-License-Identifier: BSD-3-Clause */
/* Open-addressing hash map from 64-bit keys to 64-bit values, and string
 * interning on top of it. */
#ifndef HPCDB_COMMON_HASHMAP_H
#define HPCDB_COMMON_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"

typedef struct hpcdb_u64map {
  uint64_t *keys;
  uint64_t *vals;
  uint8_t *used;
  uint64_t cap, count;
} hpcdb_u64map;

int u64map_put(hpcdb_u64map *m, uint64_t key, uint64_t val);
/* 1 and *val when found, 0 otherwise. */
int u64map_get(const hpcdb_u64map *m, uint64_t key, uint64_t *val);
void u64map_free(hpcdb_u64map *m);

uint64_t hash_bytes(const void *data, size_t len);
uint64_t hash_u64(uint64_t x);

/* Interned strings: equal contents share one arena copy. */
typedef struct hpcdb_strpool {
  hpcdb_arena arena;
  const char **slots;
  uint64_t cap, count;
} hpcdb_strpool;

const char *strpool_intern(hpcdb_strpool *p, const char *s, size_t len);
void strpool_free(hpcdb_strpool *p);

#endif
