/* Unified trees sent between ranks and merged: a tree's metrics, modules,
 * files, functions and contexts (each context's unification key and
 * prototype), in id order. Merging B into A appends B's new entries in B's
 * order: merging the trees of consecutive runs of files in file order gives
 * every context, module, file, function and metric the index one process
 * unifying all the files in order gives it (indices are handed out in order
 * of first appearance), and merging is associative, so a reduction tree of
 * any shape gives the same indices.
 *
 * Entries are matched by what they stand for: metrics by name, modules and
 * files by path, contexts by parent and key (the key's module, function or
 * file index mapped first), functions by what unification made them for
 * (a symbol of a module's symbol table, a placeholder code, a scope of a
 * module's structure file: two functions can look alike, e.g. a procedure
 * inlined at two places). A merged tree is only read (as a view of the
 * run's contexts, and to write meta.db): its unification lookups stay empty. */
#ifndef HPCDB_ANALYSIS_TREE_MERGE_H
#define HPCDB_ANALYSIS_TREE_MERGE_H

#include "analysis/analysis.h"
#include "analysis/dist_msg.h"

/* What unification made a function for. */
enum { FN_OTHER, FN_SYMBOL, FN_PLACEHOLDER, FN_SCOPE };
typedef struct fn_ident {
  uint32_t kind, module; /* module index, or HPCDB_NONE */
  uint64_t id;           /* symbol index, placeholder code or structure scope */
} fn_ident;

typedef struct merged_tree {
  hpcdb_experiment *exp;
  unified_tree t;
  fn_ident *idents; /* per function */
  uint64_t cap_idents;
  hpcdb_u64map by_ident; /* hash of an identity -> function index */
} merged_tree;

/* An experiment as hpcdb_analyze starts one (scopes, summary profile), empty. */
int merged_tree_init(merged_tree *m, const char *measurements);
void merged_tree_free(merged_tree *m);

/* A tree as unification left it, or a merged one. */
int tree_serialize_unified(const unified_tree *t, dist_msg *out);
int tree_serialize_merged(const merged_tree *m, dist_msg *out);

/* Where the sender's contexts and metrics are in the merged tree. */
typedef struct tree_map {
  uint32_t *ids, *metrics;
  uint32_t n_ids, n_metrics;
} tree_map;
void tree_map_free(tree_map *map);

/* Merges a serialized tree (what names the message in errors) into m; map
 * (may be NULL) gets the sender's ids and metrics. */
int tree_merge(merged_tree *m, const uint8_t *data, uint64_t len, int all_stats, const char *what, tree_map *map);

#endif
