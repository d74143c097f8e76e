/* SPDX-License-Identifier: BSD-3-Clause */
/* The bottom-up and flat views' rows, one implementation for the query
 * layer and hpcdb report (src/lib/report/bottomup.c): contexts gathered by
 * frame and by name into rows under rows (bottom-up: functions > their
 * callers; flat: load module > file > function > loop > line). Internal. */
#ifndef HPCDB_QUERY_AGGREGATE_H
#define HPCDB_QUERY_AGGREGATE_H

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/model.h"

typedef struct agg_view {
  int built;
  uint32_t n_rows;        /* rows in the order they were first met (the query's node r + 1 is row r) */
  char **names;           /* per row */
  uint32_t *group;        /* per row: the row it is under, HPCDB_NONE for a top row */
  uint32_t *first_member; /* per row: the rows under it as a list */
  uint32_t *next_member;
  uint32_t *n_members;
  uint32_t n_top;
  uint32_t *ctx_row;      /* per context: the row it adds its own cost to, and to every row above (HPCDB_NONE: none) */
  uint8_t *ctx_inclusive; /* per context: bit k, it adds its inclusive value to the k-th row up from ctx_row
                               (the rows it is the outermost context of: a frame not nested in one of its name) */
} agg_view;

/* The rows of e's flat (1) or bottom-up (0) view; functions_only: inlined
 * calls fold into their function's frame. query_agg_free frees a failed one too. */
int query_agg_build(const hpcdb_experiment *e, int flat, int functions_only, agg_view *a);
void query_agg_free(agg_view *a);
/* One metric's values summed into the rows: self and inc by context at
 * self[i * stride], inc[i * stride]; row r's sums at ai[r * out_stride] and
 * ae[r * out_stride] (zeroed by the caller), context after context: a context's own cost in its
 * row and every row above, its inclusive value in the rows it is the outermost context of. */
void query_agg_sum(const hpcdb_experiment *e, const agg_view *a, const double *self, const double *inc, size_t stride,
                   double *ai, double *ae, size_t out_stride);
/* The same for an integer metric's exact values (hpcdb report's integer columns), summed modulo 2^64
 * as CubeLib adds a UINT64. */
void query_agg_sum_integers(const hpcdb_experiment *e, const agg_view *a, const uint64_t *self, const uint64_t *inc,
                            size_t stride, uint64_t *ai, uint64_t *ae, size_t out_stride);

#endif
