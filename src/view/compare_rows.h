/* SPDX-License-Identifier: BSD-3-Clause */
/* The comparison's rows as JSON (compare_rows.c; internal to src/view). */
#ifndef HPCDB_VIEW_COMPARE_ROWS_H
#define HPCDB_VIEW_COMPARE_ROWS_H

#include "compare_state.h"
#include "routes.h"

enum { CMP_TOP_DOWN, CMP_BOTTOM_UP, CMP_FLAT };

/* Any value on either side (A, B pairs of inclusive and exclusive): rows without one are not listed. */
int compare_any_value(const double *inc, const double *exc);
int compare_node_has_value(const hpcdb_comparison *c, uint32_t node);
/* The rows below node in the top-down view: its shown children (hpcdb_align_shown_children) with a value.
 * Returns how many (UINT32_MAX when out of memory); the malloc'ed list in *out unless out is NULL. */
uint32_t compare_listed_children(const hpcdb_comparison *c, uint32_t node, uint32_t **out);
/* A run has several profiles: rows carry per-profile mean and max. */
int compare_profiled(const hpcdb_comparison *c);
/* An aligned node's row {node, children, name (flat: its path), [path, up], only, frame, ctx, inc, exc,
 * [mean, max]}; with_path: its path and its ancestors (root first), for the summary. */
void compare_node_json(jbuf *b, request *r, uint32_t node, int view, int with_path);
/* Function f of the bottom-up view (node f + 1): its sums over its frames. */
void compare_function_json(jbuf *b, request *r, const hpcdb_compare_functions *fn, uint32_t f);

#endif
