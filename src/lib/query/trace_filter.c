/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace view's filters: rows by their profile's identity, contexts by
 * name. */
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/error.h"
#include "query/trace_internal.h"

typedef struct term {
  char kind[32];
  int ranged;
  uint64_t lo, hi;
} term;

/* "KIND", "KIND=N" or "KIND=N-M" at *s; advances past it. */
static int parse_term(const char **s, term *out) {
  const char *p = *s;
  size_t n = 0;
  memset(out, 0, sizeof *out);
  while (*p && *p != '=' && !isspace((unsigned char)*p)) {
    if (n + 1 >= sizeof out->kind) return -1;
    out->kind[n++] = *p++;
  }
  if (*p == '=') {
    char *end;
    p++;
    if (!isdigit((unsigned char)*p)) return -1;
    out->ranged = 1;
    out->lo = out->hi = strtoull(p, &end, 10);
    p = end;
    if (*p == '-') {
      if (!isdigit((unsigned char)p[1])) return -1;
      out->hi = strtoull(p + 1, &end, 10);
      p = end;
    }
    if (out->hi < out->lo || (*p && !isspace((unsigned char)*p))) return -1;
  }
  *s = p;
  return n ? 0 : -1;
}

static int matches(const hpcdb_experiment *e, const hpcdb_profile *p, const term *terms, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    int hit = 0;
    for (uint16_t k = 0; k < p->n_ids && !hit; k++) {
      const hpcdb_id *id = &p->ids[k];
      const char *name = id->kind < e->n_kind_names ? e->kind_names[id->kind] : NULL;
      hit = name && !strcasecmp(name, terms[i].kind) &&
            (!terms[i].ranged || (id->logical_id >= terms[i].lo && id->logical_id <= terms[i].hi));
    }
    if (!hit) return 0;
  }
  return 1;
}

int hpcdb_trace_rows_matching(const hpcdb_trace_set *t, const hpcdb_experiment *exp, const char *pattern,
                              uint32_t **rows, uint32_t *n_rows) {
  *rows = NULL;
  *n_rows = 0;
  term terms[16];
  uint32_t n = 0;
  const char *s = pattern ? pattern : "";
  for (;;) {
    while (isspace((unsigned char)*s)) s++;
    if (!*s) break;
    if (n == 16 || parse_term(&s, &terms[n++]) != 0)
      return hpcdb_fail(HPCDB_EINVAL, "profile filter \"%s\": terms are KIND, KIND=N or KIND=N-M (at most 16)",
                        pattern);
  }
  uint32_t *r = malloc((t->n_lines ? t->n_lines : 1) * sizeof *r), k = 0;
  if (!r) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < t->n_lines; i++)
    if (t->lines[i].profile < exp->n_profiles && matches(exp, &exp->profiles[t->lines[i].profile], terms, n))
      r[k++] = i;
  *rows = r;
  *n_rows = k;
  return 0;
}

typedef struct keyed_row {
  uint32_t row;
  const hpcdb_profile *p;
} keyed_row;

static int by_identity(const void *x, const void *y) {
  const keyed_row *ka = x, *kb = y;
  const hpcdb_profile *a = ka->p, *b = kb->p;
  for (uint16_t k = 0; k < a->n_ids && k < b->n_ids; k++) {
    const hpcdb_id *i = &a->ids[k], *j = &b->ids[k];
    if (i->kind != j->kind) return i->kind < j->kind ? -1 : 1;
    if (i->logical_id != j->logical_id) return i->logical_id < j->logical_id ? -1 : 1;
  }
  if (a->n_ids != b->n_ids) return a->n_ids < b->n_ids ? -1 : 1;
  return ka->row < kb->row ? -1 : ka->row > kb->row;
}

int hpcdb_trace_rows_by_identity(const hpcdb_trace_set *t, const hpcdb_experiment *exp, uint32_t *rows,
                                 uint32_t n_rows) {
  keyed_row *k = malloc((n_rows ? n_rows : 1) * sizeof *k);
  if (!k) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < n_rows; i++) {
    if (rows[i] >= t->n_lines || t->lines[rows[i]].profile >= exp->n_profiles) {
      free(k);
      return hpcdb_fail(HPCDB_EINVAL, "row %u does not exist (%u rows)", rows[i], t->n_lines);
    }
    k[i] = (keyed_row){rows[i], &exp->profiles[t->lines[rows[i]].profile]};
  }
  qsort(k, n_rows, sizeof *k, by_identity);
  for (uint32_t i = 0; i < n_rows; i++) rows[i] = k[i].row;
  free(k);
  return 0;
}

int hpcdb_trace_contexts_matching(const hpcdb_experiment *exp, const char *pattern, uint8_t **keep) {
  uint8_t *k = calloc(exp->n_contexts ? exp->n_contexts : 1, 1);
  if (!k) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < exp->n_contexts; i++) {
    const hpcdb_context *c = &exp->contexts[i];
    const char *name =
        c->function != HPCDB_NONE && c->function < exp->n_functions ? exp->functions[c->function].name : c->name;
    k[i] = i == 0 || (name && fnmatch(pattern, name, 0) == 0);
  }
  *keep = k;
  return 0;
}
