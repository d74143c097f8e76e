/* SPDX-License-Identifier: BSD-3-Clause */
/* The binary files of the 2021-22 database drafts (internal): profile.db
 * ("HPCPROF-profdb__"), cct.db ("HPCPROF-cctdb___") and trace.db
 * ("HPCPROF-tracedb_"), version 1.0, big-endian. Draft a (experiment.xml)
 * and draft b (HPCTOOLKIT_expmt meta.db) share them; their readers load the
 * tree first and call these for the values and traces. */
#ifndef HPCDB_HPCPROF1_H
#define HPCDB_HPCPROF1_H

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/formats.h"
#include "hpcdb/model.h"

/* Maps metric ids as stored in the file to model metric ids; 0xFFFF = drop the value.
 * A NULL map (or ids >= n) keeps ids as they are in the file. Separate maps for the summary
 * profile (profile info 0) and the others, because the model keeps statistic ids in the
 * summary and propagated-value ids elsewhere. */
typedef struct hpcprof1_metric_map {
  const uint16_t *thread;
  uint32_t n_thread;
  const uint16_t *summary;
  uint32_t n_summary;
} hpcprof1_metric_map;

#define HPCPROF1_DROP 0xFFFFu

/* Appends one model profile per profile info of profile.db in file order (info 0: the summary,
 * flagged HPCDB_PROFILE_SUMMARY, no id tuple), with their values (context ids as in the file,
 * metric ids through map) and id tuples (kind -> exp kind index: add kind names to exp first or
 * let this function add "KIND<n>" names for kinds it does not know). *first_profile gets the
 * model index of info 0. */
int hpcprof1_read_profiles(hpcdb_experiment *exp, const char *profile_db_path, const hpcprof1_metric_map *map,
                           uint32_t *first_profile);

/* Appends the traces of trace.db; prof_info_idx i -> model profile first_profile + i; sets
 * exp->has_traces, trace_min/trace_max (computed from the lines when the header has 0). */
int hpcprof1_read_traces(hpcdb_experiment *exp, const char *trace_db_path, uint32_t first_profile);

/* Checks every rule of profile.db, cct.db and trace.db present in dir (each alone, and cct.db as
 * the transpose of profile.db's non-summary values); when known_ctx_ids (sorted ascending) is
 * given, context ids not in it are reported (as notes, like hpcprof's instruction-level ids).
 * Counts are added to *result (not reset), so a caller can check its own file first; a missing
 * file is not an error here. Rules: docs/formats-notes.md. */
int hpcprof1_validate(hpcdb_validation *result, const char *dir, const uint32_t *known_ctx_ids, size_t n_known,
                      hpcdb_diagnostic_fn fn, void *user);

/* hpcprof1_validate with the metric ids the caller's metadata declares: thread_metrics and
 * summary_metrics are 65536-entry tables (non-zero = declared) for the non-summary profiles and for
 * profile info 0; a value of an undeclared id is an error ("undeclared-metric"). Either may be NULL
 * (not checked). */
int hpcprof1_validate_declared(hpcdb_validation *result, const char *dir, const uint32_t *known_ctx_ids, size_t n_known,
                               const uint8_t *thread_metrics, const uint8_t *summary_metrics, hpcdb_diagnostic_fn fn,
                               void *user);

/* The same readers over bytes already in memory (the fuzz targets call these). */
int hpcprof1_parse_profiles(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path,
                            const hpcprof1_metric_map *map, uint32_t *first_profile);
int hpcprof1_parse_traces(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path,
                          uint32_t first_profile);

#endif
