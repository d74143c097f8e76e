/* SPDX-License-Identifier: BSD-3-Clause */
/* The data an exported page answers its routes from (api_static.js reads it
 * back): computed through the query layer, as hpcdb view's routes are, so
 * the numbers are hpcdb report's. Bounded: the heaviest nodes of each view,
 * all metrics while nodes x metrics stays under a budget, per-profile spreads
 * of the heaviest top-down nodes while their points do. */
#ifndef HPCDB_PAGE_SNAPSHOT_H
#define HPCDB_PAGE_SNAPSHOT_H

#include <stdio.h>

#include "hpcdb/query.h"

#define SNAPSHOT_NODES 20000          /* per view: the heaviest, with their ancestors */
#define SNAPSHOT_VALUES 1000000u      /* kept nodes x metrics for all metrics; above: the chosen and the default */
#define SNAPSHOT_SPREAD_POINTS 65536u /* points of the spreads (HPCDB_QSPREAD_POINTS per node at most) */

/* The nodes of one view kept: the root first, then the heaviest by each
 * column's inclusive value in turn, each after its parent (so every ancestor
 * of a kept node is kept). */
typedef struct snapshot_view {
  hpcdb_qview view;
  uint32_t n_nodes; /* in the whole view */
  uint32_t kept;
  int whole; /* every node the viewer lists for any of the columns is kept (the rest are zero in all) */
  hpcdb_qnode *node, *parent; /* kept of them; the root's parent is HPCDB_NONE */
} snapshot_view;

int snapshot_select(hpcdb_query *q, hpcdb_qview view, const hpcdb_qcolumn *cols, uint32_t n_cols, uint32_t limit,
                    snapshot_view *out);
void snapshot_view_free(snapshot_view *v);

/* "spread": {node: summary} for the first top-down nodes of v (the heaviest)
 * while SNAPSHOT_SPREAD_POINTS allows; *n gets how many. Writes the key too. */
int snapshot_spreads(FILE *out, hpcdb_query *q, hpcdb_qcolumn col, const snapshot_view *v, uint32_t *n);

/* The whole snapshot as one JSON object (strings safe inside <script>);
 * path: the database as the page names it; metric: NULL for the default. */
int page_snapshot_write(FILE *out, hpcdb_query *q, const char *path, const char *metric);

#endif
