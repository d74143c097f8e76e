/* SPDX-License-Identifier: BSD-3-Clause */
#include "common/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct hpcdb_arena_block {
  hpcdb_arena_block *next;
  size_t used, size;
  _Alignas(8) unsigned char data[];
};

#define ARENA_BLOCK 65536

void *arena_alloc(hpcdb_arena *a, size_t size) {
  size = (size + 7) & ~(size_t)7;
  hpcdb_arena_block *b = a->head;
  if (!b || b->size - b->used < size) {
    size_t cap = size > ARENA_BLOCK ? size : ARENA_BLOCK;
    if (cap > SIZE_MAX - sizeof *b) return NULL;
    b = malloc(sizeof *b + cap);
    if (!b) return NULL;
    b->size = cap;
    b->used = 0;
    b->next = a->head;
    a->head = b;
  }
  void *p = b->data + b->used;
  b->used += size;
  return p;
}

char *arena_strndup(hpcdb_arena *a, const char *s, size_t len) {
  if (len == SIZE_MAX) return NULL;
  char *p = arena_alloc(a, len + 1);
  if (!p) return NULL;
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

void arena_free(hpcdb_arena *a) {
  hpcdb_arena_block *b = a->head;
  while (b) {
    hpcdb_arena_block *next = b->next;
    free(b);
    b = next;
  }
  a->head = NULL;
}

void arena_adopt(hpcdb_arena *to, hpcdb_arena *from) {
  if (!from->head) return;
  hpcdb_arena_block *last = from->head;
  while (last->next) last = last->next;
  last->next = to->head;
  to->head = from->head;
  from->head = NULL;
}
