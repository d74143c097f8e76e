/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — turning hpcrun measurements into a v4.0 database, as hpcprof does:
 * calling-context trees unified across threads, metrics propagated per
 * thread (point, function, lex_aware, execution), summary statistics over
 * threads, traces mapped to the unified contexts. */
#ifndef HPCDB_ANALYSIS_H
#define HPCDB_ANALYSIS_H

/* ABI (docs/api-stability.md): the layouts of this header's structs, other
 * than options structs and ops tables (which carry a version), may change in
 * any 0.x minor release; code that reads their fields is recompiled for it. */

#include "hpcdb/export.h"

#include <stdint.h>

#include "hpcdb/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How far the analysis is: done of total measurement files read (or
 * skipped), called on the calling thread after each file. */
typedef void (*hpcdb_progress_fn)(void *user, uint64_t done, uint64_t total);

#define HPCDB_ANALYZE_OPTIONS_VERSION 1
#define HPCDB_ANALYZE_OPTIONS_INIT \
  { .version = HPCDB_ANALYZE_OPTIONS_VERSION }
typedef struct hpcdb_analyze_options {
  unsigned version;           /* HPCDB_ANALYZE_OPTIONS_VERSION (0 is taken as 1); docs/api-stability.md */
  unsigned threads;           /* worker threads (0 or 1: one) */
  int all_stats;              /* add count, sum of squares, min and max to the summary (hpcprof --stats) */
  int strict;                 /* a bad measurement file fails the run instead of being skipped */
  unsigned write_flags;       /* HPCDB_WRITE_* for the database */
  const char *output;         /* when set, the database is written there as the profiles are made
                           (memory holds the tree, not every value); the returned experiment then
                           keeps the thread profiles' identities but not their values */
  int ignore_structs;         /* no structure files: contexts are load-module offsets (hpcprof --ignore-structs) */
  const char *const *structs; /* more structure files or directories of them (hpcprof -S), before
                                 MEASUREMENTS/structs */
  uint32_t n_structs;
  const char *const *replace_paths; /* "OLD=NEW": a binary recorded under OLD is found under NEW
                                       (hpcprof -R) */
  uint32_t n_replace_paths;
  hpcdb_progress_fn progress; /* optional */
  void *progress_user;
  int openmp_raw; /* with output: each thread's tree as measured (hpcprof's), not hpcdb_openmp_attribute's
                     (which rewrites the database; the returned experiment keeps the tree as measured) */
} hpcdb_analyze_options;

typedef struct hpcdb_analyze_result {
  uint32_t profiles_read; /* measurement files that became profiles */
  uint32_t profiles_skipped;
  uint32_t traces_read;
  uint32_t contexts; /* in the unified tree, including entry points */
  uint64_t values;   /* stored in profile.db */
} hpcdb_analyze_result;

/* Receives one warning (e.g. a skipped file) as a line of text. */
typedef void (*hpcdb_warning_fn)(void *user, const char *message);

/* Builds the experiment hpcprof would write for a measurements directory
 * (and writes it, with options->output). The caller frees *out. Warnings
 * (skipped files) go to warn when not NULL. */
HPCDB_API int hpcdb_analyze(hpcdb_experiment **out, const char *measurements, const hpcdb_analyze_options *options,
                            hpcdb_warning_fn warn, void *user, hpcdb_analyze_result *result);

/* OpenMP regions where the program entered them. Without an OMPT runtime (GNU libgomp has none) a
 * worker thread's samples unwind to its own root: <application thread> -> runtime frames -> the
 * outlined region (GCC's X._omp_fn.N, clang's .omp_outlined.), apart from where the master thread
 * entered it (main -> ... -> GOMP_parallel -> X._omp_fn.N). This rewrites the database db (as
 * hpcdb_analyze writes it) with each worker's region subtree merged into the master's region context
 * when the master entered that outlined function from one calling context only, else placed under an
 * "<omp parallel region X>" context below the worker's thread root. Values stay in their thread's
 * profile (sums over threads unchanged), the summary is made again; without worker regions the
 * database is left as it is. *regions: the workers' region contexts moved (0: none). */
HPCDB_API int hpcdb_openmp_attribute(const char *db, unsigned threads, unsigned write_flags, uint32_t *regions);

#ifdef __cplusplus
}
#endif
#endif
