/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcprof's lex_aware scope, as its databases show it (checked against
 * expected/loops-cputime-t.d): a thread's lex_aware value is its function
 * value everywhere, but the summary's lex_aware value of a loop leaves out
 * the loops nested directly in it: it is the sum over threads of the loop's
 * own value plus its lexical children's function values, loops excepted.
 * Propagation computes that loop-exclusive value in the lex_aware cells;
 * here the loops' values are taken aside for the summary and the cells get
 * the function values the threads store. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/error.h"
#include "common/vec.h"

int loop_lex_take(const unified_tree *t, thread_values *tv, loop_lex_list *out) {
  memset(out, 0, sizeof *out);
  uint64_t cap = 0;
  for (uint32_t row = 0; row < tv->n_ctxs; row++) {
    double *v = tv->v + (uint64_t)row * tv->n_metrics * N_SCOPES;
    int loop = t->info[tv->ctx[row]].loop;
    for (uint32_t m = 0; m < tv->n_metrics; m++, v += N_SCOPES) {
      if (loop && v[SCOPE_FUNCTION] != 0) {
        if (VEC_RESERVE(&out->items, &cap, (uint64_t)out->n + 1) < 0) {
          loop_lex_list_free(out);
          return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
        }
        out->items[out->n++] = (loop_lex_value){tv->ctx[row], m, v[SCOPE_LEX_AWARE]};
      }
      v[SCOPE_LEX_AWARE] = v[SCOPE_FUNCTION];
    }
  }
  return 0;
}

void loop_lex_list_free(loop_lex_list *l) {
  free(l->items);
  memset(l, 0, sizeof *l);
}

int loop_lex_add(loop_lex_summary *s, const loop_lex_list *l) {
  for (uint32_t i = 0; i < l->n; i++) {
    const loop_lex_value *x = &l->items[i];
    if (x->ctx >= s->n_is_loop) { /* the items come context by context: once per context */
      uint64_t old = s->n_is_loop;
      if (VEC_RESERVE(&s->is_loop, &s->n_is_loop, (uint64_t)x->ctx + 1) < 0)
        return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
      memset(s->is_loop + old, 0, s->n_is_loop - old);
    }
    s->is_loop[x->ctx] = 1;
    if (x->value == 0) continue;
    int first;
    double *cell = loop_lex_cell(s, x->ctx, x->metric, &first);
    if (!cell) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    summary_accumulate(cell, s->all_stats, first, x->value);
  }
  return 0;
}

double *loop_lex_cell(loop_lex_summary *s, uint32_t ctx, uint32_t metric, int *first) {
  uint64_t np = s->all_stats ? N_PARTIALS : 1, key = (uint64_t)ctx << 32 | metric, idx;
  *first = !u64map_get(&s->cells, key, &idx);
  if (*first) {
    idx = s->n;
    if (VEC_RESERVE(&s->acc, &s->cap, (s->n + 1) * np) < 0 || u64map_put(&s->cells, key, idx) != 0) return NULL;
    s->n++;
    memset(&s->acc[idx * np], 0, np * sizeof *s->acc);
  }
  return &s->acc[idx * np];
}

const double *loop_lex_summary_get(const loop_lex_summary *s, uint32_t ctx, uint32_t metric, int *is_loop) {
  uint64_t idx;
  *is_loop = s && ctx < s->n_is_loop && s->is_loop[ctx];
  if (!*is_loop || !u64map_get(&s->cells, (uint64_t)ctx << 32 | metric, &idx)) return NULL;
  return &s->acc[idx * (s->all_stats ? N_PARTIALS : 1)];
}

void loop_lex_summary_free(loop_lex_summary *s) {
  free(s->is_loop);
  u64map_free(&s->cells);
  free(s->acc);
  int all = s->all_stats;
  memset(s, 0, sizeof *s);
  s->all_stats = all;
}
