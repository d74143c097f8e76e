/* SPDX-License-Identifier: BSD-3-Clause */
/* The analysis pipeline's shared state (internal). */
#ifndef HPCDB_ANALYSIS_INTERNAL_H
#define HPCDB_ANALYSIS_INTERNAL_H

#include <stdint.h>

#include "common/atomic_dir.h"
#include "common/hashmap.h"
#include "hpcdb/analysis.h"
#include "hpcdb/hpctk4.h"
#include "hpcdb/hpctk4_write.h"
#include "hpcdb/model.h"
#include "hpcrun/hpcrun_file.h"
#include "hpcrun/hpcrun_paths.h"

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
  uint32_t module; /* or one of the KEY_* kinds below */
  uint64_t offset; /* entry point kind, function index, placeholder code, file << 32 | line,
                      module << 32 | loop scope, or instruction offset */
} unify_key;

#define KEY_ENTRY UINT32_MAX
#define KEY_FUNCTION (UINT32_MAX - 1)
#define KEY_PLACEHOLDER (UINT32_MAX - 2)
#define KEY_LINE (UINT32_MAX - 3)
#define KEY_LOOP (UINT32_MAX - 4)
#define KEY_UNKNOWN (UINT32_MAX - 5) /* an unknown function below a frame (hpcrun's *Unnorm, unwound GPU samples) */

/* A slot of the unification table: the key beside its id, one cache line
 * visit per probe. */
typedef struct unify_slot {
  unify_key key;
  uint32_t id_plus1; /* 0 = empty */
} unify_slot;

typedef struct ctx_info {
  uint32_t parent;      /* id; the global context is its own parent */
  uint32_t model_index; /* index in exp->contexts, HPCDB_NONE when hidden */
  uint32_t visible;     /* the id traces use: own, or the nearest shown ancestor's */
  uint8_t lexical;      /* propagation bit 0: values stay within the function */
  uint8_t loop;
} ctx_info;

struct symbol_table;
struct structure_map;

typedef struct unified_tree {
  hpcdb_experiment *exp;
  const char *measurements; /* binaries relative to it are read for symbols */
  unify_slot *slots;
  uint64_t cap, count;
  ctx_info *info; /* per id */
  uint32_t n_ids;
  uint64_t cap_ids;
  ctx_info **retired; /* arrays info outgrew: a view of the tree taken before may still read them */
  uint64_t n_retired, cap_retired;
  struct symbol_table **symbols; /* per module index, loaded on first use */
  uint64_t cap_symbols;
  hpcdb_u64map functions;          /* (module << 32 | index in its symbol table) -> function index */
  hpcdb_u64map placeholders;       /* placeholder code -> function index */
  struct structure_map *structure; /* structure files, or NULL (--ignore-structs) */
  int defer_links;                 /* contexts go into exp unlinked: model_link_contexts when the tree is done */
  unify_slot *spare;               /* the table for the next growth (spare_cap slots), or NULL: unify_ahead */
  uint64_t spare_cap;
  size_t spare_zeroed; /* its bytes zeroed so far (by another thread, a piece per batch) */
  unify_key *keys;     /* each id's own key (the one that made it) when set before the ids are made (a tree
                    * the distributed analysis sends on), else NULL */
  uint64_t cap_keys;
} unified_tree;

/* Memory a batch of files about to be unified will touch, made ready by
 * another thread while this one unifies: fresh pages cost a fault and their
 * zeroing each (in a virtual machine, a fault of the host's too), on the
 * unifying thread, the analysis' critical path, unless a thread with time to
 * spare takes them first. */
typedef struct unify_ahead {
  void *pages[2]; /* the room for the new contexts in the experiment and for their ids, to prefault */
  size_t bytes[2];
  uint8_t *zero; /* the next piece of the tree's spare table, to zero */
  size_t zero_bytes;
} unify_ahead;

/* On the unifying thread before a batch that adds about n ids, of about
 * rest still to come in the run (no view of the tree taken since is read: the
 * arrays may move): room for them, and, when the table will grow within the
 * next few such batches, the table it will grow into, zeroed a piece per
 * batch. A hint: failures leave *a (partly) empty. */
void unify_ahead_prepare(unified_tree *t, uint64_t n, uint64_t rest, unify_ahead *a);
/* On the other thread, during the batch. */
void unify_ahead_run(const unify_ahead *a);
/* On the unifying thread, once the other is done. */
void unify_ahead_done(unified_tree *t, const unify_ahead *a);

int unified_tree_init(unified_tree *t, hpcdb_experiment *exp, const char *measurements);
void unified_tree_free(unified_tree *t);
/* Frees the arrays info outgrew, once no view of the tree taken before is in use. */
void unified_tree_release_retired(unified_tree *t);
/* Frees what only unifying more files needs: symbol tables, structure files,
 * the function lookups (the contexts' lookups stay). */
void unified_tree_drop_sources(unified_tree *t);
/* Finds the child of key.parent under key, or creates it from proto (hidden:
 * kept out of the experiment's tree, its callees hang on its nearest shown
 * ancestor there). */
int unify_find_or_add(unified_tree *t, unify_key key, const hpcdb_context *proto, int hidden, uint32_t *out_id);
/* The id under key, if any (1; no insertion). */
int unify_find(const unified_tree *t, unify_key key, uint32_t *out_id);
/* Creates the child of key.parent under key, known to be new, and does not
 * enter key: for a tree no key will be looked up in again (the last merge
 * into the run's tree, under a context that merge made). */
int unify_add_unlooked(unified_tree *t, unify_key key, const hpcdb_context *proto, int hidden, uint32_t *out_id);
/* A hint that key is about to be looked up (the table is much larger than
 * the caches: the next lookups' probes overlap this one's). */
void unify_prefetch(const unified_tree *t, unify_key key);
/* Makes key lead to id too, unless it leads somewhere already. */
int unify_table_put(unified_tree *t, unify_key key, uint32_t id);
/* Room for n keys without growing. */
int unify_table_reserve(unified_tree *t, uint64_t n);

/* One measurement file mapped onto the unified tree. */
typedef struct mapped_profile {
  uint32_t n_nodes;
  uint32_t *node_ids;  /* sorted file node ids */
  uint32_t *node_ctx;  /* unified context of node_ids[i] */
  uint32_t *node_rel;  /* its relation to the caller (unify.c): where move-to-procedure metrics go */
  uint32_t *file_keys; /* the id of each node in file order (02.00 leaf ids made positive) */
  uint32_t *by_id;     /* when the ids are dense enough: by_id[id] = i, or HPCDB_NONE */
  uint32_t n_by_id;
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
int unify_file(unified_tree *t, const char *path, const hpcrun_file *f, const hpcrun_tables *tab, int all_stats,
               mapped_profile *out, uint32_t *metric_map);
/* metrics.c: the four scopes (indices SCOPE_*), metrics by name, stat ids. */
int analysis_add_scopes(hpcdb_experiment *exp);
int unify_metrics(hpcdb_experiment *exp, const hpcrun_tables *t, int all_stats, uint32_t *metric_map);
uint16_t analysis_stat_id(uint32_t metric, int all_stats, int partial, int scope);
/* The scopes (bits 1 << SCOPE_*) a metric of the analysis has. */
unsigned analysis_metric_scopes(const hpcdb_metric *m);
/* Where a file node id is in node_ids, or HPCDB_NONE (once per value: inline). */
static inline uint32_t mapped_profile_index(const mapped_profile *m, uint32_t node_id) {
  if (m->by_id) return node_id < m->n_by_id ? m->by_id[node_id] : HPCDB_NONE;
  uint32_t lo = 0, hi = m->n_nodes;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (m->node_ids[mid] < node_id) lo = mid + 1;
    else hi = mid;
  }
  return lo < m->n_nodes && m->node_ids[lo] == node_id ? lo : HPCDB_NONE;
}
/* Unified context of a file node id, or HPCDB_NONE. */
static inline uint32_t mapped_profile_ctx(const mapped_profile *m, uint32_t node_id) {
  uint32_t i = mapped_profile_index(m, node_id);
  return i == HPCDB_NONE ? HPCDB_NONE : m->node_ctx[i];
}
void mapped_profile_free(mapped_profile *m);

/* Per-thread propagated values: for each touched context (ascending), for
 * each metric and scope, a value. */
typedef struct thread_values {
  uint32_t n_ctxs;
  uint32_t *ctx;      /* ascending context indices */
  uint32_t n_metrics; /* global metric count when computed */
  double *v;          /* n_ctxs × n_metrics × N_SCOPES, the scratch's */
} thread_values;

/* What one worker keeps from file to file, so that each file touches only
 * its own part: a dense map from unified context ids to rows (all HPCDB_NONE
 * between files) and the rows (all zero between files). */
typedef struct propagate_scratch {
  uint32_t *slot;
  uint64_t n_slot;
  uint64_t *marked; /* a bit per id: the touched contexts (zero between files), found without a scan of slot */
  double *v;
  uint64_t n_v;
} propagate_scratch;

/* Raw values of a file's trees (maps[i], metric_maps[i] for trees[i]),
 * propagated over the unified tree. */
int propagate_file(const unified_tree *t, uint32_t n_metrics, const measured_tree *trees, const mapped_profile *maps,
                   uint32_t *const *metric_maps, uint32_t n_trees, propagate_scratch *scratch, thread_values *out);
/* lexical.c: hpcprof's lex_aware. Propagation leaves in a thread's
 * lex_aware cells the loop-exclusive value (a loop without the loops nested
 * in it); loop_lex_take moves the loops' ones aside for the summary and puts
 * the function values the threads store in their place. */
typedef struct loop_lex_value {
  uint32_t ctx, metric;
  double value;
} loop_lex_value;
typedef struct loop_lex_list {
  loop_lex_value *items;
  uint32_t n;
} loop_lex_list;
int loop_lex_take(const unified_tree *t, thread_values *tv, loop_lex_list *out);
void loop_lex_list_free(loop_lex_list *l);
/* The summary's lex_aware of loops, over threads in file order. */
typedef struct loop_lex_summary {
  int all_stats;
  uint8_t *is_loop; /* per context id: a loop some thread has a value in */
  uint64_t n_is_loop;
  hpcdb_u64map cells; /* ctx << 32 | metric -> index of its partials in acc */
  double *acc;
  uint64_t n, cap;
} loop_lex_summary;
int loop_lex_add(loop_lex_summary *s, const loop_lex_list *l);
/* The partials of (loop ctx, metric), made (zero, *first = 1) when missing; NULL when out of memory. */
double *loop_lex_cell(loop_lex_summary *s, uint32_t ctx, uint32_t metric, int *first);
/* The partials of a loop's lex_aware (NULL: none, the cell is left out),
 * *is_loop telling whether ctx is a loop at all. */
const double *loop_lex_summary_get(const loop_lex_summary *s, uint32_t ctx, uint32_t metric, int *is_loop);
void loop_lex_summary_free(loop_lex_summary *s);
/* summary.c: adds x to a cell's partials (first: the cell had none). */
void summary_accumulate(double *a, int all_stats, int first, double x);

/* Frees tv and leaves the scratch ready for the next file. */
void thread_values_free(thread_values *tv, propagate_scratch *scratch);
void propagate_scratch_free(propagate_scratch *scratch);

/* Summary statistics over threads: partial sums per context × metric × scope. */
enum { PARTIAL_COUNT, PARTIAL_SUM, PARTIAL_SUMSQ, PARTIAL_MIN, PARTIAL_MAX, N_PARTIALS };
typedef struct summary_acc {
  int all_stats;
  uint32_t n_metrics;
  uint64_t n_ctxs;               /* rows allocated */
  double *acc;                   /* n_ctxs × n_metrics × N_SCOPES × N_PARTIALS (or × 1 for sum only) */
  uint8_t *present;              /* n_ctxs × n_metrics × N_SCOPES: some thread had a value */
  const loop_lex_summary *loops; /* the loops' lex_aware, or NULL */
} summary_acc;

/* Adds one thread's non-zero values (CSR, prop metric ids) to the partials;
 * the unified tree had n_contexts contexts and n_metrics metrics then. */
int summary_add(summary_acc *s, const hpcdb_profile *p, uint32_t n_contexts, uint32_t n_metrics);
/* Fills profiles[0] (the canonical summary) from the accumulated partials. */
int summary_store(hpcdb_experiment *exp, summary_acc *s, uint32_t n_ids);
void summary_free(summary_acc *s);

/* profile.db fed in file order (profile_writer.c): with threads > 1 from a
 * thread of its own behind a queue of 4 × threads profiles, else (or when the
 * thread cannot start) each profile at once. put takes the CSR arrays over
 * (*csr is emptied, freed on failure); close waits for the queue and returns
 * the writer's first failure (NULL-safe). */
typedef struct profile_writer profile_writer;
int profile_writer_open(profile_writer **out, hpcdb_hpctk4_stream *stream, unsigned threads);
int profile_writer_put(profile_writer *w, uint32_t profile, hpcdb_profile *csr);
int profile_writer_close(profile_writer *w);
/* Frees a profile's CSR arrays (built by the analysis, not adopted by a model). */
void analysis_csr_free(hpcdb_profile *p);

/* The summary one context at a time (an hpcdb_summary_fn): the same values
 * summary_store makes, from every thread's values of the context in file
 * order; n_values counts what it made. */
typedef struct summary_maker {
  int all_stats;
  uint64_t n_cells;  /* metrics × N_SCOPES */
  double *acc;       /* n_cells × partials */
  uint8_t *present;  /* n_cells; 0 between contexts */
  uint32_t *touched; /* the cells of this context */
  uint64_t n_values;
  const loop_lex_summary *loops; /* the loops' lex_aware, or NULL */
} summary_maker;

int summary_maker_init(summary_maker *m, int all_stats, uint32_t n_metrics);
int64_t summary_make(void *user, uint32_t ctx, const hpcdb_value_ref *v, uint64_t n, uint16_t *metrics, double *values);
void summary_maker_free(summary_maker *m);

/* ---- entry points of the distributed analysis (src/lib/distributed/) ---- */

/* The experiment's metric of that name, added if new with the scopes in the
 * mask (bit SCOPE_*) and their summaries. */
int analysis_metric_by_name(hpcdb_experiment *exp, const char *name, int all_stats, unsigned scopes, uint32_t *out);

/* A thread's trace: samples sorted by time (record order breaks ties), each
 * naming a context (a node's, or its relation's for call traces); ready for
 * the model once trace_finish has made them the contexts traces show. */
typedef struct prepared_trace {
  int present;
  uint64_t n;
  uint64_t *times;
  uint32_t *ctxs;
} prepared_trace;
/* Each sample's context becomes its nearest shown one (hidden contexts:
 * their parent's), runs of "not running" (context 0) collapse to their first
 * sample. */
void trace_finish(const unified_tree *t, prepared_trace *p);
void prepared_trace_free(prepared_trace *p);

/* A file unified but not propagated: its values as propagation starts from
 * them (the file's values in file order, as propagate_file adds them, a
 * cell's values possibly several; zeros left out), and its trace. Contexts
 * and metrics are the tree's the file was unified into until the distributed
 * analysis renumbers them. The distributed analysis keeps these between
 * unification and propagation, so each file is decoded and unified once. */
typedef struct raw_profile {
  uint32_t profile; /* index in the experiment the pass registered it in */
  uint64_t n;
  uint32_t *ctx;
  uint16_t *metric; /* metric index (< 16384: prop metric ids are 16-bit) */
  double *value;
  prepared_trace trace;
} raw_profile;
void raw_profile_free(raw_profile *r);
/* The raw cells of a file's trees (propagate.c), against t as unified. */
int collect_raw(const unified_tree *t, const measured_tree *trees, const mapped_profile *maps,
                uint32_t *const *metric_maps, uint32_t n_trees, raw_profile *out);
/* A file's raw cells propagated over t, as propagate_file would have. */
int propagate_raw(const unified_tree *t, const raw_profile *raw, propagate_scratch *scratch, thread_values *out);

/* The first half of hpcdb_analyze's per-file pipeline over some files:
 * decode, unify into tree (its own experiment), collect the raw cells and the
 * trace, and register each profile in exp (identity, kind names, title, time
 * range; warnings and skipped files as one process gives them); each file's
 * raw_profile goes to keep, which takes it over. */
typedef struct analysis_pass {
  hpcdb_experiment *exp; /* the profiles' */
  unified_tree *tree;    /* grown */
  const hpcdb_analyze_options *opt;
  int (*keep)(void *user, raw_profile *raw);
  void *keep_user;
  hpcdb_warning_fn warn;
  void *user;
  hpcdb_analyze_result *res; /* counts are added */
  int have_range;            /* out: some file recorded trace-min/max-time (exp->trace_min/max) */
} analysis_pass;
int analysis_run_pass(analysis_pass *p, const hpcrun_path_list *files);

/* The second half: the raw profiles (renumbered into view's contexts and
 * metrics) propagated over view, in order, with opt->threads workers; each
 * profile's values (and its loops' lex_aware values) go to sink, which takes
 * them over, its trace into exp. Each raw profile is freed once used. */
typedef struct analysis_values {
  hpcdb_experiment *exp; /* the profiles' */
  const unified_tree *view;
  const hpcdb_analyze_options *opt;
  raw_profile *raws;
  uint64_t n_raws;
  int (*sink)(void *user, uint32_t profile, hpcdb_profile *csr, loop_lex_list *loops);
  void *sink_user;
  hpcdb_analyze_result *res; /* values and traces are added */
} analysis_values;
int analysis_run_values(analysis_values *v);

/* The last step of writing analyze's database: held->temp holds it whole as
 * measured; its OpenMP regions placed (hpcdb_openmp_attribute) go to
 * held->target, or the temporary is renamed there when there are none. Only
 * the final database ever appears under the target's name; held is released
 * either way. */
int analysis_openmp_commit(hpcdb_atomic_dir *held, unsigned threads, unsigned write_flags);

#endif
