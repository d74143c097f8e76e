/* SPDX-License-Identifier: BSD-3-Clause */
/* Which nodes of a view an exported page holds: best first from the root,
 * by each kept metric in turn, so that whichever metric the page shows, its
 * heaviest rows are there. A frontier per metric: each expanded node's
 * children come sorted from the query layer (largest inclusive value first,
 * in pages that double: the query layer keeps a few sorts only, and a wide
 * node is sorted again for each page); a heap holds each expanded node's
 * next child, so the heaviest node that metric has not reached is on top,
 * and a node is only reached through its parent. A node another metric kept
 * already is expanded, not kept twice. */
#include <stdlib.h>

#include "common/error.h"
#include "page/snapshot.h"

#define FIRST_PAGE 1024 /* children asked of the query layer first; then twice as many each time */

typedef struct cursor {
  hpcdb_qnode parent;
  uint32_t offset, n, at, total; /* the page [offset, offset + n) of total; at: the next in it */
  hpcdb_qnode *kids;             /* room for cap */
  uint32_t cap;
  double next; /* the inclusive value of kids[at] */
} cursor;

typedef struct frontier {
  hpcdb_qsort sort;
  cursor *c; /* one per node this metric expanded */
  uint32_t n_c, cap_c;
  uint32_t *heap, n; /* cursors with a child left, largest next first (room for cap_c) */
} frontier;

typedef struct selector {
  hpcdb_query *q;
  hpcdb_qview view;
  uint32_t limit;    /* nodes to keep: no page larger */
  unsigned char *in; /* per node of the view: kept */
} selector;

static int above(const frontier *f, uint32_t a, uint32_t b) { return f->c[f->heap[a]].next > f->c[f->heap[b]].next; }

static void swap(uint32_t *a, uint32_t *b) {
  uint32_t t = *a;
  *a = *b;
  *b = t;
}

static void push(frontier *f, uint32_t cur) {
  uint32_t i = f->n++;
  f->heap[i] = cur;
  for (; i > 0 && above(f, i, (i - 1) / 2); i = (i - 1) / 2) swap(&f->heap[i], &f->heap[(i - 1) / 2]);
}

static void sift_down(frontier *f) {
  for (uint32_t i = 0;;) {
    uint32_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < f->n && above(f, l, m)) m = l;
    if (r < f->n && above(f, r, m)) m = r;
    if (m == i) return;
    swap(&f->heap[i], &f->heap[m]);
    i = m;
  }
}

/* The cursor's next child: from its page, or the next page; *has 0 when it has none left. */
static int advance(const selector *s, const frontier *f, cursor *c, int *has) {
  *has = 0;
  if (c->at >= c->n) {
    if (c->offset + c->n >= c->total && c->n) return 0;
    c->offset += c->n;
    c->at = 0;
    uint32_t cap = c->cap ? (c->cap < s->limit / 2 ? 2 * c->cap : s->limit) : FIRST_PAGE, left = c->total - c->offset;
    if (!c->cap) HPCDB_TRY(hpcdb_query_n_children(s->q, s->view, c->parent, &left)); /* zero ones too: at most */
    if (cap > left) cap = left;
    if (cap == 0) return 0;
    hpcdb_qnode *kids = realloc(c->kids, (size_t)cap * sizeof *kids);
    if (!kids) return hpcdb_fail(HPCDB_ENOMEM, "out of memory choosing the page's nodes");
    c->kids = kids, c->cap = cap;
    HPCDB_TRY(hpcdb_query_children(s->q, s->view, c->parent, &f->sort, c->offset, cap, c->kids, &c->n, &c->total));
    if (c->n == 0) return 0;
  }
  double exc;
  HPCDB_TRY(hpcdb_query_value(s->q, s->view, f->sort.column, c->kids[c->at], &c->next, &exc));
  *has = 1;
  return 0;
}

static int expand(const selector *s, frontier *f, hpcdb_qnode node) {
  if (f->n_c == f->cap_c) {
    uint32_t cap = f->cap_c ? 2 * f->cap_c : 64;
    cursor *c = realloc(f->c, (size_t)cap * sizeof *c);
    uint32_t *heap = c ? realloc(f->heap, (size_t)cap * sizeof *heap) : NULL;
    if (c) f->c = c;
    if (heap) f->heap = heap;
    if (!c || !heap) return hpcdb_fail(HPCDB_ENOMEM, "out of memory choosing the page's nodes");
    f->cap_c = cap;
  }
  cursor *c = &f->c[f->n_c++];
  *c = (cursor){.parent = node};
  int has;
  HPCDB_TRY(advance(s, f, c, &has));
  if (has) push(f, f->n_c - 1);
  return 0;
}

/* The metric's heaviest node not reached yet into *node (its parent into *parent), expanded. */
static int pop(const selector *s, frontier *f, hpcdb_qnode *node, hpcdb_qnode *parent) {
  cursor *c = &f->c[f->heap[0]];
  *node = c->kids[c->at++];
  *parent = c->parent;
  int has;
  HPCDB_TRY(advance(s, f, c, &has));
  if (!has) f->heap[0] = f->heap[--f->n]; /* the parent's children are all taken */
  sift_down(f);
  return expand(s, f, *node); /* (may move f->c) */
}

static void frontiers_free(frontier *f, uint32_t n) {
  for (uint32_t k = 0; f && k < n; k++) {
    for (uint32_t i = 0; i < f[k].n_c; i++) free(f[k].c[i].kids);
    free(f[k].c);
    free(f[k].heap);
  }
  free(f);
}

/* Metric k's first pops (at most limit): its frontier alone, so that one
 * column's values are used at a time (the query layer holds a few columns:
 * metrics in turn would compute each again for every node). */
typedef struct pops {
  hpcdb_qnode *node, *parent;
  uint32_t n, used; /* used: taken by the metrics' turns */
} pops;

static int first_pops(const selector *s, frontier *f, hpcdb_qcolumn col, uint32_t limit, pops *p) {
  p->node = malloc(((size_t)limit + 1) * sizeof *p->node);
  p->parent = malloc(((size_t)limit + 1) * sizeof *p->parent);
  if (!p->node || !p->parent) return hpcdb_fail(HPCDB_ENOMEM, "out of memory choosing the page's nodes");
  f->sort = (hpcdb_qsort){col, 0, 0};
  HPCDB_TRY(expand(s, f, 0));
  while (p->n < limit && f->n > 0) {
    HPCDB_TRY(pop(s, f, &p->node[p->n], &p->parent[p->n]));
    p->n++;
  }
  return 0;
}

/* Whole for metric k: the pops its turns did not take, and what its frontier still holds, are all kept. */
static int all_kept(const selector *s, frontier *f, const pops *p, int *whole) {
  *whole = 1;
  for (uint32_t i = p->used; i < p->n; i++) *whole &= s->in[p->node[i]];
  while (*whole && f->n > 0 && s->in[f->c[f->heap[0]].kids[f->c[f->heap[0]].at]]) {
    hpcdb_qnode node, parent;
    HPCDB_TRY(pop(s, f, &node, &parent));
  }
  *whole &= f->n == 0;
  return 0;
}

int snapshot_select(hpcdb_query *q, hpcdb_qview view, const hpcdb_qcolumn *cols, uint32_t n_cols, uint32_t limit,
                    snapshot_view *out) {
  *out = (snapshot_view){.view = view, .n_nodes = hpcdb_query_n_nodes(q, view)};
  if (limit > out->n_nodes) limit = out->n_nodes;
  selector s = {q, view, limit + FIRST_PAGE, calloc((size_t)out->n_nodes + 1, 1)};
  frontier *f = calloc((size_t)n_cols + 1, sizeof *f);
  pops *p = calloc((size_t)n_cols + 1, sizeof *p);
  out->node = malloc(((size_t)limit + 1) * sizeof *out->node);
  out->parent = malloc(((size_t)limit + 1) * sizeof *out->parent);
  int rc = s.in && f && p && out->node && out->parent
               ? 0
               : hpcdb_fail(HPCDB_ENOMEM, "out of memory choosing the page's nodes");
  if (rc == 0 && limit > 0) {
    out->node[0] = 0, out->parent[0] = HPCDB_NONE, out->kept = 1, s.in[0] = 1;
    for (uint32_t k = 0; k < n_cols && rc == 0; k++) rc = first_pops(&s, &f[k], cols[k], limit, &p[k]);
  }
  for (int left = 1; rc == 0 && left && out->kept < limit;) { /* a node per metric in turn */
    left = 0;
    for (uint32_t k = 0; k < n_cols && out->kept < limit; k++) {
      if (p[k].used == p[k].n) continue;
      left = 1;
      hpcdb_qnode node = p[k].node[p[k].used], parent = p[k].parent[p[k].used];
      p[k].used++;
      if (!s.in[node]) {
        s.in[node] = 1;
        out->node[out->kept] = node, out->parent[out->kept] = parent;
        out->kept++;
      }
    }
  }
  /* whole: no metric's frontier holds a node not kept (those it holds that are kept, it expands first) */
  out->whole = rc == 0;
  for (uint32_t k = 0; rc == 0 && k < n_cols; k++) {
    int whole;
    rc = all_kept(&s, &f[k], &p[k], &whole);
    out->whole &= whole;
  }
  for (uint32_t k = 0; p && k < n_cols; k++) free(p[k].node), free(p[k].parent);
  free(p);
  frontiers_free(f, n_cols);
  free(s.in);
  if (rc < 0) snapshot_view_free(out);
  return rc;
}

void snapshot_view_free(snapshot_view *v) {
  free(v->node);
  free(v->parent);
  v->node = v->parent = NULL;
  v->kept = 0;
}
