/* Per-thread propagation over the unified tree. Every context starts with its
 * raw (point) value; then, children before parents (a child's index is
 * always larger than its parent's), each context adds into its parent:
 * execution always; function when the child's propagation bit 0 is set (a
 * lexical child, so the cost stays within the function); lex_aware like
 * function, except that a loop does not take in the loops nested directly in
 * it (loop_lex_take in lexical.c makes of that what hpcprof writes). */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/bytes.h"
#include "common/error.h"

/* The contexts this thread touches: its nodes' contexts, their ancestors
 * (an entry point made up for frames without one, or a function, loop or line
 * of a structure file, is no node's context) and the global context, in id
 * order; scratch->slot[id] is each one's row (a dense
 * map over the unified ids, kept from file to file and reset after use). */
static int touched_contexts(const unified_tree *t, const mapped_profile *maps, uint32_t n_trees,
                            propagate_scratch *scratch, thread_values *tv) {
  if (t->n_ids > scratch->n_slot) {
    uint32_t *slot = realloc(scratch->slot, (size_t)t->n_ids * sizeof *slot);
    if (!slot) return hpcdb_fail(HPCDB_ENOMEM, "out of memory propagating values");
    memset(slot + scratch->n_slot, 0xff, (size_t)(t->n_ids - scratch->n_slot) * sizeof *slot); /* HPCDB_NONE */
    scratch->slot = slot;
    scratch->n_slot = t->n_ids;
  }
  uint32_t *slot = scratch->slot, n = 0;
  slot[0] = n++;
  for (uint32_t k = 0; k < n_trees; k++) /* each node's contexts and their ancestors up to a marked one */
    for (uint32_t i = 0; i < maps[k].n_nodes; i++) {
      for (uint32_t c = maps[k].node_ctx[i]; slot[c] == HPCDB_NONE; c = t->info[c].parent) slot[c] = n++;
      for (uint32_t c = maps[k].node_rel[i]; slot[c] == HPCDB_NONE; c = t->info[c].parent) slot[c] = n++;
    }
  tv->ctx = malloc((size_t)n * sizeof *tv->ctx);
  if (!tv->ctx) {
    for (uint32_t k = 0; k < n_trees; k++) /* leave the map as it was */
      for (uint32_t i = 0; i < maps[k].n_nodes; i++) {
        for (uint32_t c = maps[k].node_ctx[i]; c != 0 && slot[c] != HPCDB_NONE; c = t->info[c].parent)
          slot[c] = HPCDB_NONE;
        for (uint32_t c = maps[k].node_rel[i]; c != 0 && slot[c] != HPCDB_NONE; c = t->info[c].parent)
          slot[c] = HPCDB_NONE;
      }
    slot[0] = HPCDB_NONE;
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory propagating values");
  }
  uint32_t k = 0;
  for (uint32_t id = 0; id < t->n_ids && k < n; id++)
    if (slot[id] != HPCDB_NONE) {
      tv->ctx[k] = id;
      slot[id] = k++;
    }
  tv->n_ctxs = n;
  return 0;
}

static double *cell(const thread_values *tv, uint32_t slot, uint32_t metric, int scope) {
  return &tv->v[((uint64_t)slot * tv->n_metrics + metric) * N_SCOPES + (uint64_t)scope];
}

/* Adds value to the raw (every scope's starting) value of a context. */
static void add_raw(thread_values *tv, const uint32_t *slot, uint32_t ctx, uint32_t metric, double value) {
  for (int s = 0; s < N_SCOPES; s++) *cell(tv, slot[ctx], metric, s) += value;
}

/* 04.00 metric flag byte 3: the value belongs to the frame's procedure (its
 * relation to the caller, mapped_profile.node_rel) rather than to the
 * instruction: hpcrun marks GPU kernels' time, counts and characteristics so,
 * and hpcprof puts them on the kernel's function when structure names it. */
#define HPCRUN_MFLAG_MOVE2PROC 3

static int add_sparse(thread_values *tv, const uint32_t *slot, const measured_tree *tr,
                      const mapped_profile *m, const uint32_t *metric_map) {
  const hpcrun_sparse *sp = tr->sparse;
  for (uint32_t k = 0; k < sp->n_nz_ctxs; k++) {
    uint32_t i = mapped_profile_index(m, sp->ctx_ids[k]);
    if (i == HPCDB_NONE)
      return hpcdb_fail(HPCDB_ECORRUPT, "values for node %u, which is not in the calling context tree",
                        sp->ctx_ids[k]);
    for (uint64_t v = sp->ctx_starts[k]; v < sp->ctx_starts[k + 1]; v++) {
      uint16_t mid = sp->metric_ids[v];
      if (metric_map[mid] == HPCDB_NONE) continue; /* a formula metric */
      const hpcrun_metric_desc *md = &tr->tab->metrics[mid];
      uint32_t ctx = md->flags[HPCRUN_MFLAG_MOVE2PROC] ? m->node_rel[i] : m->node_ctx[i];
      add_raw(tv, slot, ctx, metric_map[mid], hpcrun_metric_value(md, sp->value_bits[v]));
    }
  }
  return 0;
}

/* Dense values are in file node order; mapped_profile is by sorted id. */
static void add_dense(thread_values *tv, const uint32_t *slot, const measured_tree *tr, const uint32_t *keys,
                      const mapped_profile *m, const uint32_t *metric_map) {
  const hpcrun_tables *tab = tr->tab;
  for (uint64_t k = 0; k < tab->n_nodes; k++) {
    uint32_t ctx = mapped_profile_ctx(m, keys[k]);
    for (uint32_t mi = 0; mi < tab->n_metrics; mi++) {
      uint64_t bits = tr->dense[k * tab->n_metrics + mi];
      if (bits && metric_map[mi] != HPCDB_NONE) add_raw(tv, slot, ctx, metric_map[mi], hpcrun_metric_value(&tab->metrics[mi], bits));
    }
  }
}

int propagate_file(const unified_tree *t, uint32_t n_metrics, const measured_tree *trees, const mapped_profile *maps,
                   uint32_t *const *metric_maps, uint32_t n_trees, propagate_scratch *scratch, thread_values *tv) {
  memset(tv, 0, sizeof *tv);
  HPCDB_TRY(touched_contexts(t, maps, n_trees, scratch, tv));
  const uint32_t *slot = scratch->slot;
  tv->n_metrics = n_metrics;
  uint64_t cells;
  if (!mul_ok((uint64_t)tv->n_ctxs * N_SCOPES, tv->n_metrics ? tv->n_metrics : 1, &cells)) cells = UINT64_MAX;
  if (cells > scratch->n_v) { /* the rows are zero between files: new room is too */
    free(scratch->v);
    scratch->n_v = 0;
    if (cells > SIZE_MAX / sizeof *scratch->v || !(scratch->v = calloc(cells, sizeof *scratch->v))) {
      thread_values_free(tv, scratch);
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u contexts × %u metrics", tv->n_ctxs, tv->n_metrics);
    }
    scratch->n_v = cells;
  }
  tv->v = scratch->v;
  for (uint32_t k = 0; k < n_trees; k++) {
    int rc = 0;
    if (trees[k].sparse) {
      rc = add_sparse(tv, slot, &trees[k], &maps[k], metric_maps[k]);
    } else {
      add_dense(tv, slot, &trees[k], maps[k].file_keys, &maps[k], metric_maps[k]);
    }
    if (rc < 0) {
      thread_values_free(tv, scratch);
      return rc;
    }
  }
  for (uint32_t row = tv->n_ctxs; row-- > 1;) {
    const ctx_info *c = &t->info[tv->ctx[row]];
    uint32_t ps = slot[c->parent];
    int lexical = c->lexical;
    int loop_in_loop = c->loop && t->info[c->parent].loop;
    for (uint32_t mi = 0; mi < tv->n_metrics; mi++) {
      *cell(tv, ps, mi, SCOPE_EXECUTION) += *cell(tv, row, mi, SCOPE_EXECUTION);
      if (lexical) *cell(tv, ps, mi, SCOPE_FUNCTION) += *cell(tv, row, mi, SCOPE_FUNCTION);
      if (lexical && !loop_in_loop) *cell(tv, ps, mi, SCOPE_LEX_AWARE) += *cell(tv, row, mi, SCOPE_FUNCTION);
    }
  }
  return 0;
}

void thread_values_free(thread_values *tv, propagate_scratch *scratch) {
  if (tv->v) memset(tv->v, 0, (size_t)tv->n_ctxs * tv->n_metrics * N_SCOPES * sizeof *tv->v);
  for (uint32_t k = 0; k < tv->n_ctxs; k++) scratch->slot[tv->ctx[k]] = HPCDB_NONE;
  free(tv->ctx);
  memset(tv, 0, sizeof *tv);
}

void propagate_scratch_free(propagate_scratch *scratch) {
  free(scratch->slot);
  free(scratch->v);
  memset(scratch, 0, sizeof *scratch);
}
