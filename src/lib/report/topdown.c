/* SPDX-License-Identifier: BSD-3-Clause */
/* The top-down view: the calling-context tree, children by inclusive cost
 * of the first metric, small ones folded, depth limited, or only the hot
 * path. What a row's children are depends on the options (td_kids):
 * with functions_only, lines, loops and inlined calls fold into their
 * function; with HPCDB_COLLAPSE_LIBS, a system or runtime library's calls
 * within itself fold into the frame that entered it (a program's own
 * libraries never: report_runtime_library); with HPCDB_COLLAPSE_CHAINS, frames that
 * are their parent's only child, have one child and no cost of their own
 * are left out (the row below says how many). Scopes without a line are
 * never rows (query/shown.h): their cost is their parent's. Iterative (explicit stacks),
 * since trees can be deep. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/names.h"
#include "query/shown.h"
#include "report/table.h"

static _Thread_local const report_data *sort_data; /* qsort has no user pointer; per thread */

static int by_cost(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  double vx = rd_inc(sort_data, x, 0), vy = rd_inc(sort_data, y, 0);
  if (vx != vy) return vx > vy ? -1 : 1;
  return (x > y) - (x < y);
}

typedef struct item {
  uint32_t ctx; /* HPCDB_NONE: a folded row */
  unsigned depth;
  uint32_t folded; /* for folded rows: how many children */
  uint32_t sums;   /* for folded rows: where their summed values are */
  uint32_t chain;  /* frames of a chain left out above this one */
  int only_child;  /* its parent showed no other child */
  int twin;        /* a sibling row has its name: the call site tells them apart */
} item;

typedef struct td {
  const report_data *d;
  const hpcdb_report_options *o;
  const hpcdb_experiment *e;
  uint32_t *kids, *walk;             /* scratch: a row's children; the walk below it */
  double exc[REPORT_MAX_COLUMNS];    /* the row's exclusive values, with what folds into it */
  uint64_t iexc[REPORT_MAX_COLUMNS]; /* the same exact, for integer columns (d->iinc) */
  uint32_t hidden;                   /* library frames folded into the row */
  uint32_t lib;                      /* their library (a module index) */
  uint8_t *twin;                     /* scratch per context: query_mark_twins' (zero between rows) */
  query_named *names;                /* its scratch */
} td;

static int is_frame(const hpcdb_context *c) { return c->kind != HPCDB_CTX_NORMAL || c->relation == HPCDB_REL_CALL; }

/* The load module of a context (its own, else its function's), when it is a system or runtime library. */
static uint32_t library_of(const hpcdb_experiment *e, uint32_t ctx) {
  const hpcdb_context *c = &e->contexts[ctx];
  uint32_t m = c->module != HPCDB_NONE     ? c->module
               : c->function != HPCDB_NONE ? e->functions[c->function].module
                                           : HPCDB_NONE;
  return m != HPCDB_NONE && report_runtime_library(e->modules[m].path) ? m : HPCDB_NONE;
}

static int nonzero(const report_data *d, uint32_t ctx) {
  for (uint32_t c = 0; c < d->n_cols; c++)
    if (rd_inc(d, ctx, c) != 0) return 1;
  return 0;
}

/* The children ctx's row shows, into t->kids (unsorted); t->exc and t->hidden
 * for the row. Contexts folded into the row give it their own cost. */
static uint32_t td_kids(td *t, uint32_t ctx) {
  const hpcdb_experiment *e = t->e;
  const report_data *d = t->d;
  int functions = t->o->functions_only && ctx != 0;
  uint32_t lib = t->o->collapse & HPCDB_COLLAPSE_LIBS && ctx != 0 ? library_of(e, ctx) : HPCDB_NONE;
  uint32_t n = 0, w = 0;
  t->hidden = 0;
  t->lib = lib;
  const uint64_t *own = functions || lib != HPCDB_NONE ? d->iself : d->iexc;
  for (uint32_t c = 0; c < d->n_cols; c++) {
    t->exc[c] = functions || lib != HPCDB_NONE ? rd_self(d, ctx, c) : rd_exc(d, ctx, c);
    t->iexc[c] = own ? own[(size_t)ctx * d->n_cols + c] : 0;
  }
  for (uint32_t k = e->contexts[ctx].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling) t->walk[w++] = k;
  while (w > 0) {
    uint32_t k = t->walk[--w];
    if (!nonzero(d, k)) continue; /* no zero rows */
    int fold = functions && !is_frame(&e->contexts[k]);
    int in_lib = lib != HPCDB_NONE && library_of(e, k) == lib;
    int hidden = query_hidden(e, k, t->o->all_scopes ? QUERY_SHOW_ADDRESS_LOOPS : 0);
    if (!fold && !in_lib && !hidden) {
      t->kids[n++] = k;
      continue;
    }
    if (in_lib && is_frame(&e->contexts[k])) t->hidden++;
    /* the row's exclusive value is its own plus what folds into it, or the stored one, which holds
     * its lexical scopes already */
    for (uint32_t c = 0; (functions || lib != HPCDB_NONE) && c < d->n_cols; c++)
      t->exc[c] += rd_self(d, k, c), t->iexc[c] += d->iself ? d->iself[(size_t)k * d->n_cols + c] : 0;
    for (uint32_t g = e->contexts[k].first_child; g != HPCDB_NONE; g = e->contexts[g].next_sibling) t->walk[w++] = g;
  }
  for (uint32_t c = 0; c < d->n_cols; c++) /* sums of inclusive-minus-children leave rounding noise */
    if (fabs(t->exc[c]) <= 1e-9 * fabs(d->total[c])) t->exc[c] = 0;
  return n;
}

static void row_name(const td *t, const item *it, char *name, size_t size) {
  size_t n = query_named_at_site(t->e, it->ctx, it->twin, name, size);
  if (n >= size) return;
  if (t->hidden) { /* which library: the row's name says it, or the fold does */
    const char *lib = query_module_display(t->e->modules[t->lib].path);
    const char *plural = t->hidden == 1 ? "" : "s";
    if (strstr(name, lib)) n += (size_t)snprintf(name + n, size - n, " [+%u library frame%s]", t->hidden, plural);
    else n += (size_t)snprintf(name + n, size - n, " [+%u frame%s in %s]", t->hidden, plural, lib);
  }
  if (it->chain && n < size)
    snprintf(name + n, size - n, " (after %u single call%s)", it->chain, it->chain == 1 ? "" : "s");
}

int report_top_down(FILE *out, const report_data *d, const hpcdb_report_options *o) {
  const hpcdb_experiment *e = d->exp;
  table t;
  table_begin(&t, out, d, o, "top-down view (calling contexts)");
  td v = {d, o, e, NULL, NULL, {0}, {0}, 0, HPCDB_NONE, NULL, NULL};
  size_t n_ctx = (size_t)e->n_contexts + 2;
  item *stack = malloc(n_ctx * 2 * sizeof *stack);
  v.kids = malloc(n_ctx * sizeof *v.kids);
  v.walk = malloc(n_ctx * sizeof *v.walk);
  v.twin = calloc(n_ctx, 1);
  v.names = malloc(n_ctx * sizeof *v.names);
  /* summed values of folded rows: at most one per context */
  double *fold_inc = calloc(n_ctx * d->n_cols, sizeof *fold_inc);
  double *fold_exc = calloc(n_ctx * d->n_cols, sizeof *fold_exc);
  uint64_t *fold_iinc = d->iinc ? calloc(n_ctx * d->n_cols, sizeof *fold_iinc) : NULL; /* and exact, integer columns */
  uint64_t *fold_iexc = d->iinc ? calloc(n_ctx * d->n_cols, sizeof *fold_iexc) : NULL;
  uint32_t n_folds = 0;
  int rc = 0;
  if (!stack || !v.kids || !v.walk || !v.twin || !v.names || !fold_inc || !fold_exc ||
      (d->iinc && (!fold_iinc || !fold_iexc))) {
    rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for the report");
    goto done;
  }
  double threshold = o->threshold > 0 ? o->threshold : 0.01;
  size_t n = 0;
  stack[n++] = (item){0, 0, 0, 0, 0, 0, 0};
  char name[640];
  while (n > 0) {
    item it = stack[--n];
    if (it.ctx == HPCDB_NONE) { /* children folded below the threshold */
      snprintf(name, sizeof name, "[%u more, each below %.3g%% or past --top]", it.folded, threshold * 100);
      size_t at = (size_t)it.sums * d->n_cols;
      table_row_exact(&t, it.depth, name, -1, &fold_inc[at], &fold_exc[at], fold_iinc ? &fold_iinc[at] : NULL,
                      fold_iexc ? &fold_iexc[at] : NULL);
      continue;
    }
    uint32_t nk = td_kids(&v, it.ctx);
    sort_data = d;
    qsort(v.kids, nk, sizeof *v.kids, by_cost);
    uint32_t shown = 0;
    for (uint32_t i = 0; i < nk; i++) {
      int big = rd_inc(d, v.kids[i], 0) >= threshold * d->total[0] && rd_inc(d, v.kids[i], 0) != 0;
      if (o->hot_path)
        big = i == 0 && rd_inc(d, v.kids[i], 0) >= 0.5 * rd_inc(d, it.ctx, 0) && rd_inc(d, v.kids[i], 0) != 0;
      if (big && (!o->top || shown < o->top)) shown++;
      else break; /* sorted: the rest are smaller */
    }
    double rest = 0; /* the first metric's part of the children not shown */
    for (uint32_t i = shown; i < nk; i++) rest += rd_inc(d, v.kids[i], 0);
    int folds = shown < nk && !o->hot_path && rest != 0;
    /* a link of a chain: its parent's only child, one child of its own, no cost of its own */
    if ((o->collapse & HPCDB_COLLAPSE_CHAINS) && it.only_child && shown == 1 && !folds && !v.hidden &&
        (!o->depth || it.depth + 1 < o->depth) && v.exc[0] < threshold * d->total[0] &&
        e->contexts[it.ctx].kind == HPCDB_CTX_NORMAL) {
      stack[n++] = (item){v.kids[0], it.depth, 0, 0, it.chain + 1, 1, 0};
      continue;
    }
    row_name(&v, &it, name, sizeof name);
    table_row_exact(&t, it.depth, name, e->contexts[it.ctx].id, &d->inc[(size_t)it.ctx * d->n_cols], v.exc,
                    rd_iinc(d, it.ctx), d->iinc ? v.iexc : NULL);
    if (o->depth && it.depth + 1 >= o->depth) continue;
    if (folds) {
      size_t at = (size_t)n_folds * d->n_cols;
      double *fi = &fold_inc[at], *fe = &fold_exc[at];
      for (uint32_t i = shown; i < nk; i++)
        for (uint32_t c = 0; c < d->n_cols; c++) {
          size_t cell = (size_t)v.kids[i] * d->n_cols + c;
          uint64_t ia = d->iinc ? d->iinc[cell] : 0, ib = d->iinc ? d->iexc[cell] : 0;
          double a = rd_inc(d, v.kids[i], c), b = rd_exc(d, v.kids[i], c);
          int first = i == shown, lower = d->cols[c].extreme == HPCDB_COMBINE_MIN;
          if (!d->cols[c].extreme) {
            fi[c] += a, fe[c] += b;
            if (fold_iinc) fold_iinc[at + c] += ia, fold_iexc[at + c] += ib;
          } else if (first || (lower ? a < fi[c] : a > fi[c])) { /* the folded rows' minimum or maximum */
            fi[c] = a;
            if (fold_iinc) fold_iinc[at + c] = ia;
          }
          if (d->cols[c].extreme && (first || (lower ? b < fe[c] : b > fe[c]))) {
            fe[c] = b;
            if (fold_iexc) fold_iexc[at + c] = ib;
          }
        }
      stack[n++] = (item){HPCDB_NONE, it.depth + 1, nk - shown, n_folds++, 0, 0, 0};
    }
    /* the first frame below an entry point (main) is never hidden in a chain */
    int chain = shown == 1 && !folds && e->contexts[it.ctx].kind == HPCDB_CTX_NORMAL;
    query_mark_twins(e, v.kids, shown, v.twin, v.names);
    for (uint32_t i = shown; i-- > 0;) {
      stack[n++] = (item){v.kids[i], it.depth + 1, 0, 0, 0, chain, v.twin[v.kids[i]]};
      v.twin[v.kids[i]] = 0;
    }
  }
done:
  free(stack);
  free(v.kids);
  free(v.walk);
  free(v.twin);
  free(v.names);
  free(fold_inc);
  free(fold_exc);
  free(fold_iinc);
  free(fold_iexc);
  table_end(&t);
  return rc;
}
