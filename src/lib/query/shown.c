/* SPDX-License-Identifier: BSD-3-Clause */
/* Which contexts are rows (shown.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query/names.h"
#include "query/shown.h"

int query_hidden(const hpcdb_experiment *e, uint32_t ctx, unsigned show) {
  const hpcdb_context *c = &e->contexts[ctx];
  if (c->kind != HPCDB_CTX_NORMAL || c->relation != HPCDB_REL_LEXICAL || c->line != 0) return 0;
  if (c->lexical_type == HPCDB_LEX_LINE) return 1;
  return c->lexical_type == HPCDB_LEX_LOOP && !(show & QUERY_SHOW_ADDRESS_LOOPS);
}

uint32_t query_shown(const hpcdb_experiment *e, uint32_t ctx, unsigned show) {
  while (ctx != 0 && ctx != HPCDB_NONE && query_hidden(e, ctx, show)) ctx = e->contexts[ctx].parent;
  return ctx;
}

/* Pushes ctx's children on the walk, the first on top. */
static uint32_t push_children(const hpcdb_experiment *e, uint32_t ctx, uint32_t *walk, uint32_t w) {
  uint32_t start = w;
  for (uint32_t k = e->contexts[ctx].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling) walk[w++] = k;
  for (uint32_t a = start, b = w; a + 1 < b; a++, b--) {
    uint32_t t = walk[a];
    walk[a] = walk[b - 1];
    walk[b - 1] = t;
  }
  return w;
}

uint32_t query_shown_children(const hpcdb_experiment *e, uint32_t ctx, unsigned show, uint32_t *out, uint32_t *walk) {
  uint32_t n = 0, w = push_children(e, ctx, walk, 0);
  while (w > 0) {
    uint32_t k = walk[--w];
    if (query_hidden(e, k, show)) w = push_children(e, k, walk, w);
    else out[n++] = k;
  }
  return n;
}

static int by_hash(const void *x, const void *y) {
  const query_named *a = x, *b = y;
  if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
  return (a->ctx > b->ctx) - (a->ctx < b->ctx);
}

static uint64_t name_hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

void query_mark_twins(const hpcdb_experiment *e, const uint32_t *rows, uint32_t n, uint8_t *twin, query_named *names) {
  char a[512], b[512];
  if (n < 2) return;
  for (uint32_t i = 0; i < n; i++) {
    query_context_name(e, rows[i], a, sizeof a);
    names[i] = (query_named){name_hash(a), rows[i]};
  }
  qsort(names, n, sizeof *names, by_hash);
  for (uint32_t i = 1; i < n; i++) {
    if (names[i].hash != names[i - 1].hash) continue;
    query_context_name(e, names[i].ctx, a, sizeof a);
    query_context_name(e, names[i - 1].ctx, b, sizeof b);
    if (strcmp(a, b) == 0) twin[names[i].ctx] = twin[names[i - 1].ctx] = 1;
  }
}

uint8_t *query_twins(const hpcdb_experiment *e, unsigned show) {
  size_t n = e->n_contexts;
  uint8_t *twin = calloc(n + 1, 1);
  uint32_t *rows = malloc((n + 1) * sizeof *rows), *walk = malloc((n + 1) * sizeof *walk);
  query_named *names = malloc((n + 1) * sizeof *names);
  for (uint32_t p = 0; twin && rows && walk && names && p < n; p++) {
    if (query_hidden(e, p, show) || e->contexts[p].first_child == HPCDB_NONE) continue;
    query_mark_twins(e, rows, query_shown_children(e, p, show, rows, walk), twin, names);
  }
  if (!rows || !walk || !names) free(twin), twin = NULL;
  free(rows);
  free(walk);
  free(names);
  return twin;
}
