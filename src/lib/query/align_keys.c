/* SPDX-License-Identifier: BSD-3-Clause */
/* The keys contexts are aligned by. Names and files are compared without
 * directories (builds on two machines put the same sources in different
 * places), functions without the suffixes compilers give their clones. */
#include "query/align_keys.h"

#include <stdio.h>
#include <string.h>

#include "common/hashmap.h"
#include "query/names.h"

const char *align_basename(const char *path) {
  const char *s = path ? strrchr(path, '/') : NULL;
  return s ? s + 1 : path ? path : "";
}

size_t align_function_name(const char *name, char *buf, size_t size) {
  if (!strncmp(name, "PMPI_", 5)) name++; /* the MPI profiling interface's name of MPI_X */
  static const char *const clones[] = {".constprop.", ".isra.", ".part.", ".cold", ".lto_priv.", ".localalias"};
  size_t len = strlen(name);
  /* hpcprof names a function of a binary without structure "f [libx.so.1]": the module is no part of f */
  const char *module = strstr(name, " [");
  if (module && len && name[len - 1] == ']' && module != name) len = (size_t)(module - name);
  for (size_t k = 0; k < sizeof clones / sizeof *clones; k++) {
    const char *at = strstr(name, clones[k]);
    if (at && at != name && (size_t)(at - name) < len) len = (size_t)(at - name);
  }
  return (size_t)snprintf(buf, size, "%.*s", (int)len, name);
}

static uint64_t hash_text(uint64_t seed, const char *s) { return hash_u64(seed ^ hash_bytes(s, strlen(s))); }

/* A frame's name: its function's, else the context's own label (Cube regions
 * without a function record); NULL when it has none. */
static const char *frame_name(const hpcdb_experiment *exp, const hpcdb_context *c) {
  if (c->function != HPCDB_NONE && exp->functions[c->function].name) return exp->functions[c->function].name;
  return c->kind == HPCDB_CTX_NORMAL ? c->name : NULL;
}

static void offset_key(const hpcdb_experiment *exp, const hpcdb_context *c, align_key *k) {
  uint32_t module = c->module;
  uint64_t offset = c->offset;
  if (k->cls == AC_FRAME && c->function != HPCDB_NONE && exp->functions[c->function].module != HPCDB_NONE) {
    module = exp->functions[c->function].module;
    offset = exp->functions[c->function].offset;
  }
  if (module == HPCDB_NONE) return;
  k->offset = hash_u64(hash_text(0x4f00u + k->cls, align_basename(exp->modules[module].path)) ^ hash_u64(offset));
}

void align_key_of(const hpcdb_experiment *exp, uint32_t ctx, align_key *k) {
  const hpcdb_context *c = &exp->contexts[ctx];
  memset(k, 0, sizeof *k);
  if (c->kind == HPCDB_CTX_GLOBAL) {
    k->cls = AC_ROOT;
    k->kind = HPCDB_MATCH_ROOT;
    k->primary = 1;
    return;
  }
  if (c->kind == HPCDB_CTX_ENTRY) {
    k->cls = AC_ENTRY;
    k->kind = HPCDB_MATCH_ENTRY;
    k->primary = hash_text(0xe000u + c->entry_point, c->name ? c->name : "");
    return;
  }
  char name[512];
  const char *fn = frame_name(exp, c);
  if (c->relation == HPCDB_REL_CALL || c->relation == HPCDB_REL_INLINED_CALL ||
      (c->lexical_type == HPCDB_LEX_FUNCTION && fn)) {
    k->cls = AC_FRAME;
    if (fn) {
      align_function_name(fn, name, sizeof name);
      k->kind = HPCDB_MATCH_NAME;
      k->primary = hash_text(0xf000u, name);
    }
  } else if (c->lexical_type == HPCDB_LEX_LOOP || c->lexical_type == HPCDB_LEX_LINE) {
    k->cls = c->lexical_type == HPCDB_LEX_LOOP ? AC_LOOP : AC_LINE;
    if (c->file != HPCDB_NONE) {
      k->kind = HPCDB_MATCH_LINE;
      k->file = hash_text(0x1000u + k->cls, align_basename(exp->files[c->file].path));
      k->line = c->line;
      k->primary = hash_u64(k->file ^ hash_u64(c->line));
    }
  } else {
    k->cls = c->lexical_type == HPCDB_LEX_INSTRUCTION ? AC_INSTR : AC_OTHER;
  }
  offset_key(exp, c, k);
  if (!k->primary && k->offset) {
    k->kind = HPCDB_MATCH_OFFSET;
    k->primary = k->offset;
  }
  if (!k->primary) { /* nothing to tell it by: one per class in its frame */
    k->kind = HPCDB_MATCH_OFFSET;
    k->primary = hash_u64(0xa0a0u + k->cls);
  }
}

size_t align_display_name(const hpcdb_experiment *exp, uint32_t ctx, char *buf, size_t size) {
  const hpcdb_context *c = &exp->contexts[ctx];
  if (c->kind == HPCDB_CTX_GLOBAL) return (size_t)snprintf(buf, size, "<program root>");
  if (c->kind == HPCDB_CTX_ENTRY) return (size_t)snprintf(buf, size, "<%s>", c->name ? c->name : "entry");
  const char *file = c->file != HPCDB_NONE ? align_basename(exp->files[c->file].path) : NULL;
  const char *fn = frame_name(exp, c);
  const char *inlined = c->relation == HPCDB_REL_INLINED_CALL ? " [inlined]" : "";
  if (c->lexical_type == HPCDB_LEX_LOOP)
    return (size_t)snprintf(buf, size, "loop at %s:%u", file ? file : "?", c->line);
  if (fn && (c->relation != HPCDB_REL_LEXICAL || c->lexical_type == HPCDB_LEX_FUNCTION))
    return query_function_display(fn, inlined, buf, size);
  if (file) return (size_t)snprintf(buf, size, "%s:%u%s", file, c->line, inlined);
  if (c->module != HPCDB_NONE)
    return (size_t)snprintf(buf, size, "%s+0x%llx%s", query_module_display(exp->modules[c->module].path),
                            (unsigned long long)c->offset, inlined);
  if (fn) return query_function_display(fn, inlined, buf, size);
  return (size_t)snprintf(buf, size, "<unknown>%s", inlined);
}
