/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — HPCToolkit v4.0 databases: read and written whole or streamed, and
 * their values read in place (zero-copy, memory-mapped). */
#ifndef HPCDB_HPCTK4_H
#define HPCDB_HPCTK4_H

#include "hpcdb/export.h"

#include <stdint.h>
#include <stdio.h>

#include "hpcdb/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- HPCToolkit v4.0 databases ------------------------------------------ */

/* Reads a database directory (meta.db required; profile.db, cct.db, trace.db
 * when present) or a single meta.db. */
HPCDB_API int hpcdb_hpctk4_read(hpcdb_experiment **out, const char *path);

/* Writes meta.db, profile.db, cct.db (and trace.db when the experiment has
 * traces) into dir, each through a temporary file renamed on success. */
HPCDB_API int hpcdb_hpctk4_write(const hpcdb_experiment *exp, const char *dir, unsigned flags);

/* Writing a database whose values do not fit in memory at once: open the
 * stream (the directory is checked as hpcdb_hpctk4_write does), hand over each
 * profile's values as soon as they are final (they may be freed right after),
 * then finish with the experiment: its tables, tree, traces and profile
 * identities, and the values of any profile not streamed yet (e.g. the
 * summary). finish writes meta.db, profile.db, cct.db (transposed from
 * profile.db, chunk by chunk), trace.db and metrics/ and frees the stream;
 * abort drops everything written so far. */
typedef struct hpcdb_hpctk4_stream hpcdb_hpctk4_stream;
HPCDB_API int hpcdb_hpctk4_stream_open(hpcdb_hpctk4_stream **out, const char *dir, unsigned flags);
HPCDB_API int hpcdb_hpctk4_stream_profile(hpcdb_hpctk4_stream *s, uint32_t profile_index, const hpcdb_profile *p);
HPCDB_API int hpcdb_hpctk4_stream_finish(hpcdb_hpctk4_stream *s, const hpcdb_experiment *exp);
HPCDB_API void hpcdb_hpctk4_stream_abort(hpcdb_hpctk4_stream *s);

/* ---- zero-copy access to a v4.0 database --------------------------------- */

typedef struct hpcdb_db hpcdb_db;

/* Maps the files of a database directory and checks their headers; values are
 * not loaded. */
HPCDB_API int hpcdb_db_open(hpcdb_db **out, const char *dir);
HPCDB_API void hpcdb_db_close(hpcdb_db *db);
HPCDB_API uint32_t hpcdb_db_profile_count(const hpcdb_db *db);
HPCDB_API uint32_t hpcdb_db_context_count(const hpcdb_db *db); /* cct.db nCtxs, 0 without cct.db */

/* One value by binary search in profile.db: returns 1 and sets *out when
 * present, 0 (and *out = 0) when absent, negative on a corrupt file. */
HPCDB_API int hpcdb_db_profile_value(const hpcdb_db *db, uint32_t profile, uint32_t ctx_id, uint16_t metric_id,
                                     double *out);
/* One value by binary search in cct.db, same contract. */
HPCDB_API int hpcdb_db_context_value(const hpcdb_db *db, uint32_t ctx_id, uint16_t metric_id, uint32_t profile,
                                     double *out);

typedef int (*hpcdb_value_fn)(void *user, uint32_t a, uint32_t b, double value);
/* Calls fn(user, ctx_id, metric_id, value) for every value of a profile, in
 * file order; a non-zero return from fn stops and is returned. */
HPCDB_API int hpcdb_db_profile_scan(const hpcdb_db *db, uint32_t profile, hpcdb_value_fn fn, void *user);
/* One profile's values decoded and checked as hpcdb_hpctk4_read decodes them,
 * into out's CSR arrays (n_ctxs, ctx_ids, ctx_starts, n_values, metric_ids,
 * values; its other fields are not touched): a profile as the model holds it,
 * one at a time. Release them with hpcdb_profile_clear_values. */
HPCDB_API int hpcdb_db_profile_values(const hpcdb_db *db, uint32_t profile, hpcdb_profile *out);
/* Calls fn(user, metric_id, profile_index, value) for the values of one
 * context in cct.db; with metric_id == HPCDB_ALL_METRICS every metric's slice
 * is visited, otherwise only that metric's. A whole context's block is read
 * with pread, not through the mapping: a pass over every context keeps a
 * resident set of one block, not the file. */
#define HPCDB_ALL_METRICS 0x10000u
HPCDB_API int hpcdb_db_context_scan(const hpcdb_db *db, uint32_t ctx_id, uint32_t metric_id, hpcdb_value_fn fn,
                                    void *user);

/* The tree, metrics and profile identities of a database directory without
 * its values (the profiles of *out hold none; traces are not read), and the
 * database opened as by hpcdb_db_open to read them on demand: opening takes
 * the time meta.db and profile.db's Profile Info take, whatever the size of
 * the values. Free both (hpcdb_experiment_free, hpcdb_db_close). */
HPCDB_API int hpcdb_hpctk4_read_lazy(hpcdb_experiment **out, hpcdb_db **db, const char *dir);

/* The same text from a v4.0 database with cct.db: exp read with
 * HPCDB_READ_SUMMARY_ONLY (tree, metrics, profiles, traces, the summary
 * profiles' values), db opened by hpcdb_db_open on the same directory. The
 * thread profiles' values come from cct.db, one context at a time (memory:
 * the model and one context's values), not from exp or profile.db; where the
 * two files disagree (validate's rule "transpose") the text follows cct.db.
 * HPCDB_EINVAL when db has no cct.db. */
HPCDB_API int hpcdb_dump_json_db(FILE *out, const hpcdb_experiment *exp, const hpcdb_db *db);

#ifdef __cplusplus
}
#endif

#endif
