/* SPDX-License-Identifier: BSD-3-Clause */
/* Source locations of nodes and per-line values of a file. */
#include <stdlib.h>

#include "common/error.h"
#include "query/query_internal.h"

int hpcdb_query_location(hpcdb_query *q, hpcdb_qnode node, uint32_t *file, uint32_t *line) {
  if (node >= q->exp->n_contexts) return hpcdb_fail(HPCDB_EINVAL, "node %u does not exist", node);
  const hpcdb_context *c = &q->exp->contexts[node];
  *file = c->file;
  *line = c->line;
  if (c->file == HPCDB_NONE && c->function != HPCDB_NONE) { /* a call without its own line: the function's definition */
    *file = q->exp->functions[c->function].file;
    *line = q->exp->functions[c->function].line;
  }
  if (*file != HPCDB_NONE && *file >= q->exp->n_files) *file = HPCDB_NONE;
  return 0;
}

static int by_line(const void *x, const void *y) {
  const hpcdb_qline *a = x, *b = y;
  return (a->line > b->line) - (a->line < b->line);
}

static int lines(hpcdb_query *q, hpcdb_qcolumn col, uint32_t file, hpcdb_qline *out, uint32_t max, uint32_t *n) {
  *n = 0;
  if (file >= q->exp->n_files) return hpcdb_fail(HPCDB_EINVAL, "file %u does not exist", file);
  const column_values *v;
  HPCDB_TRY(query_values(q, col, &v));
  uint32_t k = 0;
  for (uint32_t i = 1; i < q->exp->n_contexts; i++) {
    const hpcdb_context *c = &q->exp->contexts[i];
    if (c->file == file && c->line != 0 && (v->self[i] != 0 || v->inc[i] != 0)) k++;
  }
  hpcdb_qline *all = malloc(((size_t)k + 1) * sizeof *all);
  if (!all) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u lines", k);
  k = 0;
  for (uint32_t i = 1; i < q->exp->n_contexts; i++) {
    const hpcdb_context *c = &q->exp->contexts[i];
    if (c->file == file && c->line != 0 && (v->self[i] != 0 || v->inc[i] != 0))
      all[k++] = (hpcdb_qline){c->line, v->inc[i], v->self[i]};
  }
  qsort(all, k, sizeof *all, by_line);
  for (uint32_t j = 0; j < k; j++) { /* merge the contexts of one line */
    if (*n && out[*n - 1].line == all[j].line) {
      out[*n - 1].inclusive += all[j].inclusive;
      out[*n - 1].exclusive += all[j].exclusive;
    } else if (*n < max) out[(*n)++] = all[j];
  }
  free(all);
  return 0;
}

int hpcdb_query_lines(hpcdb_query *q, hpcdb_qcolumn col, uint32_t file, hpcdb_qline *out, uint32_t max, uint32_t *n) {
  query_lock(q);
  int rc = lines(q, col, file, out, max, n);
  query_unlock(q);
  return rc;
}
