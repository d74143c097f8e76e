/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "model/names.h"

static const char *relation_name(uint8_t r) {
  const char *name = model_relation_name(r);
  return name ? name : "relation?";
}

static const char *lexical_name(uint8_t t) {
  const char *name = model_lexical_name(t);
  return name ? name : "lexical?";
}

size_t context_label(const hpcdb_experiment *exp, const hpcdb_context *c, char *buf, size_t size) {
  if (c->kind == HPCDB_CTX_GLOBAL) return (size_t)snprintf(buf, size, "<global>");
  if (c->kind == HPCDB_CTX_ENTRY)
    return (size_t)snprintf(buf, size, "entry %u \"%s\"", c->entry_point, c->name ? c->name : "");
  size_t n = 0;
#define PUT(...) n += (size_t)snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, __VA_ARGS__)
  PUT("%s %s", relation_name(c->relation), lexical_name(c->lexical_type));
  if (c->function != HPCDB_NONE) {
    const hpcdb_function *f = &exp->functions[c->function];
    PUT(" %s", f->name ? f->name : "<unnamed>");
    if (f->module != HPCDB_NONE) PUT(" in %s+0x%llx", exp->modules[f->module].path, (unsigned long long)f->offset);
    if (f->file != HPCDB_NONE) PUT(" def %s:%u", exp->files[f->file].path, f->line);
  }
  if (c->file != HPCDB_NONE) PUT(" at %s:%u", exp->files[c->file].path, c->line);
  if (c->module != HPCDB_NONE) PUT(" [%s+0x%llx]", exp->modules[c->module].path, (unsigned long long)c->offset);
  if (c->name && c->kind == HPCDB_CTX_NORMAL) PUT(" \"%s\"", c->name);
#undef PUT
  return n;
}

void context_path(const hpcdb_experiment *exp, uint32_t index, char *buf, size_t size) {
  if (index == 0) {
    snprintf(buf, size, "<global>");
    return;
  }
  uint32_t chain[64];
  unsigned depth = 0, skipped = 0;
  for (uint32_t i = index; i != HPCDB_NONE && i != 0; i = exp->contexts[i].parent) {
    if (depth < 64) chain[depth++] = i;
    else skipped++;
  }
  size_t n = 0;
  buf[0] = '\0';
  if (skipped) n += (size_t)snprintf(buf, size, "... > ");
  while (depth-- > 0 && n < size) {
    n += context_label(exp, &exp->contexts[chain[depth]], buf + n, size - n);
    if (depth && n < size) n += (size_t)snprintf(buf + n, size - n, " > ");
  }
}

/* Siblings with the same label are told apart by what they hold, not by
 * their order alone: hpcprof writes children in hash order, and some labels
 * repeat (hpcrun's GPUKernl and GPUTrace placeholders are both a function
 * <gpu kernel> under the launch site, one holding the kernel's values, the
 * other the stream's trace samples). Such twins are ranked by the labels of
 * their subtrees (an order-independent hash), then by how many non-zero
 * values their subtrees hold over all profiles, then by their order. */
typedef struct twin {
  uint64_t group, shape, values;
  uint32_t index;
} twin;

static int cmp_twin(const void *a, const void *b) {
  const twin *x = a, *y = b;
  if (x->group != y->group) return x->group < y->group ? -1 : 1;
  if (x->shape != y->shape) return x->shape < y->shape ? -1 : 1;
  if (x->values != y->values) return x->values < y->values ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* rank[i]: the place of context i among its twins (0 for the first, and for
 * every context without twins); group[i] identifies (parent, label). */
static int rank_twins(const hpcdb_experiment *exp, const uint64_t *label, const uint64_t *group,
                      const hpcdb_u64map *occurrences, uint32_t *rank) {
  uint32_t n = exp->n_contexts;
  uint64_t *shape = malloc((size_t)n * sizeof *shape), *values = calloc(n, sizeof *values);
  twin *tw = malloc((size_t)n * sizeof *tw);
  if (!shape || !values || !tw) {
    free(shape);
    free(values);
    free(tw);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory indexing calling paths");
  }
  for (uint32_t i = 0; i < n; i++) shape[i] = label[i];
  for (uint32_t p = 0; p < exp->n_profiles; p++) {
    const hpcdb_profile *pr = &exp->profiles[p];
    for (uint32_t k = 0; k < pr->n_ctxs && pr->ctx_starts && pr->values; k++) {
      uint32_t i = hpcdb_find_context(exp, pr->ctx_ids[k]);
      if (i == HPCDB_NONE) continue;
      for (uint64_t v = pr->ctx_starts[k]; v < pr->ctx_starts[k + 1] && v < pr->n_values; v++)
        values[i] += pr->values[v] != 0;
    }
  }
  for (uint32_t i = n; i-- > 1;) { /* children come after their parents */
    uint32_t parent = exp->contexts[i].parent;
    shape[parent] += hash_u64(shape[i]);
    values[parent] += values[i];
  }
  uint32_t m = 0;
  for (uint32_t i = 1; i < n; i++) {
    uint64_t count = 0;
    rank[i] = 0;
    if (u64map_get(occurrences, group[i], &count) && count > 1) tw[m++] = (twin){group[i], shape[i], values[i], i};
  }
  qsort(tw, m, sizeof *tw, cmp_twin);
  for (uint32_t k = 1; k < m; k++)
    if (tw[k].group == tw[k - 1].group) rank[tw[k].index] = rank[tw[k - 1].index] + 1;
  free(shape);
  free(values);
  free(tw);
  return 0;
}

int path_index_build(path_index *pi, const hpcdb_experiment *exp) {
  memset(pi, 0, sizeof *pi);
  uint32_t n = exp->n_contexts;
  pi->key = malloc(((size_t)n + 1) * sizeof *pi->key);
  uint64_t *label = malloc(((size_t)n + 1) * sizeof *label), *group = malloc(((size_t)n + 1) * sizeof *group);
  uint32_t *rank = NULL;
  hpcdb_u64map occurrences = {0};
  int rc = 0, twins = 0;
  if (!pi->key || !label || !group) {
    rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory indexing calling paths");
    goto done;
  }
  char text[2048];
  pi->key[0] = label[0] = group[0] = 0x9e3779b97f4a7c15ULL;
  /* Parents come before children in the context array (builders append). */
  for (uint32_t i = 1; i < n; i++) {
    size_t len = context_label(exp, &exp->contexts[i], text, sizeof text);
    if (len >= sizeof text) len = sizeof text - 1;
    label[i] = hash_bytes(text, len);
    pi->key[i] = hash_u64(pi->key[exp->contexts[i].parent] ^ label[i]);
    group[i] = hash_u64(label[i] ^ hash_u64((uint64_t)exp->contexts[i].parent + 1)); /* (parent, label) */
    uint64_t seen = 0;
    u64map_get(&occurrences, group[i], &seen);
    twins |= seen > 0;
    if (u64map_put(&occurrences, group[i], seen + 1) != 0) {
      rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory indexing calling paths");
      goto done;
    }
  }
  if (twins) {
    if (!(rank = malloc(((size_t)n + 1) * sizeof *rank))) {
      rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory indexing calling paths");
      goto done;
    }
    if ((rc = rank_twins(exp, label, group, &occurrences, rank)) < 0) goto done;
    for (uint32_t i = 1; i < n; i++) {
      uint64_t base = hash_u64(pi->key[exp->contexts[i].parent] ^ label[i]);
      pi->key[i] = rank[i] ? hash_u64(base + rank[i]) : base;
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    uint64_t prev;
    if (u64map_get(&pi->by_key, pi->key[i], &prev)) {
      pi->duplicates++;
      continue;
    }
    if (u64map_put(&pi->by_key, pi->key[i], i) != 0) {
      rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory indexing calling paths");
      goto done;
    }
  }
done:
  u64map_free(&occurrences);
  free(label);
  free(group);
  free(rank);
  if (rc < 0) path_index_free(pi);
  return rc;
}

void path_index_free(path_index *pi) {
  free(pi->key);
  u64map_free(&pi->by_key);
  memset(pi, 0, sizeof *pi);
}

int profile_identities(const hpcdb_experiment *exp, char ***out) {
  char **ids = calloc((size_t)exp->n_profiles + 1, sizeof *ids);
  hpcdb_u64map seen = {0};
  if (!ids) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  char buf[600];
  for (uint32_t p = 0; p < exp->n_profiles; p++) {
    size_t n = hpcdb_profile_identity(exp, &exp->profiles[p], buf, 512);
    if (n >= 512) n = 511;
    uint64_t h = hash_bytes(buf, n) ^ (exp->profiles[p].flags & HPCDB_PROFILE_SUMMARY), count = 0;
    u64map_get(&seen, h, &count);
    if (u64map_put(&seen, h, count + 1) != 0) break;
    if (count) snprintf(buf + n, sizeof buf - n, " (%llu)", (unsigned long long)count + 1);
    size_t len = strlen(buf) + 1;
    if (!(ids[p] = malloc(len))) break;
    memcpy(ids[p], buf, len);
  }
  u64map_free(&seen);
  for (uint32_t p = 0; p < exp->n_profiles; p++)
    if (!ids[p]) {
      identities_free(ids, exp->n_profiles);
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    }
  *out = ids;
  return 0;
}

void identities_free(char **ids, uint32_t n) {
  for (uint32_t i = 0; ids && i < n; i++) free(ids[i]);
  free(ids);
}
