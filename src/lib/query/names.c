/* SPDX-License-Identifier: BSD-3-Clause */
/* Names of contexts and time units, as every view prints them (hpcdb report
 * takes them from here too). */
#include <stdio.h>
#include <string.h>

#include "query/names.h"

static const char *basename_of(const char *path) {
  const char *s = path ? strrchr(path, '/') : NULL;
  return s ? s + 1 : path ? path : "?";
}

/* hpcrun keeps the kernel's vDSO as "<md5 in hex>.vdso" beside the
 * measurements; the hash means nothing to a reader. */
static int is_vdso_copy(const char *base, size_t len) {
  static const char ext[] = ".vdso";
  size_t stem = len >= sizeof ext ? len - (sizeof ext - 1) : 0;
  if (stem < 8 || memcmp(base + stem, ext, sizeof ext - 1) != 0) return 0;
  for (size_t i = 0; i < stem; i++)
    if (!strchr("0123456789abcdef", base[i])) return 0;
  return 1;
}

const char *query_module_display(const char *path) {
  const char *base = basename_of(path);
  return is_vdso_copy(base, strlen(base)) ? "[vdso]" : base;
}

size_t query_function_display(const char *name, const char *suffix, char *buf, size_t size) {
  /* hpcstruct names a function without line information "f [module]" */
  size_t len = strlen(name);
  const char *module = len && name[len - 1] == ']' ? strrchr(name, '[') : NULL;
  if (module && module > name && module[-1] == ' ' && is_vdso_copy(module + 1, (size_t)(name + len - 1 - module) - 1))
    return (size_t)snprintf(buf, size, "%.*s[vdso]%s", (int)(module - name), name, suffix);
  return (size_t)snprintf(buf, size, "%s%s", name, suffix);
}

size_t query_context_name(const hpcdb_experiment *exp, uint32_t ctx, char *buf, size_t size) {
  const hpcdb_context *c = &exp->contexts[ctx];
  if (c->kind == HPCDB_CTX_GLOBAL) return (size_t)snprintf(buf, size, "<program root>");
  if (c->kind == HPCDB_CTX_ENTRY) return (size_t)snprintf(buf, size, "<%s>", c->name ? c->name : "entry");
  const char *file = c->file != HPCDB_NONE ? basename_of(exp->files[c->file].path) : NULL;
  const char *inlined = c->relation == HPCDB_REL_INLINED_CALL ? " [inlined]" : "";
  if (c->lexical_type == HPCDB_LEX_LOOP && c->line == 0 && c->module != HPCDB_NONE) /* no line: its address */
    return (size_t)snprintf(buf, size, "loop at %s+0x%llx", query_module_display(exp->modules[c->module].path),
                            (unsigned long long)c->offset);
  if (c->lexical_type == HPCDB_LEX_LOOP && c->line == 0) /* nor an address (hpcprof's): the file it is in */
    return (size_t)snprintf(buf, size, "loop in %s", file ? file : "?");
  if (c->lexical_type == HPCDB_LEX_LOOP)
    return (size_t)snprintf(buf, size, "loop at %s:%u", file ? file : "?", c->line);
  if (c->function != HPCDB_NONE && exp->functions[c->function].name)
    return query_function_display(exp->functions[c->function].name, inlined, buf, size);
  if (c->name) return query_function_display(c->name, inlined, buf, size);
  if (file) return (size_t)snprintf(buf, size, "%s:%u%s", file, c->line, inlined);
  if (c->module != HPCDB_NONE)
    return (size_t)snprintf(buf, size, "%s+0x%llx%s", query_module_display(exp->modules[c->module].path),
                            (unsigned long long)c->offset, inlined);
  return (size_t)snprintf(buf, size, "<unknown>%s", inlined);
}

size_t query_call_site(const hpcdb_experiment *exp, uint32_t ctx, char *buf, size_t size) {
  if (size) buf[0] = '\0';
  if (exp->contexts[ctx].relation == HPCDB_REL_LEXICAL) return 0;
  for (uint32_t a = exp->contexts[ctx].parent; a != HPCDB_NONE && exp->contexts[a].kind == HPCDB_CTX_NORMAL;
       a = exp->contexts[a].parent) {
    const hpcdb_context *c = &exp->contexts[a];
    if (c->lexical_type == HPCDB_LEX_LINE && c->line != 0 && c->file != HPCDB_NONE)
      return (size_t)snprintf(buf, size, " \xe2\x86\x90 %s:%u", basename_of(exp->files[c->file].path), c->line);
    if (c->relation != HPCDB_REL_LEXICAL) break; /* the calling function: no line of the call */
  }
  return 0;
}

size_t query_named_at_site(const hpcdb_experiment *exp, uint32_t ctx, int same_name, char *buf, size_t size) {
  size_t n = query_context_name(exp, ctx, buf, size);
  return same_name && n < size ? n + query_call_site(exp, ctx, buf + n, size - n) : n;
}

uint32_t query_frame(const hpcdb_experiment *exp, uint32_t ctx, int functions_only) {
  for (; ctx != 0 && exp->contexts[ctx].kind == HPCDB_CTX_NORMAL; ctx = exp->contexts[ctx].parent) {
    uint8_t r = exp->contexts[ctx].relation;
    if (r != HPCDB_REL_LEXICAL && !(functions_only && r == HPCDB_REL_INLINED_CALL)) break;
  }
  return ctx;
}

int query_frame_nested(const hpcdb_experiment *exp, uint32_t f, const char *name, int functions_only) {
  char other[512];
  for (uint32_t a = query_frame(exp, exp->contexts[f].parent, functions_only); a != 0;
       a = query_frame(exp, exp->contexts[a].parent, functions_only)) {
    query_context_name(exp, a, other, sizeof other);
    if (!strcmp(other, name)) return 1;
    if (exp->contexts[a].kind != HPCDB_CTX_NORMAL) break;
  }
  return 0;
}

const char *query_module_name(const hpcdb_experiment *exp, uint32_t f) {
  const hpcdb_context *c = &exp->contexts[f];
  uint32_t m = c->function != HPCDB_NONE ? exp->functions[c->function].module : c->module;
  return m == HPCDB_NONE ? "<unknown module>" : query_module_display(exp->modules[m].path);
}

double query_time_unit(const char *name, const char *unit) {
  static const struct {
    const char *unit;
    double seconds;
  } units[] = {{"sec", 1},     {"s", 1},     {"msec", 1e-3}, {"ms", 1e-3},
               {"usec", 1e-6}, {"us", 1e-6}, {"nsec", 1e-9}, {"ns", 1e-9}};
  for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
    char in_name[16];
    snprintf(in_name, sizeof in_name, "(%s)", units[i].unit);
    if ((name && strstr(name, in_name)) || (unit && !strcmp(unit, units[i].unit))) return units[i].seconds;
  }
  return 0;
}
