/* Names as a person reads them, and numbers with units. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/dtoa.h"
#include "common/fixed_decimal.h"
#include "report/report_data.h"

static const char *basename_of(const char *path) {
  const char *s = path ? strrchr(path, '/') : NULL;
  return s ? s + 1 : path ? path : "?";
}

size_t report_name(const hpcdb_experiment *exp, uint32_t ctx, char *buf, size_t size) {
  const hpcdb_context *c = &exp->contexts[ctx];
  if (c->kind == HPCDB_CTX_GLOBAL) return (size_t)snprintf(buf, size, "<program root>");
  if (c->kind == HPCDB_CTX_ENTRY) return (size_t)snprintf(buf, size, "<%s>", c->name ? c->name : "entry");
  const char *file = c->file != HPCDB_NONE ? basename_of(exp->files[c->file].path) : NULL;
  const char *inlined = c->relation == HPCDB_REL_INLINED_CALL ? " [inlined]" : "";
  if (c->lexical_type == HPCDB_LEX_LOOP)
    return (size_t)snprintf(buf, size, "loop at %s:%u", file ? file : "?", c->line);
  if (c->function != HPCDB_NONE && exp->functions[c->function].name)
    return (size_t)snprintf(buf, size, "%s%s", exp->functions[c->function].name, inlined);
  if (c->name) return (size_t)snprintf(buf, size, "%s%s", c->name, inlined);
  if (file) return (size_t)snprintf(buf, size, "%s:%u%s", file, c->line, inlined);
  if (c->module != HPCDB_NONE)
    return (size_t)snprintf(buf, size, "%s+0x%llx%s", basename_of(exp->modules[c->module].path),
                            (unsigned long long)c->offset, inlined);
  return (size_t)snprintf(buf, size, "<unknown>%s", inlined);
}

uint32_t report_frame(const hpcdb_experiment *exp, uint32_t ctx, int functions_only) {
  for (; ctx != 0 && exp->contexts[ctx].kind == HPCDB_CTX_NORMAL; ctx = exp->contexts[ctx].parent) {
    uint8_t r = exp->contexts[ctx].relation;
    if (r != HPCDB_REL_LEXICAL && !(functions_only && r == HPCDB_REL_INLINED_CALL)) break;
  }
  return ctx;
}

double report_time_unit(const char *name, const char *unit) {
  static const struct { const char *unit; double seconds; } units[] = {
      {"sec", 1}, {"s", 1}, {"msec", 1e-3}, {"ms", 1e-3}, {"usec", 1e-6}, {"us", 1e-6}, {"nsec", 1e-9}, {"ns", 1e-9}};
  for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
    char in_name[16];
    snprintf(in_name, sizeof in_name, "(%s)", units[i].unit);
    if (strstr(name, in_name) || (unit && !strcmp(unit, units[i].unit))) return units[i].seconds;
  }
  return 0;
}

void report_value(char *buf, size_t size, double v, double seconds) {
  if (seconds) v *= seconds;
  double a = fabs(v);
  if (v == 0) {
    snprintf(buf, size, "0");
  } else if (seconds) {
    if (a >= 100) snprintf(buf, size, "%.1f s", v);
    else if (a >= 1) snprintf(buf, size, "%.3f s", v);
    else if (a >= 1e-3) snprintf(buf, size, "%.3f ms", v * 1e3);
    else snprintf(buf, size, "%.3f us", v * 1e6);
  } else {
    static const char *const suffix[] = {"", "k", "M", "G", "T", "P"};
    int k = 0;
    while (a >= 1000 && k < 5) {
      a /= 1000;
      v /= 1000;
      k++;
    }
    if (k == 0 && v == floor(v)) { /* |v| < 1000: its integer digits, as "%.0f" */
      buf[fmt_i64(buf, (int64_t)v)] = '\0';
    } else {
      int n = fmt_g3(buf, size, v);
      snprintf(buf + n, size - (size_t)n, "%s", suffix[k]);
    }
  }
}
