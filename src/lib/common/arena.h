/* SPDX-License-Identifier: BSD-3-Clause */
/* A bump allocator: many small allocations freed together. */
#ifndef HPCDB_COMMON_ARENA_H
#define HPCDB_COMMON_ARENA_H

#include <stddef.h>

typedef struct hpcdb_arena_block hpcdb_arena_block;
typedef struct hpcdb_arena {
  hpcdb_arena_block *head;
} hpcdb_arena;

/* size bytes aligned to 8, or NULL when out of memory. */
void *arena_alloc(hpcdb_arena *a, size_t size);
char *arena_strndup(hpcdb_arena *a, const char *s, size_t len);
void arena_free(hpcdb_arena *a);
/* from's memory handed to `to` (freed with it); from is left empty. */
void arena_adopt(hpcdb_arena *to, hpcdb_arena *from);

#endif
