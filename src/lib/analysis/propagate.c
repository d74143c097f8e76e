/* Per-thread propagation over the unified tree. Every context starts with its
 * raw (point) value; then, children before parents (a child's index is
 * always larger than its parent's), each context adds into its parent:
 * execution always; function when the child's propagation bit 0 is set (a
 * lexical child, so the cost stays within the function); lex_aware like
 * function, except that a loop does not take in its nested loops. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/bytes.h"
#include "common/error.h"

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static uint32_t slot_of(const thread_values *tv, uint32_t ctx) {
  uint32_t lo = 0, hi = tv->n_ctxs;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (tv->ctx[mid] < ctx) lo = mid + 1; else hi = mid;
  }
  return lo < tv->n_ctxs && tv->ctx[lo] == ctx ? lo : HPCDB_NONE;
}

/* The contexts this thread touches: its nodes' contexts, their parents (an
 * entry point made up for frames without one is no node's context) and the
 * global context. */
static int touched_contexts(const unified_tree *t, const mapped_profile *m, thread_values *tv) {
  uint64_t total = 2 * (uint64_t)m->n_nodes + 1;
  tv->ctx = malloc(total * sizeof *tv->ctx);
  if (!tv->ctx) return hpcdb_fail(HPCDB_ENOMEM, "out of memory propagating values");
  for (uint32_t i = 0; i < m->n_nodes; i++) {
    uint32_t c = m->node_ctx[i];
    tv->ctx[2 * i] = c;
    tv->ctx[2 * i + 1] = t->info[c].parent;
  }
  tv->ctx[total - 1] = 0;
  qsort(tv->ctx, total, sizeof *tv->ctx, cmp_u32);
  uint32_t n = 0;
  for (uint64_t i = 0; i < total; i++)
    if (n == 0 || tv->ctx[i] != tv->ctx[n - 1]) tv->ctx[n++] = tv->ctx[i];
  tv->n_ctxs = n;
  return 0;
}

static double *cell(const thread_values *tv, uint32_t slot, uint32_t metric, int scope) {
  return &tv->v[((uint64_t)slot * tv->n_metrics + metric) * N_SCOPES + (uint64_t)scope];
}

int propagate_file(const unified_tree *t, const hpcrun_file *f, const mapped_profile *m,
                   const uint32_t *metric_map, thread_values *tv) {
  memset(tv, 0, sizeof *tv);
  HPCDB_TRY(touched_contexts(t, m, tv));
  tv->n_metrics = t->exp->n_metrics;
  uint64_t cells;
  if (!mul_ok((uint64_t)tv->n_ctxs * N_SCOPES, tv->n_metrics ? tv->n_metrics : 1, &cells) ||
      !(tv->v = calloc(cells, sizeof *tv->v))) {
    thread_values_free(tv);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u contexts × %u metrics", tv->n_ctxs, tv->n_metrics);
  }
  const hpcrun_sparse *sp = &f->sparse;
  for (uint32_t k = 0; k < sp->n_nz_ctxs; k++) {
    uint32_t ctx = mapped_profile_ctx(m, sp->ctx_ids[k]);
    if (ctx == HPCDB_NONE) {
      thread_values_free(tv);
      return hpcdb_fail(HPCDB_ECORRUPT, "values for node %u, which is not in the calling context tree",
                        sp->ctx_ids[k]);
    }
    uint32_t slot = slot_of(tv, ctx);
    for (uint64_t v = sp->ctx_starts[k]; v < sp->ctx_starts[k + 1]; v++) {
      uint16_t mid = sp->metric_ids[v];
      double value = hpcrun_metric_value(&f->t.metrics[mid], sp->value_bits[v]);
      for (int s = 0; s < N_SCOPES; s++) *cell(tv, slot, metric_map[mid], s) += value;
    }
  }
  for (uint32_t slot = tv->n_ctxs; slot-- > 1;) {
    const ctx_info *c = &t->info[tv->ctx[slot]];
    uint32_t ps = slot_of(tv, c->parent);
    int lexical = c->lexical;
    int loop_in_loop = c->loop && t->info[c->parent].loop;
    for (uint32_t mi = 0; mi < tv->n_metrics; mi++) {
      *cell(tv, ps, mi, SCOPE_EXECUTION) += *cell(tv, slot, mi, SCOPE_EXECUTION);
      if (lexical) *cell(tv, ps, mi, SCOPE_FUNCTION) += *cell(tv, slot, mi, SCOPE_FUNCTION);
      if (lexical && !loop_in_loop) *cell(tv, ps, mi, SCOPE_LEX_AWARE) += *cell(tv, slot, mi, SCOPE_LEX_AWARE);
    }
  }
  return 0;
}

void thread_values_free(thread_values *tv) {
  free(tv->ctx);
  free(tv->v);
  memset(tv, 0, sizeof *tv);
}
