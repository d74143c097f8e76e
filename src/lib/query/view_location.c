/* SPDX-License-Identifier: BSD-3-Clause */
/* The source location of a node of any view: a top-down node's own; a
 * bottom-up or flat row's, that of the first context adding to it (a
 * function's frame: where it is defined or called from), so the source pane
 * follows the selection in every view. A flat view's load module has none. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/query_internal.h"

static int row_location(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, uint32_t *file, uint32_t *line) {
  if (view == HPCDB_QVIEW_TOP_DOWN) return hpcdb_query_location(q, node, file, line);
  if (view != HPCDB_QVIEW_BOTTOM_UP && view != HPCDB_QVIEW_FLAT)
    return hpcdb_fail(HPCDB_EINVAL, "view %d does not exist", (int)view);
  const agg_view *a;
  int flat = view == HPCDB_QVIEW_FLAT;
  HPCDB_TRY(query_agg(q, flat, &a));
  if (node > a->n_rows) return hpcdb_fail(HPCDB_EINVAL, "node %u does not exist in this view", node);
  *file = HPCDB_NONE, *line = 0;
  uint32_t row = node - 1, *first = q->row_ctx[flat];
  if (!first) { /* one pass over the contexts, once: each row's first */
    if (!(first = q->row_ctx[flat] = malloc(((size_t)a->n_rows + 1) * sizeof *first)))
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    memset(first, 0xff, ((size_t)a->n_rows + 1) * sizeof *first);
    for (uint32_t c = q->exp->n_contexts; c-- > 1;) /* a context adds to its row and every row above */
      for (uint32_t r = a->ctx_row[c]; r < a->n_rows; r = a->group[r]) first[r] = c;
  }
  if (node == 0 || (flat && a->group[row] == HPCDB_NONE) || first[row] == HPCDB_NONE) return 0;
  return hpcdb_query_location(q, first[row], file, line);
}

int hpcdb_query_view_location(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, uint32_t *file, uint32_t *line) {
  query_lock(q);
  int rc = row_location(q, view, node, file, line);
  query_unlock(q);
  return rc;
}
