/* SPDX-License-Identifier: BSD-3-Clause */
/* The bottom-up and flat views' rows, one implementation for the query
 * layer and hpcdb report (src/lib/report/bottomup.c): contexts gathered by
 * frame and by name into top rows (bottom-up: functions; flat: load
 * modules), each with member rows (bottom-up: the callers; flat: the
 * functions). Internal. */
#ifndef HPCDB_QUERY_AGGREGATE_H
#define HPCDB_QUERY_AGGREGATE_H

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/model.h"

typedef struct agg_view {
  int built;
  uint32_t n_rows;          /* rows in the order they were first met (the query's node r + 1 is row r) */
  char **names;             /* per row */
  uint32_t *group;          /* per row: its top row, HPCDB_NONE for a top row */
  uint32_t *first_member;   /* per top row: children as a list (member rows) */
  uint32_t *next_member;
  uint32_t *n_members;
  uint32_t n_top;
  uint32_t *ctx_top, *ctx_member; /* per context: rows it adds to (HPCDB_NONE: none) */
  uint8_t *ctx_inclusive;         /* per context: AGG_* bits, which rows it adds its inclusive value to */
} agg_view;

#define AGG_OWN_INCLUSIVE 0x1u    /* its own row (a frame not nested in one of its name) */
#define AGG_MODULE_INCLUSIVE 0x2u /* flat: its module's row (a frame not nested in one of its module) */

/* The rows of e's flat (1) or bottom-up (0) view; functions_only: inlined
 * calls fold into their function's frame. query_agg_free frees a failed one too. */
int query_agg_build(const hpcdb_experiment *e, int flat, int functions_only, agg_view *a);
void query_agg_free(agg_view *a);
/* One metric's values summed into the rows: self and inc by context at
 * self[i * stride], inc[i * stride]; row r's sums at ai[r * out_stride] and
 * ae[r * out_stride] (zeroed by the caller), context after context. A flat
 * view's top row (a module) sums the inclusive values of its outermost frames (each cost once). */
void query_agg_sum(const hpcdb_experiment *e, const agg_view *a, int flat, const double *self, const double *inc,
                   size_t stride, double *ai, double *ae, size_t out_stride);
/* The same for an integer metric's exact values (hpcdb report's integer columns), summed modulo 2^64
 * as CubeLib adds a UINT64. */
void query_agg_sum_integers(const hpcdb_experiment *e, const agg_view *a, int flat, const uint64_t *self,
                            const uint64_t *inc, size_t stride, uint64_t *ai, uint64_t *ae, size_t out_stride);

#endif
