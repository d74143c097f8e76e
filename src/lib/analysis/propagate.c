/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-thread propagation over the unified tree. Every context starts with its
 * raw (point) value; then, children before parents (a child's index is
 * always larger than its parent's), each context adds into its parent:
 * execution always; function when the child's propagation bit 0 is set (a
 * lexical child, so the cost stays within the function); lex_aware like
 * function, except that a loop does not take in the loops nested directly in
 * it (loop_lex_take in lexical.c makes of that what hpcprof writes).
 *
 * The distributed analysis splits this: collect_raw keeps a file's values as
 * raw cells (against the rank's own tree, right after unification),
 * propagate_raw starts from them later (against the run's tree): the same
 * additions in the same order, so the same values to the bit. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/bytes.h"
#include "common/error.h"

/* Makes scratch->slot a map over t's ids (HPCDB_NONE where unused), and its
 * bits of touched contexts. */
static int slot_room(const unified_tree *t, propagate_scratch *scratch) {
  if (t->n_ids > scratch->n_slot) {
    uint32_t *slot = realloc(scratch->slot, (size_t)t->n_ids * sizeof *slot);
    if (!slot) return hpcdb_fail(HPCDB_ENOMEM, "out of memory propagating values");
    scratch->slot = slot;
    uint64_t words = (scratch->n_slot + 63) / 64, nwords = ((uint64_t)t->n_ids + 63) / 64;
    uint64_t *marked = realloc(scratch->marked, (size_t)nwords * sizeof *marked);
    if (!marked) return hpcdb_fail(HPCDB_ENOMEM, "out of memory propagating values");
    memset(slot + scratch->n_slot, 0xff, (size_t)(t->n_ids - scratch->n_slot) * sizeof *slot); /* HPCDB_NONE */
    memset(marked + words, 0, (size_t)(nwords - words) * sizeof *marked);
    scratch->marked = marked;
    scratch->n_slot = t->n_ids;
  }
  return 0;
}

/* A context touched (its row is given in id order later). */
static inline void touch(propagate_scratch *scratch, uint32_t c, uint32_t *n) {
  scratch->slot[c] = (*n)++;
  scratch->marked[c / 64] |= 1ull << (c % 64);
}

/* Forgets the touched contexts (out of memory before their rows were given). */
static void untouch(propagate_scratch *scratch, uint32_t n_ids) {
  for (uint32_t w = 0; w < (n_ids + 63) / 64; w++)
    for (uint64_t x = scratch->marked[w]; x; x &= x - 1)
      scratch->slot[64 * w + (uint32_t)__builtin_ctzll(x)] = HPCDB_NONE;
  memset(scratch->marked, 0, (size_t)((n_ids + 63) / 64) * sizeof *scratch->marked);
}

/* The n touched contexts in id order, each one's row (a thread touches few
 * of a large tree: the bits find them 64 ids at a time). */
static void rows_in_id_order(const unified_tree *t, propagate_scratch *scratch, uint32_t n, thread_values *tv) {
  uint32_t k = 0;
  for (uint32_t w = 0; w < (t->n_ids + 63) / 64 && k < n; w++) {
    for (uint64_t x = scratch->marked[w]; x; x &= x - 1) {
      uint32_t id = 64 * w + (uint32_t)__builtin_ctzll(x);
      tv->ctx[k] = id;
      scratch->slot[id] = k++;
    }
    scratch->marked[w] = 0;
  }
  tv->n_ctxs = n;
}

/* The contexts this thread touches: its nodes' contexts, their ancestors
 * (an entry point made up for frames without one, or a function, loop or line
 * of a structure file, is no node's context) and the global context, in id
 * order; scratch->slot[id] is each one's row (a dense
 * map over the unified ids, kept from file to file and reset after use). */
static int touched_contexts(const unified_tree *t, const mapped_profile *maps, uint32_t n_trees,
                            propagate_scratch *scratch, thread_values *tv) {
  HPCDB_TRY(slot_room(t, scratch));
  const uint32_t *slot = scratch->slot;
  uint32_t n = 0;
  touch(scratch, 0, &n);
  for (uint32_t k = 0; k < n_trees; k++) /* each node's contexts and their ancestors up to a marked one */
    for (uint32_t i = 0; i < maps[k].n_nodes; i++) {
      for (uint32_t c = maps[k].node_ctx[i]; slot[c] == HPCDB_NONE; c = t->info[c].parent) touch(scratch, c, &n);
      for (uint32_t c = maps[k].node_rel[i]; slot[c] == HPCDB_NONE; c = t->info[c].parent) touch(scratch, c, &n);
    }
  if (!(tv->ctx = malloc((size_t)n * sizeof *tv->ctx))) {
    untouch(scratch, t->n_ids); /* leave the map as it was */
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory propagating values");
  }
  rows_in_id_order(t, scratch, n, tv);
  return 0;
}

static double *cell(const thread_values *tv, uint32_t slot, uint32_t metric, int scope) {
  return &tv->v[((uint64_t)slot * tv->n_metrics + metric) * N_SCOPES + (uint64_t)scope];
}

/* Adds value to the raw (every scope's starting) value of a context. */
static void add_raw(thread_values *tv, const uint32_t *slot, uint32_t ctx, uint32_t metric, double value) {
  for (int s = 0; s < N_SCOPES; s++) *cell(tv, slot[ctx], metric, s) += value;
}

/* Where a file's values go, one at a time, in file order: a thread's rows
 * (propagate_file) or its raw cells (collect_raw). */
typedef struct value_sink {
  thread_values *tv; /* propagate_file's rows, or NULL */
  const uint32_t *slot;
  raw_profile *raw; /* collect_raw's cells, room made for every value */
} value_sink;

/* A value kept as it comes: propagate_raw adds a cell's values in the same
 * order as propagate_file, so the sums are the same to the bit (a zero adds
 * nothing to any of them). */
static inline void raw_put(raw_profile *r, uint32_t ctx, uint32_t metric, double value) {
  if (value == 0) return;
  r->ctx[r->n] = ctx;
  r->metric[r->n] = (uint16_t)metric;
  r->value[r->n++] = value;
}

static inline void put_value(const value_sink *out, uint32_t ctx, uint32_t metric, double value) {
  if (out->tv) add_raw(out->tv, out->slot, ctx, metric, value);
  else raw_put(out->raw, ctx, metric, value);
}

/* 04.00 metric flag byte 3: the value belongs to the frame's procedure (its
 * relation to the caller, mapped_profile.node_rel) rather than to the
 * instruction: hpcrun marks GPU kernels' time, counts and characteristics so,
 * and hpcprof puts them on the kernel's function when structure names it. */
#define HPCRUN_MFLAG_MOVE2PROC 3

static int add_sparse(const value_sink *out, const measured_tree *tr, const mapped_profile *m,
                      const uint32_t *metric_map) {
  const hpcrun_sparse *sp = tr->sparse;
  for (uint32_t k = 0; k < sp->n_nz_ctxs; k++) {
    uint32_t i = mapped_profile_index(m, sp->ctx_ids[k]);
    if (i == HPCDB_NONE)
      return hpcdb_fail(HPCDB_ECORRUPT, "values for node %u, which is not in the calling context tree", sp->ctx_ids[k]);
    for (uint64_t v = sp->ctx_starts[k]; v < sp->ctx_starts[k + 1]; v++) {
      uint16_t mid = sp->metric_ids[v];
      if (metric_map[mid] == HPCDB_NONE) continue; /* a formula metric */
      const hpcrun_metric_desc *md = &tr->tab->metrics[mid];
      uint32_t ctx = md->flags[HPCRUN_MFLAG_MOVE2PROC] ? m->node_rel[i] : m->node_ctx[i];
      put_value(out, ctx, metric_map[mid], hpcrun_metric_sampled_value(md, sp->value_bits[v]));
    }
  }
  return 0;
}

/* Dense values are in file node order; mapped_profile is by sorted id. */
static void add_dense(const value_sink *out, const measured_tree *tr, const uint32_t *keys, const mapped_profile *m,
                      const uint32_t *metric_map) {
  const hpcrun_tables *tab = tr->tab;
  for (uint64_t k = 0; k < tab->n_nodes; k++) {
    uint32_t ctx = mapped_profile_ctx(m, keys[k]);
    for (uint32_t mi = 0; mi < tab->n_metrics; mi++) {
      uint64_t bits = tr->dense[k * tab->n_metrics + mi];
      if (bits && metric_map[mi] != HPCDB_NONE)
        put_value(out, ctx, metric_map[mi], hpcrun_metric_sampled_value(&tab->metrics[mi], bits));
    }
  }
}

/* Every value of a file's trees, in file order. */
static int add_trees(const value_sink *out, const measured_tree *trees, const mapped_profile *maps,
                     uint32_t *const *metric_maps, uint32_t n_trees) {
  for (uint32_t k = 0; k < n_trees; k++) {
    if (trees[k].sparse) {
      HPCDB_TRY(add_sparse(out, &trees[k], &maps[k], metric_maps[k]));
    } else {
      add_dense(out, &trees[k], maps[k].file_keys, &maps[k], metric_maps[k]);
    }
  }
  return 0;
}

/* Zeroed rows for the touched contexts (n_metrics × N_SCOPES cells each). */
static int rows_room(uint32_t n_metrics, propagate_scratch *scratch, thread_values *tv) {
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
  return 0;
}

static void propagate_rows(const unified_tree *t, const uint32_t *slot, thread_values *tv);

int propagate_file(const unified_tree *t, uint32_t n_metrics, const measured_tree *trees, const mapped_profile *maps,
                   uint32_t *const *metric_maps, uint32_t n_trees, propagate_scratch *scratch, thread_values *tv) {
  memset(tv, 0, sizeof *tv);
  HPCDB_TRY(touched_contexts(t, maps, n_trees, scratch, tv));
  const uint32_t *slot = scratch->slot;
  HPCDB_TRY(rows_room(n_metrics, scratch, tv));
  value_sink out = {tv, slot, NULL};
  int rc = add_trees(&out, trees, maps, metric_maps, n_trees);
  if (rc < 0) {
    thread_values_free(tv, scratch);
    return rc;
  }
  propagate_rows(t, slot, tv);
  return 0;
}

/* Children before parents (a child's id is larger than its parent's), each
 * context adds into its parent. */
static void propagate_rows(const unified_tree *t, const uint32_t *slot, thread_values *tv) {
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
}

void thread_values_free(thread_values *tv, propagate_scratch *scratch) {
  if (tv->v) memset(tv->v, 0, (size_t)tv->n_ctxs * tv->n_metrics * N_SCOPES * sizeof *tv->v);
  for (uint32_t k = 0; k < tv->n_ctxs; k++) scratch->slot[tv->ctx[k]] = HPCDB_NONE;
  free(tv->ctx);
  memset(tv, 0, sizeof *tv);
}

void propagate_scratch_free(propagate_scratch *scratch) {
  free(scratch->slot);
  free(scratch->marked);
  free(scratch->v);
  memset(scratch, 0, sizeof *scratch);
}

/* ---- raw cells: a file's values, not propagated ---- */

void raw_profile_free(raw_profile *r) {
  free(r->ctx);
  free(r->metric);
  free(r->value);
  prepared_trace_free(&r->trace);
  memset(r, 0, sizeof *r);
}

/* The values a file's trees hold at most: every sparse value, every dense cell not zero. */
static uint64_t values_at_most(const measured_tree *trees, uint32_t n_trees) {
  uint64_t n = 0;
  for (uint32_t k = 0; k < n_trees; k++) {
    if (trees[k].sparse) {
      n += trees[k].sparse->n_values;
      continue;
    }
    uint64_t cells = trees[k].tab->n_nodes * (uint64_t)trees[k].tab->n_metrics;
    for (uint64_t c = 0; c < cells; c++) n += trees[k].dense[c] != 0;
  }
  return n;
}

int collect_raw(const unified_tree *t, const measured_tree *trees, const mapped_profile *maps,
                uint32_t *const *metric_maps, uint32_t n_trees, raw_profile *out) {
  memset(out, 0, sizeof *out);
  if (t->exp->n_metrics > UINT16_MAX) return hpcdb_fail(HPCDB_EUNSUPPORTED, "%u metrics", t->exp->n_metrics);
  uint64_t most = values_at_most(trees, n_trees);
  if (most > SIZE_MAX / sizeof(double) - 1)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %llu values", (unsigned long long)most);
  out->ctx = malloc((size_t)(most + 1) * sizeof *out->ctx);
  out->metric = malloc((size_t)(most + 1) * sizeof *out->metric);
  out->value = malloc((size_t)(most + 1) * sizeof *out->value);
  if (!out->ctx || !out->metric || !out->value) {
    raw_profile_free(out);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory collecting %llu values", (unsigned long long)most);
  }
  value_sink sink = {NULL, NULL, out};
  int rc = add_trees(&sink, trees, maps, metric_maps, n_trees);
  if (rc < 0) {
    raw_profile_free(out);
    return rc;
  }
  if (out->n < most) { /* what the zeros and formula metrics left unused */
    uint32_t *ctx = realloc(out->ctx, (size_t)(out->n + 1) * sizeof *ctx);
    uint16_t *metric = realloc(out->metric, (size_t)(out->n + 1) * sizeof *metric);
    double *value = realloc(out->value, (size_t)(out->n + 1) * sizeof *value);
    if (ctx) out->ctx = ctx;
    if (metric) out->metric = metric;
    if (value) out->value = value;
  }
  return 0;
}

int propagate_raw(const unified_tree *t, const raw_profile *raw, propagate_scratch *scratch, thread_values *tv) {
  memset(tv, 0, sizeof *tv);
  for (uint64_t i = 0; i < raw->n; i++)
    if (raw->ctx[i] >= t->n_ids || raw->metric[i] >= t->exp->n_metrics)
      return hpcdb_fail(HPCDB_EINVAL, "a value of context %u, metric %u: not in the tree", raw->ctx[i], raw->metric[i]);
  HPCDB_TRY(slot_room(t, scratch));
  const uint32_t *slot = scratch->slot;
  uint32_t n = 0;
  touch(scratch, 0, &n);
  for (uint64_t i = 0; i < raw->n; i++) /* each value's context and its ancestors up to a marked one */
    for (uint32_t c = raw->ctx[i]; slot[c] == HPCDB_NONE; c = t->info[c].parent) touch(scratch, c, &n);
  if (!(tv->ctx = malloc((size_t)n * sizeof *tv->ctx))) {
    untouch(scratch, t->n_ids); /* leave the map as it was */
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory propagating values");
  }
  rows_in_id_order(t, scratch, n, tv);
  HPCDB_TRY(rows_room(t->exp->n_metrics, scratch, tv));
  for (uint64_t i = 0; i < raw->n; i++) add_raw(tv, slot, raw->ctx[i], raw->metric[i], raw->value[i]);
  propagate_rows(t, slot, tv);
  return 0;
}
