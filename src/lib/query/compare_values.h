/* SPDX-License-Identifier: BSD-3-Clause */
/* One run's values of one metric per context, for the comparison (internal). */
#ifndef HPCDB_QUERY_COMPARE_VALUES_H
#define HPCDB_QUERY_COMPARE_VALUES_H

#include <stdint.h>

#include "hpcdb/compare.h"
#include "hpcdb/model.h"
#include "hpcdb/source.h"
#include "query/source_internal.h"

typedef struct run_values {
  double *inc, *exc;   /* per context index: the whole run (summary profile, else the sum of profiles) */
  double *pcount;      /* per context index: profiles with a non-zero inclusive value there */
  double *psum, *pmax; /* per context index: inclusive, summed and largest over the run's profiles
                          (without their values: from the summary's statistics; NaN: unknown) */
  uint32_t n_profiles; /* profiles holding values of the metric */
} run_values;

/* The run's values through its source (a lazy one's profiles read one at a time); skip_profiles:
 * no per-profile figures (only n_profiles), they come later (compare_profiles.c). */
int run_values_build(run_values *v, hpcdb_source *src, uint32_t metric, int skip_profiles);
/* The metric's inclusive id of non-summary profiles (execution scope), -1 when none. */
int32_t compare_inclusive_id(const hpcdb_experiment *e, uint32_t metric);
void run_values_free(run_values *v);

/* Seconds per unit from a metric's name ("CPUTIME (usec)") or unit ("sec"); 0 when not a time. */
double compare_time_unit(const char *name, const char *unit);
/* The metric of each run (docs/compare.md, "Metrics") into out[n_runs]. */
int compare_pick_metrics(hpcdb_source *const *srcs, uint32_t n_runs, const char *const *names, uint32_t *out);

#endif
