/* SPDX-License-Identifier: BSD-3-Clause */
/* The sums of a plain tar's DOUBLE metrics started on a helper thread while
 * anchor.xml is parsed (early_sums.c; internal). */
#ifndef HPCDB_CUBE_EARLY_SUMS_H
#define HPCDB_CUBE_EARLY_SUMS_H

#include <pthread.h>

#include "common/worker.h"
#include <stdatomic.h>

#include "cube/cube.h"

enum { SCANNING, SCANNED, NO_TREE }; /* cube_early.tree */

/* One metric's members and, once summed (ok), what sum_inclusive needs, by
 * cnode in document order, as if no cnode were an entry point. */
typedef struct cube_early_metric {
  const cube_indexed_member *ix, *dt;
  atomic_int state;
  int ok;
  uint32_t n_locations;        /* guessed from the members' sizes */
  double *exc, *inc;           /* each cnode's sums over locations */
  uint64_t *counts;            /* each location's non-zero values of both flavours */
  double *root_inc, *root_exc; /* each root's rows (n_roots × n_locations, native doubles) */
  double *exc_totals;          /* when totals are wanted: each location's exclusive values summed in document
                            order, roots left out */
} cube_early_metric;

typedef struct cube_early {
  const cube_member_index *x;
  const char *path;
  const cube_indexed_member *anchor;
  const char *const *names; /* the metrics wanted (n_names 0: all) */
  uint32_t n_names;
  int totals;                 /* each location's exclusive total is wanted (exc_totals) */
  cube_early_metric *metrics; /* each metric id's first .data and .index, in archive order */
  uint32_t n_metrics;
  /* the scanned tree (the helper's until `tree` says SCANNED) */
  uint32_t *parent, *kids_at, *kids, *order, *pos, *roots; /* order: an inclusive metric's rows; pos: its inverse */
  uint8_t *no_entries, *is_root;
  uint32_t n_cnodes, n_roots;
  int tree; /* SCANNING, then SCANNED or NO_TREE (under lock) */
  atomic_int stop;
  pthread_mutex_t lock;
  pthread_cond_t scanned;
  worker_thread helper; /* .started: the helper runs */
  int synced;           /* lock and scanned are initialised */
  int verified;         /* after cube_early_finish: the scanned tree is the anchor's */
} cube_early;

/* Starts the helper (nothing for a member index without metrics); with
 * names (n_names > 0), it skips the metrics it finds named otherwise; with
 * totals, it also sums each location's exclusive values (exc_totals). */
void cube_early_start(cube_early *e, const cube_member_index *x, const char *path, const char *const *names,
                      uint32_t n_names, int totals);
/* A metric the reader will not take early sums of: not summed unless already begun. */
void cube_early_skip(cube_early_metric *m);
/* The anchor's tree given: the metrics still pending summed on this thread
 * too (when the scanned tree is this one), then the helper joined. */
void cube_early_finish(cube_early *e, const uint32_t *parent, uint32_t n_cnodes);
/* The sums of the metric with these members; NULL when there are none to use. */
const cube_early_metric *cube_early_find(const cube_early *e, const cube_indexed_member *ix,
                                         const cube_indexed_member *dt);
/* Stops and joins the helper if it still runs; frees everything. */
void cube_early_free(cube_early *e);

/* The parent of each cnode (document order) from anchor.xml's bytes
 * (tree_scan.c): 1, or 0 when the bytes are not scanned (compressed, a
 * DOCTYPE, unbalanced tags, no memory). */
int cube_scan_cnode_tree(const uint8_t *xml, size_t len, uint32_t **parent, uint32_t *n);
/* The name of metric `id` as the model names it (uniq_name, else
 * disp_name; malloc'ed), from the bytes; NULL when it is not found plainly
 * (no such tag, or a name with markup or references). */
char *cube_scan_metric_name(const uint8_t *xml, size_t len, unsigned long id);

#endif
