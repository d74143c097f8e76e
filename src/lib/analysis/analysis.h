/* The analysis pipeline's shared state (internal). */
#ifndef HPCDB_ANALYSIS_INTERNAL_H
#define HPCDB_ANALYSIS_INTERNAL_H

#include <stdint.h>

#include "hpcdb/analysis.h"
#include "common/hashmap.h"
#include "hpcrun/hpcrun_file.h"

/* The scopes hpcprof writes, in its order; prop metric id = 4 × metric + scope. */
enum { SCOPE_POINT, SCOPE_FUNCTION, SCOPE_LEX_AWARE, SCOPE_EXECUTION, N_SCOPES };

/* The unified calling-context tree. Context ids are dense (0 is the global
 * context) and a parent's id is always smaller than its children's. Most
 * contexts are also in the experiment's tree; "hidden" ones are not: as
 * hpcprof, a frame in a function we know the symbol of becomes the function
 * context plus an instruction context below it that meta.db leaves out (its
 * callees hang on the function there), though its values are kept. */
typedef struct unify_key {
  uint32_t parent;
  uint32_t module; /* or KEY_ENTRY / KEY_FUNCTION */
  uint64_t offset; /* entry point kind, function index, or instruction offset */
} unify_key;

typedef struct ctx_info {
  uint32_t parent;      /* id; the global context is its own parent */
  uint32_t model_index; /* index in exp->contexts, HPCDB_NONE when hidden */
  uint32_t visible;     /* the id traces use: own, or the nearest shown ancestor's */
  uint8_t lexical;      /* propagation bit 0: values stay within the function */
  uint8_t loop;
} ctx_info;

struct symbol_table;

typedef struct unified_tree {
  hpcdb_experiment *exp;
  const char *measurements; /* binaries relative to it are read for symbols */
  unify_key *keys;
  uint32_t *slots; /* id + 1; 0 = empty */
  uint64_t cap, count;
  ctx_info *info; /* per id */
  uint32_t n_ids;
  uint64_t cap_ids;
  struct symbol_table **symbols; /* per module index, loaded on first use */
  uint64_t cap_symbols;
  hpcdb_u64map functions; /* (module << 48 | symbol start) -> function index */
} unified_tree;

int unified_tree_init(unified_tree *t, hpcdb_experiment *exp, const char *measurements);
void unified_tree_free(unified_tree *t);

/* One measurement file mapped onto the unified tree. */
typedef struct mapped_profile {
  uint32_t n_nodes;
  uint32_t *node_ids;  /* sorted file node ids */
  uint32_t *node_ctx;  /* unified context of node_ids[i] */
  uint32_t *file_keys; /* the id of each node in file order (02.00 leaf ids made positive) */
} mapped_profile;

/* The calling-context trees of a file: one for 04.00, one per epoch before.
 * values: sparse (04.00, `sparse`) or dense node × metric bits (`dense`). */
typedef struct measured_tree {
  const hpcrun_tables *tab;
  const hpcrun_sparse *sparse;
  const uint64_t *dense;
} measured_tree;

/* Maps every node of one tree of f into the unified tree (creating contexts
 * as needed) and modules/metrics into the experiment. metric_map[m] is the
 * global metric index of the tree's metric m (n_metrics entries). */
int unify_file(unified_tree *t, const char *path, const hpcrun_file *f, const hpcrun_tables *tab,
               int all_stats, mapped_profile *out, uint32_t *metric_map);
/* metrics.c: the four scopes (indices SCOPE_*), metrics by name, stat ids. */
int analysis_add_scopes(hpcdb_experiment *exp);
int unify_metrics(hpcdb_experiment *exp, const hpcrun_tables *t, int all_stats, uint32_t *metric_map);
uint16_t analysis_stat_id(uint32_t metric, int all_stats, int partial, int scope);
/* Unified context of a file node id, or HPCDB_NONE. */
uint32_t mapped_profile_ctx(const mapped_profile *m, uint32_t node_id);
void mapped_profile_free(mapped_profile *m);

/* Per-thread propagated values: for each touched context (ascending), for
 * each metric and scope, a value. */
typedef struct thread_values {
  uint32_t n_ctxs;
  uint32_t *ctx;          /* ascending context indices */
  uint32_t n_metrics;     /* global metric count when computed */
  double *v;              /* n_ctxs × n_metrics × N_SCOPES */
} thread_values;

/* Raw values of a file's trees (maps[i], metric_maps[i] for trees[i]),
 * propagated over the unified tree. */
int propagate_file(const unified_tree *t, const measured_tree *trees, const mapped_profile *maps,
                   uint32_t *const *metric_maps, uint32_t n_trees, thread_values *out);
void thread_values_free(thread_values *tv);

/* Summary statistics over threads: partial sums per context × metric × scope. */
enum { PARTIAL_COUNT, PARTIAL_SUM, PARTIAL_SUMSQ, PARTIAL_MIN, PARTIAL_MAX, N_PARTIALS };
typedef struct summary_acc {
  int all_stats;
  uint32_t n_metrics;
  uint64_t n_ctxs;   /* rows allocated */
  double *acc;       /* n_ctxs × n_metrics × N_SCOPES × N_PARTIALS (or × 1 for sum only) */
  uint8_t *present;  /* n_ctxs × n_metrics × N_SCOPES: some thread had a value */
} summary_acc;

int summary_add(summary_acc *s, const thread_values *tv, uint32_t n_contexts, uint32_t n_metrics);
/* Fills profiles[0] (the canonical summary) from the accumulated partials. */
int summary_store(hpcdb_experiment *exp, const summary_acc *s, uint32_t n_ids);
void summary_free(summary_acc *s);

#endif
