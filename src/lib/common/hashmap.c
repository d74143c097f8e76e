/* SPDX-License-Identifier: BSD-3-Clause */
#include "common/hashmap.h"

#include <stdlib.h>
#include <string.h>

uint64_t hash_u64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

uint64_t hash_bytes(const void *data, size_t len) { /* FNV-1a */
  const unsigned char *p = data;
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

static int u64map_grow(hpcdb_u64map *m) {
  uint64_t ncap = m->cap ? m->cap * 2 : 64;
  hpcdb_u64map n = {calloc(ncap, 8), calloc(ncap, 8), calloc(ncap, 1), ncap, 0};
  if (!n.keys || !n.vals || !n.used) {
    free(n.keys);
    free(n.vals);
    free(n.used);
    return -1;
  }
  for (uint64_t i = 0; i < m->cap; i++)
    if (m->used[i]) u64map_put(&n, m->keys[i], m->vals[i]);
  u64map_free(m);
  *m = n;
  return 0;
}

int u64map_put(hpcdb_u64map *m, uint64_t key, uint64_t val) {
  if ((m->count + 1) * 4 > m->cap * 3 && u64map_grow(m) != 0) return -1;
  uint64_t i = hash_u64(key) & (m->cap - 1);
  while (m->used[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
  if (!m->used[i]) {
    m->used[i] = 1;
    m->keys[i] = key;
    m->count++;
  }
  m->vals[i] = val;
  return 0;
}

int u64map_get(const hpcdb_u64map *m, uint64_t key, uint64_t *val) {
  if (m->cap == 0) return 0;
  uint64_t i = hash_u64(key) & (m->cap - 1);
  while (m->used[i]) {
    if (m->keys[i] == key) {
      *val = m->vals[i];
      return 1;
    }
    i = (i + 1) & (m->cap - 1);
  }
  return 0;
}

void u64map_free(hpcdb_u64map *m) {
  free(m->keys);
  free(m->vals);
  free(m->used);
  memset(m, 0, sizeof *m);
}

static int strpool_grow(hpcdb_strpool *p) {
  uint64_t ncap = p->cap ? p->cap * 2 : 256;
  const char **slots = calloc(ncap, sizeof *slots);
  if (!slots) return -1;
  for (uint64_t i = 0; i < p->cap; i++) {
    const char *s = p->slots[i];
    if (!s) continue;
    uint64_t j = hash_bytes(s, strlen(s)) & (ncap - 1);
    while (slots[j]) j = (j + 1) & (ncap - 1);
    slots[j] = s;
  }
  free(p->slots);
  p->slots = slots;
  p->cap = ncap;
  return 0;
}

const char *strpool_intern(hpcdb_strpool *p, const char *s, size_t len) {
  /* A C string ends at its first NUL: a length that counts NULs (hpcdb record's
   * load-module names) must not make the same string two copies, nor read past one. */
  len = strnlen(s, len);
  if ((p->count + 1) * 2 > p->cap && strpool_grow(p) != 0) return NULL;
  uint64_t i = hash_bytes(s, len) & (p->cap - 1);
  while (p->slots[i]) {
    const char *t = p->slots[i];
    if (strncmp(t, s, len) == 0 && t[len] == '\0') return t;
    i = (i + 1) & (p->cap - 1);
  }
  char *copy = arena_strndup(&p->arena, s, len);
  if (!copy) return NULL;
  p->slots[i] = copy;
  p->count++;
  return copy;
}

void strpool_free(hpcdb_strpool *p) {
  free(p->slots);
  arena_free(&p->arena);
  memset(p, 0, sizeof *p);
}
