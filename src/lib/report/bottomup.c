/* SPDX-License-Identifier: BSD-3-Clause */
/* The bottom-up and flat views: the query layer's rows (query/aggregate.h:
 * costs gathered by frame and by name, one implementation with the
 * viewer's), summed over report's columns and printed by exclusive cost. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/aggregate.h"
#include "report/table.h"

typedef struct sums {
  const agg_view *a;
  double *inc, *exc;     /* [row × n_cols + column] */
  uint64_t *iinc, *iexc; /* the same exact, for integer columns (report_data.iinc); NULL without any */
} sums;

static _Thread_local const sums *sort_sums; /* qsort has no user pointer; per thread */
static _Thread_local uint32_t sort_cols;
static int by_exclusive(const void *x, const void *y) {
  uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
  double a = sort_sums->exc[(size_t)i * sort_cols], b = sort_sums->exc[(size_t)j * sort_cols];
  if (a != b) return a > b ? -1 : 1;
  return strcmp(sort_sums->a->names[i], sort_sums->a->names[j]);
}

static int all_zero(const sums *s, uint32_t r, uint32_t n_cols) {
  for (uint32_t c = 0; c < n_cols; c++)
    if (s->inc[(size_t)r * n_cols + c] != 0 || s->exc[(size_t)r * n_cols + c] != 0) return 0;
  return 1;
}

static void put_row(table *t, const sums *s, uint32_t r, unsigned depth) {
  uint32_t nc = t->d->n_cols;
  table_row_exact(t, depth, s->a->names[r], -1, s->inc + (size_t)r * nc, s->exc + (size_t)r * nc,
                  s->iinc ? s->iinc + (size_t)r * nc : NULL, s->iexc ? s->iexc + (size_t)r * nc : NULL);
}

/* Prints the rows under parent (HPCDB_NONE: the top ones) in order (by exclusive cost), at most
 * limit of them, each followed by its own rows (at most per_group under each), depth first. */
static void print_rows(table *t, const sums *s, const uint32_t *order, uint32_t parent, unsigned depth, uint32_t limit,
                       uint32_t per_group) {
  const agg_view *a = s->a;
  uint32_t shown = 0;
  for (uint32_t i = 0; i < a->n_rows && shown < limit; i++) {
    uint32_t r = order[i];
    if (a->group[r] != parent || all_zero(s, r, t->d->n_cols)) continue; /* no zero rows */
    shown++;
    put_row(t, s, r, depth);
    if (a->n_members[r]) print_rows(t, s, order, r, depth + 1, per_group, per_group);
  }
}

static int print(table *t, const sums *s, uint32_t top, uint32_t per_group) {
  const agg_view *a = s->a;
  uint32_t n = a->n_rows, *order = malloc((n ? n : 1) * sizeof *order);
  if (!order) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the report");
  for (uint32_t i = 0; i < n; i++) order[i] = i;
  sort_sums = s;
  sort_cols = t->d->n_cols;
  qsort(order, n, sizeof *order, by_exclusive);
  print_rows(t, s, order, HPCDB_NONE, 0, top, per_group);
  free(order);
  return 0;
}

int report_bottom_up(FILE *out, const report_data *d, const hpcdb_report_options *o, int flat) {
  table t;
  table_begin(&t, out, d, o,
              flat ? "flat view (load module > file > function > loop > line)"
                   : "bottom-up view (functions and their callers)");
  agg_view a = {0};
  sums s = {&a, NULL, NULL, NULL, NULL};
  int rc = query_agg_build(d->exp, flat, o->functions_only && !flat, &a);
  if (rc == 0) {
    s.inc = calloc((size_t)a.n_rows * d->n_cols + 1, sizeof *s.inc);
    s.exc = calloc((size_t)a.n_rows * d->n_cols + 1, sizeof *s.exc);
    if (d->iinc) {
      s.iinc = calloc((size_t)a.n_rows * d->n_cols + 1, sizeof *s.iinc);
      s.iexc = calloc((size_t)a.n_rows * d->n_cols + 1, sizeof *s.iexc);
    }
    if (!s.inc || !s.exc || (d->iinc && (!s.iinc || !s.iexc)))
      rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for the report");
  }
  for (uint32_t c = 0; rc == 0 && c < d->n_cols; c++) {
    query_agg_sum(d->exp, &a, d->self + c, d->inc + c, d->n_cols, s.inc + c, s.exc + c, d->n_cols);
    if (d->cols[c].integer && s.iinc)
      query_agg_sum_integers(d->exp, &a, d->iself + c, d->iinc + c, d->n_cols, s.iinc + c, s.iexc + c, d->n_cols);
  }
  if (rc == 0) rc = print(&t, &s, o->top ? o->top : 25, flat ? 10 : 5);
  table_end(&t);
  free(s.inc);
  free(s.exc);
  free(s.iinc);
  free(s.iexc);
  query_agg_free(&a);
  return rc;
}
