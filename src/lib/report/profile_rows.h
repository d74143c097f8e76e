/* SPDX-License-Identifier: BSD-3-Clause */
/* The rows of the profiles view (internal): per-profile totals, groups by identity level. */
#ifndef HPCDB_REPORT_PROFILE_ROWS_H
#define HPCDB_REPORT_PROFILE_ROWS_H

#include "report/report_data.h"

/* One row: a profile, or the profiles of one group (--by), summed per column. */
typedef struct prow {
  char name[160];
  double v[REPORT_MAX_COLUMNS];
  uint64_t iv[REPORT_MAX_COLUMNS]; /* integer columns (column.integer): the exact sum, modulo 2^64 */
  uint64_t key;                    /* the group's id (grouped rows) */
  int has_key;
  uint32_t members;
} prow;

/* The profile's whole-program value of a metric: its execution value at the global context, else
 * the sum of its point values. */
double profile_total(const hpcdb_experiment *e, const hpcdb_profile *p, uint32_t metric);
/* The same for an integer metric, exact (hpcdb_profile_integer), its values added modulo 2^64. */
uint64_t profile_total_integer(const hpcdb_experiment *e, const hpcdb_profile *p, uint32_t metric);
/* 1 when the identity has a GPU level (a GPU context or stream's profile). */
int profile_is_gpu(const hpcdb_experiment *e, const hpcdb_profile *p);
/* The index of the identity element --by names (the outermost GPU level for gpu); -1: none. */
int profile_level_of(const hpcdb_experiment *e, const hpcdb_profile *p, hpcdb_group_by by);
/* The rows of the n profiles ps (one per profile, or per group of the level by), into rows (room
 * for n), largest first by the first column; returns how many. */
uint32_t profile_rows(const report_data *d, const hpcdb_report_options *o, hpcdb_group_by by,
                      const hpcdb_profile *const *ps, uint32_t n, prow *rows);
/* 1 when every column of the row is 0. */
int profile_row_zero(const report_data *d, const prow *r);
/* The first metric (a time one first) with a value in the profiles ps; NULL: none. */
const char *profile_metric_with_values(const hpcdb_experiment *e, const hpcdb_profile *const *ps, uint32_t n);

#endif
