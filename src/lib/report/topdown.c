/* The top-down view: the calling-context tree, children by inclusive cost
 * of the first metric, small ones folded, depth limited, or only the hot
 * path. Iterative (an explicit stack), since trees can be deep. */
#include <stdlib.h>

#include "common/error.h"
#include "report/table.h"

static const report_data *sort_data;

static int by_cost(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  double vx = rd_inc(sort_data, x, 0), vy = rd_inc(sort_data, y, 0);
  if (vx != vy) return vx > vy ? -1 : 1;
  return (x > y) - (x < y);
}

typedef struct item {
  uint32_t ctx;     /* HPCDB_NONE: a folded row */
  unsigned depth;
  uint32_t folded;  /* for folded rows: how many children */
  uint32_t sums;    /* for folded rows: where their summed values are */
} item;

int report_top_down(FILE *out, const report_data *d, const hpcdb_report_options *o) {
  const hpcdb_experiment *e = d->exp;
  table t;
  table_begin(&t, out, d, o, "top-down view (calling contexts)");
  item *stack = malloc(((size_t)e->n_contexts + 2) * 2 * sizeof *stack);
  uint32_t *kids = malloc(((size_t)e->n_contexts + 1) * sizeof *kids);
  /* summed values of folded rows: at most one per context */
  double *fold_inc = calloc(((size_t)e->n_contexts + 1) * d->n_cols, sizeof *fold_inc);
  double *fold_exc = calloc(((size_t)e->n_contexts + 1) * d->n_cols, sizeof *fold_exc);
  uint32_t n_folds = 0;
  if (!stack || !kids || !fold_inc || !fold_exc) {
    free(stack);
    free(kids);
    free(fold_inc);
    free(fold_exc);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the report");
  }
  double threshold = o->threshold > 0 ? o->threshold : 0.01;
  size_t n = 0;
  stack[n++] = (item){0, 0, 0, 0};
  char name[512];
  while (n > 0) {
    item it = stack[--n];
    if (it.ctx == HPCDB_NONE) { /* children folded below the threshold */
      snprintf(name, sizeof name, "[%u more, each below %.3g%% or past --top]", it.folded, threshold * 100);
      table_row(&t, it.depth, name, -1, &fold_inc[(size_t)it.sums * d->n_cols], &fold_exc[(size_t)it.sums * d->n_cols]);
      continue;
    }
    report_name(e, it.ctx, name, sizeof name);
    table_row(&t, it.depth, name, e->contexts[it.ctx].id, &d->inc[(size_t)it.ctx * d->n_cols], &d->exc[(size_t)it.ctx * d->n_cols]);
    if (o->depth && it.depth + 1 >= o->depth) continue;
    uint32_t nk = 0;
    for (uint32_t k = e->contexts[it.ctx].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling) kids[nk++] = k;
    sort_data = d;
    qsort(kids, nk, sizeof *kids, by_cost);
    uint32_t shown = 0;
    for (uint32_t i = 0; i < nk; i++) {
      int big = rd_inc(d, kids[i], 0) >= threshold * d->total[0] && rd_inc(d, kids[i], 0) != 0;
      if (o->hot_path) big = i == 0 && rd_inc(d, kids[i], 0) >= 0.5 * rd_inc(d, it.ctx, 0) && rd_inc(d, kids[i], 0) != 0;
      if (big && (!o->top || shown < o->top)) shown++;
      else break; /* sorted: the rest are smaller */
    }
    if (shown < nk && !o->hot_path) {
      double *fi = &fold_inc[(size_t)n_folds * d->n_cols], *fe = &fold_exc[(size_t)n_folds * d->n_cols];
      for (uint32_t i = shown; i < nk; i++)
        for (uint32_t c = 0; c < d->n_cols; c++) {
          fi[c] += rd_inc(d, kids[i], c);
          fe[c] += rd_exc(d, kids[i], c);
        }
      stack[n++] = (item){HPCDB_NONE, it.depth + 1, nk - shown, n_folds++};
    }
    for (uint32_t i = shown; i-- > 0;) stack[n++] = (item){kids[i], it.depth + 1, 0, it.ctx};
  }
  free(stack);
  free(kids);
  free(fold_inc);
  free(fold_exc);
  table_end(&t);
  return 0;
}
