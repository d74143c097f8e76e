/* SPDX-License-Identifier: BSD-3-Clause */
/* The bottom-up and flat views (aggregate.h): contexts gathered by frame (a
 * function, or an instruction reached by a call when there is no function)
 * and by name. Bottom-up: each function, with the callers it was reached
 * from; flat (hpcviewer's): load module > file > function > loop > line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "query/names.h"
#include "query/query_internal.h"
#include "query/shown.h"

typedef struct builder {
  agg_view *a;
  uint64_t cap;
  hpcdb_u64map index; /* hash(group, name) -> row */
} builder;

static uint32_t row_of(builder *b, uint32_t group, const char *name) {
  agg_view *a = b->a;
  uint64_t key = hash_u64(hash_bytes(name, strlen(name)) ^ group), at;
  while (u64map_get(&b->index, key, &at)) {
    if (a->group[at] == group && !strcmp(a->names[at], name)) return (uint32_t)at;
    key = hash_u64(key + 1); /* a collision: probe on */
  }
  if (a->n_rows == b->cap) {
    uint64_t cap = b->cap ? 2 * b->cap : 256;
    char **names = realloc(a->names, cap * sizeof *names);
    if (names) a->names = names;
    uint32_t *groups = realloc(a->group, cap * sizeof *groups);
    if (groups) a->group = groups;
    if (!names || !groups) return HPCDB_NONE;
    b->cap = cap;
  }
  if (!(a->names[a->n_rows] = strdup(name))) return HPCDB_NONE;
  a->group[a->n_rows] = group;
  if (u64map_put(&b->index, key, a->n_rows) != 0) return HPCDB_NONE;
  return a->n_rows++;
}

/* The source file a frame's function is in (else the frame's own), as a person reads it: its base
 * name, or "<unknown file> [module]" for hpcprof's "[module]" stand-in (a binary without line maps). */
static const char *file_name(const hpcdb_experiment *e, uint32_t f, char *buf, size_t size) {
  const hpcdb_context *c = &e->contexts[f];
  uint32_t file = c->function != HPCDB_NONE && e->functions[c->function].file != HPCDB_NONE
                      ? e->functions[c->function].file
                      : c->file;
  if (file == HPCDB_NONE || !e->files[file].path) return "<unknown file>";
  const char *path = e->files[file].path, *slash = strrchr(path, '/');
  if (path[0] != '[') return slash ? slash + 1 : path;
  char stand_in[512];
  snprintf(stand_in, sizeof stand_in, "<unknown file> %s", path);
  query_function_display(stand_in, "", buf, size);
  return buf;
}

/* The flat view's row of context i whose frame is f: load module > file > function, then the loops
 * between f and i, and i's own line; *opens the rows it is the scope of (bit k: k rows up from it). */
static uint32_t flat_row(builder *b, const hpcdb_experiment *e, uint32_t i, uint32_t f, uint8_t *opens) {
  char name[512], file[512];
  uint32_t chain[64], n = 0;
  for (uint32_t c = i; c != f && n < 64; c = e->contexts[c].parent) chain[n++] = c; /* i up to f's child */
  query_context_name(e, f, name, sizeof name);
  uint32_t row = row_of(b, HPCDB_NONE, query_module_name(e, f));
  if (row != HPCDB_NONE) row = row_of(b, row, file_name(e, f, file, sizeof file));
  if (row != HPCDB_NONE) row = row_of(b, row, name);
  *opens = i == f ? 0x7 : 0; /* a frame: its function, file and module */
  while (n-- > 0 && row != HPCDB_NONE) {
    uint8_t lex = e->contexts[chain[n]].lexical_type;
    if (lex != HPCDB_LEX_LOOP && (lex != HPCDB_LEX_LINE || chain[n] != i)) continue; /* loops, and i's line */
    if (query_hidden(e, chain[n], 0)) continue; /* no line: no row (query/shown.h), its cost stays above */
    query_context_name(e, chain[n], name, sizeof name);
    row = row_of(b, row, name);
    if (chain[n] == i) *opens = 0x1;
  }
  return row;
}

/* Of the rows each context opens, those no context above it opens too: its inclusive value counts
 * there (a function calling itself, a module called back, counted once). Depth first, with how many
 * contexts on the path open each row. */
static int count_outermost(const hpcdb_experiment *e, agg_view *a, const uint8_t *opens) {
  uint32_t *on_path = calloc((size_t)a->n_rows + 1, sizeof *on_path);
  if (!on_path) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the flat view");
  for (uint32_t i = 0, up = 0; i != HPCDB_NONE;) {
    if (!up) { /* entering i */
      a->ctx_inclusive[i] = 0;
      uint32_t r = a->ctx_row[i];
      for (unsigned k = 0; r != HPCDB_NONE && k < 8; k++, r = a->group[r])
        if (opens[i] >> k & 1 && on_path[r]++ == 0) a->ctx_inclusive[i] |= (uint8_t)(1u << k); /* k < 8 */
    }
    uint32_t next = up ? HPCDB_NONE : e->contexts[i].first_child;
    if (next != HPCDB_NONE) {
      i = next;
      continue;
    }
    uint32_t r = a->ctx_row[i]; /* leaving i */
    for (unsigned k = 0; r != HPCDB_NONE && k < 8; k++, r = a->group[r])
      if (opens[i] >> k & 1) on_path[r]--;
    up = (next = e->contexts[i].next_sibling) == HPCDB_NONE;
    i = up ? e->contexts[i].parent : next;
  }
  free(on_path);
  return 0;
}

int query_agg_build(const hpcdb_experiment *e, int flat, int functions_only, agg_view *a) {
  builder b = {a, 0, {0}};
  uint32_t n = e->n_contexts;
  a->ctx_row = malloc(((size_t)n + 1) * sizeof *a->ctx_row);
  a->ctx_inclusive = calloc((size_t)n + 1, 1);
  uint8_t *opens = calloc((size_t)n + 1, 1);
  if (!a->ctx_row || !a->ctx_inclusive || !opens) {
    free(opens);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  char name[512], other[512];
  int rc = 0;
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    a->ctx_row[i] = HPCDB_NONE;
    if (i == 0 || e->contexts[i].kind != HPCDB_CTX_NORMAL) continue;
    uint32_t f = query_frame(e, i, functions_only);
    if (f == 0 || e->contexts[f].kind != HPCDB_CTX_NORMAL) continue;
    uint32_t row;
    if (flat) {
      row = flat_row(&b, e, i, f, &opens[i]);
    } else { /* bottom-up: the function, then the caller it was reached from */
      query_context_name(e, f, name, sizeof name);
      query_context_name(e, query_frame(e, e->contexts[f].parent, functions_only), other, sizeof other);
      row = row_of(&b, HPCDB_NONE, name);
      if (row != HPCDB_NONE) row = row_of(&b, row, other);
      a->ctx_inclusive[i] =
          i == f && !query_frame_nested(e, f, name, functions_only) ? 0x3 : 0; /* caller and function */
    }
    if (row == HPCDB_NONE) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for the %s view", flat ? "flat" : "bottom-up");
    a->ctx_row[i] = row;
  }
  u64map_free(&b.index);
  if (rc == 0 && flat) rc = count_outermost(e, a, opens);
  free(opens);
  HPCDB_TRY(rc);
  uint32_t r = a->n_rows;
  a->first_member = malloc(((size_t)r + 1) * sizeof *a->first_member);
  a->next_member = malloc(((size_t)r + 1) * sizeof *a->next_member);
  a->n_members = calloc((size_t)r + 1, sizeof *a->n_members);
  if (!a->first_member || !a->next_member || !a->n_members) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t k = 0; k < r; k++) a->first_member[k] = a->next_member[k] = HPCDB_NONE;
  for (uint32_t k = r; k-- > 0;) { /* lists in row order */
    uint32_t g = a->group[k];
    if (g == HPCDB_NONE) {
      a->n_top++;
      continue;
    }
    a->next_member[k] = a->first_member[g];
    a->first_member[g] = k;
    a->n_members[g]++;
  }
  return 0;
}

void query_agg_sum(const hpcdb_experiment *e, const agg_view *a, const double *self, const double *inc, size_t stride,
                   double *ai, double *ae, size_t out_stride) {
  for (uint32_t i = 0; i < e->n_contexts; i++) {
    double x = self[(size_t)i * stride], y = inc[(size_t)i * stride];
    unsigned k = 0;
    for (uint32_t r = a->ctx_row[i]; r != HPCDB_NONE; r = a->group[r], k++) {
      ae[(size_t)r * out_stride] += x;
      if (k < 8 && a->ctx_inclusive[i] >> k & 1) ai[(size_t)r * out_stride] += y;
    }
  }
}

void query_agg_sum_integers(const hpcdb_experiment *e, const agg_view *a, const uint64_t *self, const uint64_t *inc,
                            size_t stride, uint64_t *ai, uint64_t *ae, size_t out_stride) {
  for (uint32_t i = 0; i < e->n_contexts; i++) { /* query_agg_sum's sums, modulo 2^64 */
    uint64_t x = self[(size_t)i * stride], y = inc[(size_t)i * stride];
    unsigned k = 0;
    for (uint32_t r = a->ctx_row[i]; r != HPCDB_NONE; r = a->group[r], k++) {
      ae[(size_t)r * out_stride] += x;
      if (k < 8 && a->ctx_inclusive[i] >> k & 1) ai[(size_t)r * out_stride] += y;
    }
  }
}

void query_agg_free(agg_view *a) {
  for (uint32_t k = 0; k < a->n_rows; k++) free(a->names[k]);
  free(a->names);
  free(a->group);
  free(a->first_member);
  free(a->next_member);
  free(a->n_members);
  free(a->ctx_row);
  free(a->ctx_inclusive);
  memset(a, 0, sizeof *a);
}

int query_agg(hpcdb_query *q, int flat, const agg_view **out) {
  agg_view *a = &q->agg[flat];
  if (!a->built) {
    int rc = query_agg_build(q->exp, flat, 0, a);
    if (rc < 0) {
      query_agg_free(a);
      return rc;
    }
    a->built = 1;
  }
  *out = a;
  return 0;
}

/* A column's values over the rows of an aggregated view: [0] inclusive,
 * [1] exclusive, per node (node 0 the root: the whole program). */
int query_agg_values(hpcdb_query *q, hpcdb_qcolumn col, int flat, const double **inc, const double **exc) {
  const agg_view *a;
  const column_values *v;
  HPCDB_TRY(query_agg(q, flat, &a));
  HPCDB_TRY(query_values(q, col, &v));
  column_values *w = q->cols[col].values;
  if (!w->agg[flat][0]) {
    double *ai = calloc((size_t)a->n_rows + 1, sizeof *ai), *ae = calloc((size_t)a->n_rows + 1, sizeof *ae);
    if (!ai || !ae) {
      free(ai);
      free(ae);
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    }
    query_agg_sum(q->exp, a, v->self, v->inc, 1, ai + 1, ae + 1, 1);
    ai[0] = v->inc[0];
    w->agg[flat][0] = ai;
    w->agg[flat][1] = ae;
  }
  *inc = w->agg[flat][0];
  *exc = w->agg[flat][1];
  return 0;
}
