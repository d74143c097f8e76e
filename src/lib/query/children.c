/* SPDX-License-Identifier: BSD-3-Clause */
/* Tree slices: a node's value, name, parent and children, the children
 * sorted by any column (kept for the next page), and the hot path. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/query_internal.h"

int query_rows(hpcdb_query *q, hpcdb_qnode node, const uint32_t **rows) {
  if (!q->rows) {
    q->rows = malloc(((size_t)q->exp->n_contexts + 1) * sizeof *q->rows);
    q->walk = malloc(((size_t)q->exp->n_contexts + 1) * sizeof *q->walk);
    if (!q->rows || !q->walk) {
      free(q->rows), free(q->walk);
      q->rows = q->walk = NULL;
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u contexts", q->exp->n_contexts);
    }
  }
  *rows = q->rows;
  return (int)query_shown_children(q->exp, node, 0, q->rows, q->walk);
}

static uint32_t n_nodes(hpcdb_query *q, hpcdb_qview view) {
  if (view == HPCDB_QVIEW_TOP_DOWN) return q->exp->n_contexts;
  const agg_view *a;
  if (view > HPCDB_QVIEW_FLAT || query_agg(q, view == HPCDB_QVIEW_FLAT, &a) < 0) return 0;
  return a->n_rows + 1;
}

static int check_node(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node) {
  if (view > HPCDB_QVIEW_FLAT) return hpcdb_fail(HPCDB_EINVAL, "view %d does not exist", (int)view);
  uint32_t n = n_nodes(q, view);
  if (node >= n) return hpcdb_fail(HPCDB_EINVAL, "node %u does not exist (the view has %u)", node, n);
  return 0;
}

static int value(hpcdb_query *q, hpcdb_qview view, hpcdb_qcolumn col, hpcdb_qnode node, double *inclusive,
                 double *exclusive) {
  HPCDB_TRY(check_node(q, view, node));
  if (view == HPCDB_QVIEW_TOP_DOWN) {
    const column_values *v;
    HPCDB_TRY(query_values(q, col, &v));
    *inclusive = v->inc[node];
    *exclusive = v->exc[node];
    return 0;
  }
  const double *inc, *exc;
  HPCDB_TRY(query_agg_values(q, col, view == HPCDB_QVIEW_FLAT, &inc, &exc));
  *inclusive = inc[node];
  *exclusive = exc[node];
  return 0;
}

static int parent_of(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, hpcdb_qnode *parent) {
  HPCDB_TRY(check_node(q, view, node));
  if (view == HPCDB_QVIEW_TOP_DOWN) {
    *parent = node == 0 ? HPCDB_NONE : query_shown(q->exp, q->exp->contexts[node].parent, 0);
    return 0;
  }
  const agg_view *a = &q->agg[view == HPCDB_QVIEW_FLAT];
  *parent = node == 0 ? HPCDB_NONE : a->group[node - 1] == HPCDB_NONE ? 0 : a->group[node - 1] + 1;
  return 0;
}

static int n_children(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, uint32_t *n) {
  HPCDB_TRY(check_node(q, view, node));
  *n = 0;
  if (view == HPCDB_QVIEW_TOP_DOWN) {
    const uint32_t *rows;
    int rc = query_rows(q, node, &rows);
    HPCDB_TRY(rc);
    *n = (uint32_t)rc;
    return 0;
  }
  const agg_view *a = &q->agg[view == HPCDB_QVIEW_FLAT];
  *n = node == 0 ? a->n_top : a->n_members[node - 1];
  return 0;
}

static size_t name_of(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, char *buf, size_t size) {
  if (size) buf[0] = '\0';
  if (check_node(q, view, node) < 0) return 0;
  if (view == HPCDB_QVIEW_TOP_DOWN) {
    if (!q->twins) q->twins = query_twins(q->exp, 0); /* without it (out of memory): no call sites */
    return query_named_at_site(q->exp, node, q->twins && q->twins[node], buf, size);
  }
  if (node == 0) return (size_t)snprintf(buf, size, "<program root>");
  return (size_t)snprintf(buf, size, "%s", q->agg[view == HPCDB_QVIEW_FLAT].names[node - 1]);
}

/* The sort's context (qsort has no user pointer), per thread: queries may sort at once. */
static _Thread_local struct {
  const double *key;
  int ascending;
  char *const *names; /* aggregated views: ties by name; top-down: by index */
} order;

static int by_key(const void *x, const void *y) {
  hpcdb_qnode a = *(const hpcdb_qnode *)x, b = *(const hpcdb_qnode *)y;
  double va = order.key[a], vb = order.key[b];
  if (va != vb) return (va > vb ? -1 : 1) * (order.ascending ? -1 : 1);
  if (order.names) return strcmp(order.names[a - 1], order.names[b - 1]);
  return (a > b) - (a < b);
}

/* The cached sorting of node's children by s, or NULL; else *lru is the slot to replace. */
static sorted_children *cached_sort(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, const hpcdb_qsort *s,
                                    sorted_children **lru) {
  *lru = &q->sorts[0];
  for (int k = 0; k < QUERY_SORTS; k++) {
    sorted_children *c = &q->sorts[k];
    if (c->kids && c->view == view && c->node == node && c->sort.column == s->column &&
        c->sort.exclusive == s->exclusive && c->sort.ascending == s->ascending) {
      c->used = ++q->clock;
      return c;
    }
    if (c->used < (*lru)->used) *lru = c;
  }
  return NULL;
}

static int sorted(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, const hpcdb_qsort *s,
                  const sorted_children **out) {
  sorted_children *slot;
  if ((*out = cached_sort(q, view, node, s, &slot))) return 0;
  uint32_t n;
  HPCDB_TRY(n_children(q, view, node, &n));
  const double *inc, *exc;
  char *const *names = NULL;
  if (view == HPCDB_QVIEW_TOP_DOWN) {
    const column_values *v;
    HPCDB_TRY(query_values(q, s->column, &v));
    inc = v->inc, exc = v->exc;
  } else {
    HPCDB_TRY(query_agg_values(q, s->column, view == HPCDB_QVIEW_FLAT, &inc, &exc));
    names = q->agg[view == HPCDB_QVIEW_FLAT].names;
  }
  if ((*out = cached_sort(q, view, node, s, &slot)))
    return 0; /* sorted by another thread while the values were computed */
  const double *key = s->exclusive ? exc : inc;
  hpcdb_qnode *kids = malloc(((size_t)n + 1) * sizeof *kids);
  if (!kids) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u children", n);
  uint32_t k = 0;
  if (view == HPCDB_QVIEW_TOP_DOWN) {
    const uint32_t *rows;
    int rc = query_rows(q, node, &rows);
    if (rc < 0) {
      free(kids);
      return rc;
    }
    memcpy(kids, rows, (size_t)rc * sizeof *kids);
    k = (uint32_t)rc;
  } else {
    const agg_view *a = &q->agg[view == HPCDB_QVIEW_FLAT];
    if (node == 0) {
      for (uint32_t r = 0; r < a->n_rows; r++)
        if (a->group[r] == HPCDB_NONE) kids[k++] = r + 1;
    } else {
      for (uint32_t r = a->first_member[node - 1]; r != HPCDB_NONE; r = a->next_member[r]) kids[k++] = r + 1;
    }
  }
  uint32_t kept = 0; /* no zero rows (as hpcdb report): children with neither value in the sort column */
  for (uint32_t i = 0; i < k; i++)
    if (inc[kids[i]] != 0 || exc[kids[i]] != 0) kids[kept++] = kids[i];
  k = kept;
  order.key = key;
  order.ascending = s->ascending;
  order.names = names;
  qsort(kids, k, sizeof *kids, by_key);
  free(slot->kids);
  *slot = (sorted_children){view, node, *s, k, kids, ++q->clock};
  *out = slot;
  return 0;
}

static int children(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, const hpcdb_qsort *s, uint32_t offset,
                    uint32_t limit, hpcdb_qnode *out, uint32_t *n, uint32_t *total) {
  *n = *total = 0;
  HPCDB_TRY(check_node(q, view, node));
  if (!s || s->column >= q->n_cols) return hpcdb_fail(HPCDB_EINVAL, "no such column to sort by");
  const sorted_children *c = NULL;
  HPCDB_TRY(sorted(q, view, node, s, &c));
  *total = c->n;
  for (uint32_t k = offset; k < c->n && *n < limit; k++) out[(*n)++] = c->kids[k];
  return 0;
}

static int hot_path(hpcdb_query *q, hpcdb_qcolumn col, hpcdb_qnode node, hpcdb_qnode *out, uint32_t max, uint32_t *n) {
  *n = 0;
  HPCDB_TRY(check_node(q, HPCDB_QVIEW_TOP_DOWN, node));
  const column_values *v;
  HPCDB_TRY(query_values(q, col, &v));
  while (*n < max) {
    out[(*n)++] = node;
    uint32_t best = HPCDB_NONE;
    const uint32_t *rows;
    int nr = query_rows(q, node, &rows);
    HPCDB_TRY(nr);
    for (int r = 0; r < nr; r++)
      if (best == HPCDB_NONE || v->inc[rows[r]] > v->inc[best]) best = rows[r];
    if (best == HPCDB_NONE || v->inc[best] == 0 || v->inc[best] < 0.5 * v->inc[node]) break;
    node = best;
  }
  return 0;
}

/* The public functions: each holds the query's lock for the call (query_internal.h). */
uint32_t hpcdb_query_n_nodes(hpcdb_query *q, hpcdb_qview view) {
  query_lock(q);
  uint32_t n = n_nodes(q, view);
  query_unlock(q);
  return n;
}

int hpcdb_query_value(hpcdb_query *q, hpcdb_qview view, hpcdb_qcolumn col, hpcdb_qnode node, double *inclusive,
                      double *exclusive) {
  query_lock(q);
  int rc = value(q, view, col, node, inclusive, exclusive);
  query_unlock(q);
  return rc;
}

int hpcdb_query_parent(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, hpcdb_qnode *parent) {
  query_lock(q);
  int rc = parent_of(q, view, node, parent);
  query_unlock(q);
  return rc;
}

int hpcdb_query_n_children(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, uint32_t *n) {
  query_lock(q);
  int rc = n_children(q, view, node, n);
  query_unlock(q);
  return rc;
}

size_t hpcdb_query_name(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, char *buf, size_t size) {
  query_lock(q);
  size_t n = name_of(q, view, node, buf, size);
  query_unlock(q);
  return n;
}

int hpcdb_query_children(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, const hpcdb_qsort *s, uint32_t offset,
                         uint32_t limit, hpcdb_qnode *out, uint32_t *n, uint32_t *total) {
  query_lock(q);
  int rc = children(q, view, node, s, offset, limit, out, n, total);
  query_unlock(q);
  return rc;
}

int hpcdb_query_hot_path(hpcdb_query *q, hpcdb_qcolumn col, hpcdb_qnode node, hpcdb_qnode *out, uint32_t max,
                         uint32_t *n) {
  query_lock(q);
  int rc = hot_path(q, col, node, out, max, n);
  query_unlock(q);
  return rc;
}
