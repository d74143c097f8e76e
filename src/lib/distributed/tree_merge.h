/* SPDX-License-Identifier: BSD-3-Clause */
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
 * inlined at two places). A merged tree is only merged into, sent and read
 * (as the run's contexts, and to write meta.db): it unifies no file. */
#ifndef HPCDB_ANALYSIS_TREE_MERGE_H
#define HPCDB_ANALYSIS_TREE_MERGE_H

#include "analysis/analysis.h"
#include "distributed/dist_msg.h"

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
/* A unified tree (emptied: m takes it over, experiment and all) as the
 * merged tree merging it into an empty one makes, with the same ids; what
 * only unification needs is freed. index: trees are to be merged into it
 * (else it can only be serialized and read). A tree to be sent keeps its
 * contexts' own keys (t->keys set before it was unified; merging adds to them). */
int merged_tree_adopt(merged_tree *m, unified_tree *t, int index);
/* Frees what merging and serializing need: m is only read from here on. */
void merged_tree_unindex(merged_tree *m);

/* A merged tree (that keeps its own keys) sent in parts, each handed to put (which sends it): the head
 * (metrics, modules, files, functions, the context count), then the
 * contexts in id order, about 4 MiB a part; a part's first byte tells
 * whether more follow. A failure sends an empty part. */
int tree_send(const merged_tree *m, int (*put)(void *user, const dist_msg *part), void *user);

/* Where the sender's contexts and metrics are in the merged tree. */
typedef struct tree_map {
  uint32_t *ids, *metrics;
  uint32_t n_ids, n_metrics;
} tree_map;
void tree_map_free(tree_map *map);

/* Merges a tree tree_send sends into m, part by part as get receives them
 * (what names the sender in errors); map (may be NULL) gets the sender's ids
 * and metrics. Every part is taken, also after a failure (m NULL: only
 * taken), so the sender always ends. 1: the sender failed (an empty part).
 * last: m is not merged into after this (the run's tree, or one only sent on
 * from here): the new contexts' keys are not entered in its lookup table
 * (only in its own keys, when it keeps them), and a context under a new one is
 * not looked for. */
int tree_merge_parts(merged_tree *m, int (*get)(void *user, void **data, uint64_t *len), void *user, int all_stats,
                     int last, const char *what, tree_map *map);

/* The run's tree as propagation and traces read it (tree_view_read): its
 * metrics, and per context the distance to its parent (a varint) and a byte
 * of bits (propagation, loop, hidden): 3.8 bytes a context in the generated
 * measurements of bench/; n_contexts and cct_contexts (the experiment's
 * context count and cct.db's) travel with it. m gets an experiment of the
 * metrics only and the contexts' ctx_info. */
int tree_serialize_view(const merged_tree *m, uint32_t cct_contexts, dist_msg *out);
int tree_view_read(merged_tree *m, const char *measurements, const uint8_t *data, uint64_t len, int all_stats,
                   uint32_t *n_contexts, uint32_t *cct_contexts);

#endif
