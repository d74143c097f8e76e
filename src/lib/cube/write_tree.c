/* SPDX-License-Identifier: BSD-3-Clause */
/* The model's context tree as Cube cnodes and regions. Cube has only calls
 * of regions, so contexts without a function (entry points, loops, lines,
 * instructions) call synthetic regions named after what they are; the
 * HPCToolkit details go into cnode parameters (cube/write_anchor.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/vec.h"
#include "cube/cube_write.h"

/* The name of the synthetic region of a context without a function. */
static void synthetic_name(const hpcdb_experiment *exp, const hpcdb_context *c, char *buf, size_t size,
                           const char **role) {
  const char *file = c->file != HPCDB_NONE ? exp->files[c->file].path : NULL;
  const char *module = c->module != HPCDB_NONE ? exp->modules[c->module].path : NULL;
  *role = "code";
  if (c->kind == HPCDB_CTX_ENTRY) {
    *role = "artificial";
    snprintf(buf, size, "%s", c->name ? c->name : "<entry>");
  } else if (c->lexical_type == HPCDB_LEX_LOOP) {
    *role = "loop";
    snprintf(buf, size, "loop at %s:%u", file ? file : "?", c->line);
  } else if (file) {
    snprintf(buf, size, "%s:%u", file, c->line);
  } else if (module) {
    snprintf(buf, size, "%s+0x%llx", module, (unsigned long long)c->offset);
  } else {
    snprintf(buf, size, "%s", c->name ? c->name : "<unknown>");
  }
}

/* Region id of a context: its function's index, or a synthetic region
 * shared by every context with the same name, role and location. */
static int region_of(cube_tree *t, const hpcdb_experiment *exp, const hpcdb_context *c, hpcdb_u64map *seen,
                     uint64_t *cap, uint32_t *out) {
  if (c->function != HPCDB_NONE && c->kind != HPCDB_CTX_ENTRY) {
    *out = c->function;
    return 0;
  }
  char name[1024];
  const char *role;
  synthetic_name(exp, c, name, sizeof name, &role);
  const char *s = strpool_intern(&t->names, name, strlen(name));
  if (!s) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  uint32_t file = c->kind == HPCDB_CTX_ENTRY ? HPCDB_NONE : c->file;
  /* interned names are unique pointers; the role is a function of the name's context kind */
  uint64_t key = hash_u64((uint64_t)(uintptr_t)s ^ hash_u64(((uint64_t)file << 32) | c->line) ^ (uintptr_t)role);
  uint64_t at;
  if (u64map_get(seen, key, &at)) {
    const cube_synthetic_region *r = &t->synthetic[at];
    if (r->name == s && r->role == role && r->file == file) {
      *out = exp->n_functions + (uint32_t)at;
      return 0;
    }
  }
  if (VEC_RESERVE(&t->synthetic, cap, (uint64_t)t->n_synthetic + 1) < 0 || u64map_put(seen, key, t->n_synthetic) < 0)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  t->synthetic[t->n_synthetic] = (cube_synthetic_region){s, role, file, file != HPCDB_NONE ? c->line : 0};
  *out = exp->n_functions + t->n_synthetic++;
  return 0;
}

/* Pushes c's children so that the first one is on top. */
static void push_children(const hpcdb_experiment *exp, uint32_t c, uint32_t *stack, size_t *top) {
  size_t from = *top;
  for (uint32_t k = exp->contexts[c].first_child; k != HPCDB_NONE; k = exp->contexts[k].next_sibling)
    stack[(*top)++] = k;
  for (size_t i = from, j = *top; i + 1 < j; i++, j--) {
    uint32_t x = stack[i];
    stack[i] = stack[j - 1];
    stack[j - 1] = x;
  }
}

/* Cnodes in pre-order from the global context's children down. */
static int number_cnodes(cube_tree *t, const hpcdb_experiment *exp) {
  uint32_t *stack = malloc(((size_t)exp->n_contexts + 1) * sizeof *stack);
  if (!stack) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  size_t top = 0;
  push_children(exp, 0, stack, &top);
  while (top > 0) {
    uint32_t c = stack[--top];
    uint32_t p = exp->contexts[c].parent;
    t->ctx[t->n] = c;
    t->parent[t->n] = p == 0 ? UINT32_MAX : t->cnode_of_ctx[p];
    t->cnode_of_ctx[c] = t->n++;
    push_children(exp, c, stack, &top);
  }
  free(stack);
  return 0;
}

static int children_lists(cube_tree *t) {
  for (uint32_t c = 0; c < t->n; c++)
    if (t->parent[c] != UINT32_MAX) t->kids_at[t->parent[c] + 1]++;
  for (uint32_t c = 0; c < t->n; c++) t->kids_at[c + 1] += t->kids_at[c];
  uint32_t *fill = malloc(((size_t)t->n + 1) * sizeof *fill);
  if (!fill) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  memcpy(fill, t->kids_at, ((size_t)t->n + 1) * sizeof *fill);
  for (uint32_t c = 0; c < t->n; c++) /* pre-order keeps siblings in order */
    if (t->parent[c] != UINT32_MAX) t->kids[fill[t->parent[c]]++] = c;
  free(fill);
  return 0;
}

/* A direct table from native context id to cnode, when the ids are dense
 * enough for it to stay small (values are looked up by id once per location
 * and metric; a hash lookup each time dominated writing). */
static int index_ids(cube_tree *t, const hpcdb_experiment *exp) {
  uint32_t max_id = 0;
  for (uint32_t c = 0; c < exp->n_contexts; c++)
    if (exp->contexts[c].id > max_id) max_id = exp->contexts[c].id;
  if ((uint64_t)max_id > 4 * (uint64_t)exp->n_contexts + 4096) return 0; /* sparse: hash lookups */
  t->n_ids = max_id + 1;
  t->cnode_of_id = malloc((size_t)t->n_ids * sizeof *t->cnode_of_id);
  if (!t->cnode_of_id) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u context ids", t->n_ids);
  for (uint32_t i = 0; i < t->n_ids; i++) t->cnode_of_id[i] = UINT32_MAX;
  for (uint32_t c = 0; c < exp->n_contexts; c++) t->cnode_of_id[exp->contexts[c].id] = t->cnode_of_ctx[c];
  return 0;
}

int cube_tree_build(cube_tree *t, const hpcdb_experiment *exp) {
  memset(t, 0, sizeof *t);
  size_t n = exp->n_contexts;
  t->ctx = malloc(n * sizeof *t->ctx);
  t->parent = malloc(n * sizeof *t->parent);
  t->kids_at = calloc(n + 1, sizeof *t->kids_at);
  t->kids = malloc(n * sizeof *t->kids);
  t->region = malloc(n * sizeof *t->region);
  t->cnode_of_ctx = malloc(n * sizeof *t->cnode_of_ctx);
  t->locations = malloc(((size_t)exp->n_profiles + 1) * sizeof *t->locations);
  if (!t->ctx || !t->parent || !t->kids_at || !t->kids || !t->region || !t->cnode_of_ctx || !t->locations)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %zu contexts", n);
  for (size_t i = 0; i < n; i++) t->cnode_of_ctx[i] = UINT32_MAX;
  HPCDB_TRY(number_cnodes(t, exp));
  HPCDB_TRY(children_lists(t));
  HPCDB_TRY(index_ids(t, exp));
  hpcdb_u64map seen = {0};
  uint64_t cap = 0;
  int rc = 0;
  for (uint32_t c = 0; c < t->n && rc == 0; c++)
    rc = region_of(t, exp, &exp->contexts[t->ctx[c]], &seen, &cap, &t->region[c]);
  u64map_free(&seen);
  for (uint32_t p = 0; p < exp->n_profiles; p++)
    if (!(exp->profiles[p].flags & HPCDB_PROFILE_SUMMARY)) t->locations[t->n_locations++] = p;
  return rc;
}

void cube_tree_free(cube_tree *t) {
  free(t->ctx);
  free(t->parent);
  free(t->kids_at);
  free(t->kids);
  free(t->region);
  free(t->cnode_of_ctx);
  free(t->cnode_of_id);
  free(t->synthetic);
  free(t->locations);
  strpool_free(&t->names);
  memset(t, 0, sizeof *t);
}
