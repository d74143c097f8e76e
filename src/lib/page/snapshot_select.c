/* Which nodes of a view an exported page holds: best first from the root.
 * Each expanded node's children come sorted from the query layer (largest
 * inclusive value first, in pages that double: the query layer keeps a few
 * sorts only, and a wide node is sorted again for each page); a heap holds
 * each expanded node's next child, so the heaviest node not yet kept is
 * always on top and a node is only reached through its parent. */
#include <stdlib.h>

#include "common/error.h"
#include "page/snapshot.h"

#define FIRST_PAGE 16 /* children asked of the query layer first; then twice as many each time */

typedef struct cursor {
  hpcdb_qnode parent;
  uint32_t offset, n, at, total; /* the page [offset, offset + n) of total; at: the next in it */
  hpcdb_qnode *kids;             /* room for cap */
  uint32_t cap;
  double next; /* the inclusive value of kids[at] */
} cursor;

typedef struct frontier {
  uint32_t limit; /* nodes to keep: no page larger */
  hpcdb_query *q;
  hpcdb_qview view;
  hpcdb_qsort sort;
  cursor *c;          /* one per expanded node */
  uint32_t *heap, n;  /* cursors with a child left, largest next first */
} frontier;

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

/* The cursor's next child: from its page, or the next page; 0 when it has none left. */
static int advance(frontier *f, cursor *c, int *has) {
  *has = 0;
  if (c->at >= c->n) {
    if (c->offset + c->n >= c->total && c->n) return 0;
    c->offset += c->n;
    c->at = 0;
    uint32_t cap = c->cap ? (c->cap < f->limit / 2 ? 2 * c->cap : f->limit) : FIRST_PAGE;
    hpcdb_qnode *kids = realloc(c->kids, (size_t)cap * sizeof *kids);
    if (!kids) return hpcdb_fail(HPCDB_ENOMEM, "out of memory choosing the page's nodes");
    c->kids = kids, c->cap = cap;
    HPCDB_TRY(hpcdb_query_children(f->q, f->view, c->parent, &f->sort, c->offset, cap, c->kids, &c->n, &c->total));
    if (c->n == 0) return 0;
  }
  double exc;
  HPCDB_TRY(hpcdb_query_value(f->q, f->view, f->sort.column, c->kids[c->at], &c->next, &exc));
  *has = 1;
  return 0;
}

static int expand(frontier *f, hpcdb_qnode node, uint32_t k) {
  cursor *c = &f->c[k];
  *c = (cursor){.parent = node};
  int has;
  HPCDB_TRY(advance(f, c, &has));
  if (has) push(f, k);
  return 0;
}

int snapshot_select(hpcdb_query *q, hpcdb_qview view, hpcdb_qcolumn col, uint32_t limit, snapshot_view *out) {
  *out = (snapshot_view){.view = view, .n_nodes = hpcdb_query_n_nodes(q, view)};
  if (limit > out->n_nodes) limit = out->n_nodes;
  frontier f = {limit + FIRST_PAGE, q, view, {col, 0, 0}, calloc((size_t)limit + 1, sizeof *f.c), malloc(((size_t)limit + 1) * sizeof *f.heap), 0};
  out->node = malloc(((size_t)limit + 1) * sizeof *out->node);
  out->parent = malloc(((size_t)limit + 1) * sizeof *out->parent);
  int rc = f.c && f.heap && out->node && out->parent ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory choosing the page's nodes");
  if (rc == 0 && limit > 0) {
    out->node[0] = 0, out->parent[0] = HPCDB_NONE, out->kept = 1;
    rc = expand(&f, 0, 0);
  }
  while (rc == 0 && f.n > 0 && out->kept < limit) {
    cursor *c = &f.c[f.heap[0]];
    hpcdb_qnode node = c->kids[c->at++];
    out->node[out->kept] = node, out->parent[out->kept] = c->parent;
    int has;
    rc = advance(&f, c, &has);
    if (rc == 0 && has) sift_down(&f);
    else if (rc == 0) { /* the parent's children are all taken */
      f.heap[0] = f.heap[--f.n];
      sift_down(&f);
    }
    if (rc == 0) rc = expand(&f, node, out->kept);
    out->kept++;
  }
  out->whole = f.n == 0;
  for (uint32_t k = 0; f.c && k <= limit; k++) free(f.c[k].kids);
  free(f.c);
  free(f.heap);
  if (rc < 0) snapshot_view_free(out);
  return rc;
}

void snapshot_view_free(snapshot_view *v) {
  free(v->node);
  free(v->parent);
  v->node = v->parent = NULL;
  v->kept = 0;
}
