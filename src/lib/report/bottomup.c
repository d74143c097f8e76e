/* The bottom-up and flat views: costs gathered by frame (a function, or an
 * instruction reached by a call when there is no function), by name. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "report/table.h"
#include "query/names.h"

typedef struct agg {
  char *name;
  double inc[REPORT_MAX_COLUMNS], exc[REPORT_MAX_COLUMNS];
  uint64_t iinc[REPORT_MAX_COLUMNS], iexc[REPORT_MAX_COLUMNS]; /* the integer columns' exact sums (d->iinc) */
  uint32_t group; /* bottom-up: the callee's row; flat: the module's row; HPCDB_NONE: a top row */
} agg;

typedef struct aggs {
  agg *rows;
  uint64_t n, cap;
  hpcdb_u64map index; /* hash(group, name) -> row */
} aggs;

static uint32_t row_of(aggs *a, uint32_t group, const char *name) {
  uint64_t key = hash_u64(hash_bytes(name, strlen(name)) ^ group), at;
  while (u64map_get(&a->index, key, &at)) {
    if (a->rows[at].group == group && !strcmp(a->rows[at].name, name)) return (uint32_t)at;
    key = hash_u64(key + 1); /* a collision: probe on */
  }
  if (a->n == a->cap) {
    uint64_t cap = a->cap ? 2 * a->cap : 256;
    agg *rows = realloc(a->rows, cap * sizeof *rows);
    if (!rows) return HPCDB_NONE;
    a->rows = rows;
    a->cap = cap;
  }
  agg *r = &a->rows[a->n];
  memset(r, 0, sizeof *r);
  r->group = group;
  if (!(r->name = malloc(strlen(name) + 1)) || u64map_put(&a->index, key, a->n) != 0) return HPCDB_NONE;
  memcpy(r->name, name, strlen(name) + 1);
  return (uint32_t)a->n++;
}

static void aggs_free(aggs *a) {
  for (uint64_t i = 0; i < a->n; i++) free(a->rows[i].name);
  free(a->rows);
  u64map_free(&a->index);
}

static const aggs *sort_aggs;
static int by_exclusive(const void *x, const void *y) {
  const agg *a = &sort_aggs->rows[*(const uint32_t *)x], *b = &sort_aggs->rows[*(const uint32_t *)y];
  if (a->exc[0] != b->exc[0]) return a->exc[0] > b->exc[0] ? -1 : 1;
  return strcmp(a->name, b->name);
}

static int all_zero(const agg *r, uint32_t n_cols) {
  for (uint32_t c = 0; c < n_cols; c++)
    if (r->inc[c] != 0 || r->exc[c] != 0) return 0;
  return 1;
}

/* Prints top rows (group NONE) by exclusive cost and under each its group members. */
static int print(table *t, aggs *a, uint32_t top, uint32_t per_group) {
  uint32_t *order = malloc((a->n ? a->n : 1) * sizeof *order);
  if (!order) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the report");
  uint32_t n = 0;
  for (uint32_t i = 0; i < a->n; i++) order[n++] = i;
  sort_aggs = a;
  qsort(order, n, sizeof *order, by_exclusive);
  uint32_t shown = 0;
  for (uint32_t i = 0; i < n && (!top || shown < top); i++) {
    const agg *r = &a->rows[order[i]];
    if (r->group != HPCDB_NONE || all_zero(r, t->d->n_cols)) continue; /* no zero rows */
    shown++;
    table_row_exact(t, 0, r->name, -1, r->inc, r->exc, t->d->iinc ? r->iinc : NULL, t->d->iinc ? r->iexc : NULL);
    uint32_t members = 0;
    for (uint32_t k = 0; k < n && members < per_group; k++) {
      const agg *m = &a->rows[order[k]];
      if (m->group != order[i] || all_zero(m, t->d->n_cols)) continue;
      table_row_exact(t, 1, m->name, -1, m->inc, m->exc, t->d->iinc ? m->iinc : NULL, t->d->iinc ? m->iexc : NULL);
      members++;
    }
  }
  free(order);
  return 0;
}

int report_bottom_up(FILE *out, const report_data *d, const hpcdb_report_options *o, int flat) {
  const hpcdb_experiment *e = d->exp;
  table t;
  table_begin(&t, out, d, o, flat ? "flat view (load module > function)" : "bottom-up view (functions and their callers)");
  aggs a = {0};
  char name[512], other[512];
  int rc = 0;
  for (uint32_t i = 1; i < e->n_contexts && rc == 0; i++) {
    if (e->contexts[i].kind != HPCDB_CTX_NORMAL) continue;
    int fo = o->functions_only && !flat;
    uint32_t f = report_frame(e, i, fo);
    if (f == 0 || e->contexts[f].kind != HPCDB_CTX_NORMAL) continue;
    report_name(e, f, name, sizeof name);
    uint32_t top = flat ? row_of(&a, HPCDB_NONE, query_module_name(e, f)) : row_of(&a, HPCDB_NONE, name);
    uint32_t member;
    if (flat) {
      member = row_of(&a, top, name);
    } else {
      uint32_t caller = report_frame(e, e->contexts[f].parent, fo);
      report_name(e, caller, other, sizeof other);
      member = row_of(&a, top, other);
    }
    if (top == HPCDB_NONE || member == HPCDB_NONE) {
      rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for the report");
      break;
    }
    int counts_inclusive = i == f && !query_frame_nested(e, f, name, fo);
    for (uint32_t c = 0; c < d->n_cols; c++) {
      double x = rd_self(d, i, c), y = counts_inclusive ? rd_inc(d, f, c) : 0;
      a.rows[top].exc[c] += x;
      a.rows[member].exc[c] += x;
      a.rows[member].inc[c] += y;
      a.rows[top].inc[c] += flat ? x : y; /* a module's own cost: inclusive is not defined for it */
      if (!d->iinc) continue;
      uint64_t ix = d->iself[(size_t)i * d->n_cols + c], iy = counts_inclusive ? d->iinc[(size_t)f * d->n_cols + c] : 0;
      a.rows[top].iexc[c] += ix;
      a.rows[member].iexc[c] += ix;
      a.rows[member].iinc[c] += iy;
      a.rows[top].iinc[c] += flat ? ix : iy;
    }
  }
  if (rc == 0) rc = print(&t, &a, o->top ? o->top : 25, flat ? 10 : 5);
  table_end(&t);
  aggs_free(&a);
  return rc;
}
