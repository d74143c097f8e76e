/* SPDX-License-Identifier: BSD-3-Clause */
/* The source location of a node of any view: a top-down node's own; a
 * bottom-up or flat row's, that of the first context adding to it (a
 * function's frame: where it is defined or called from), so the source pane
 * follows the selection in every view. A flat view's load module has none. */
#include "common/error.h"
#include "query/query_internal.h"

int hpcdb_query_view_location(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, uint32_t *file, uint32_t *line) {
  if (view == HPCDB_QVIEW_TOP_DOWN) return hpcdb_query_location(q, node, file, line);
  if (view != HPCDB_QVIEW_BOTTOM_UP && view != HPCDB_QVIEW_FLAT) return hpcdb_fail(HPCDB_EINVAL, "view %d does not exist", (int)view);
  const agg_view *a;
  int flat = view == HPCDB_QVIEW_FLAT;
  HPCDB_TRY(query_agg(q, flat, &a));
  if (node > a->n_rows) return hpcdb_fail(HPCDB_EINVAL, "node %u does not exist in this view", node);
  *file = HPCDB_NONE, *line = 0;
  uint32_t row = node - 1;
  if (node == 0 || (flat && a->group[row] == HPCDB_NONE)) return 0;
  for (uint32_t c = 1; c < q->exp->n_contexts; c++)
    if (a->ctx_top[c] == row || a->ctx_member[c] == row) return hpcdb_query_location(q, c, file, line);
  return 0;
}
