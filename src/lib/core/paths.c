#include "core/paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

static const char *relation_name(uint8_t r) {
  static const char *const names[] = {"lexical", "call", "inlined call"};
  return r < 3 ? names[r] : "relation?";
}

static const char *lexical_name(uint8_t t) {
  static const char *const names[] = {"function", "loop", "line", "instruction"};
  return t < 4 ? names[t] : "lexical?";
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
    if (depth < 64) chain[depth++] = i; else skipped++;
  }
  size_t n = 0;
  buf[0] = '\0';
  if (skipped) n += (size_t)snprintf(buf, size, "... > ");
  while (depth-- > 0 && n < size) {
    n += context_label(exp, &exp->contexts[chain[depth]], buf + n, size - n);
    if (depth && n < size) n += (size_t)snprintf(buf + n, size - n, " > ");
  }
}

int path_index_build(path_index *pi, const hpcdb_experiment *exp) {
  memset(pi, 0, sizeof *pi);
  pi->key = malloc(((size_t)exp->n_contexts + 1) * sizeof *pi->key);
  if (!pi->key) return hpcdb_fail(HPCDB_ENOMEM, "out of memory indexing calling paths");
  char label[2048];
  pi->key[0] = 0x9e3779b97f4a7c15ULL;
  /* Parents come before children in the context array (builders append).
   * Siblings with the same label (real files have them) are told apart by
   * their order among themselves, which readers and writers keep. */
  hpcdb_u64map occurrences = {0};
  for (uint32_t i = 1; i < exp->n_contexts; i++) {
    size_t n = context_label(exp, &exp->contexts[i], label, sizeof label);
    if (n >= sizeof label) n = sizeof label - 1;
    uint64_t base = hash_u64(pi->key[exp->contexts[i].parent] ^ hash_bytes(label, n)), seen = 0;
    u64map_get(&occurrences, base, &seen);
    if (u64map_put(&occurrences, base, seen + 1) != 0) {
      u64map_free(&occurrences);
      free(pi->key);
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory indexing calling paths");
    }
    pi->key[i] = seen ? hash_u64(base + seen) : base;
  }
  u64map_free(&occurrences);
  for (uint32_t i = 0; i < exp->n_contexts; i++) {
    uint64_t prev;
    if (u64map_get(&pi->by_key, pi->key[i], &prev)) {
      pi->duplicates++;
      continue;
    }
    if (u64map_put(&pi->by_key, pi->key[i], i) != 0) {
      path_index_free(pi);
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory indexing calling paths");
    }
  }
  return 0;
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
