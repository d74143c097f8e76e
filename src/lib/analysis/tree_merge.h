/* A unified tree sent between ranks: its metrics, modules, files, functions
 * and contexts (each context's unification key and prototype), in id order.
 * Merging B into A appends B's new entries in B's order: merging the trees of
 * consecutive file ranges in file order gives every context, module, function
 * and metric the id one process unifying all files in order gives it (ids
 * are handed out in order of first appearance), and merging is associative,
 * so a reduction tree of any shape gives the same ids. */
#ifndef HPCDB_ANALYSIS_TREE_MERGE_H
#define HPCDB_ANALYSIS_TREE_MERGE_H

#include "analysis/analysis.h"
#include "analysis/dist_msg.h"

int tree_serialize(const unified_tree *t, dist_msg *out);
/* Merges a serialized tree (what names the message in errors) into t. */
int tree_merge(unified_tree *t, const uint8_t *data, uint64_t len, int all_stats, const char *what);

#endif
