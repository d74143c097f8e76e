/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — read, write, check and convert HPC performance data.
 *
 * Conventions: every function that can fail returns 0 or a negative
 * hpcdb_status; the message with context (path, section, offset, rule) is then
 * available from hpcdb_last_error() in the same thread. Out-parameters come
 * first; what comes back through **out is the caller's to release with the
 * matching _free/_close function (all NULL-safe). The library never prints. */
#ifndef HPCDB_HPCDB_H
#define HPCDB_HPCDB_H

/* ABI (docs/api-stability.md): the layouts of this header's structs, other
 * than options structs and ops tables (which carry a version), may change in
 * any 0.x minor release; code that reads their fields is recompiled for it. */

#include "hpcdb/export.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hpcdb/model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HPCDB_VERSION_MAJOR 0
#define HPCDB_VERSION_MINOR 2
#define HPCDB_VERSION_PATCH 0
#define HPCDB_VERSION_STRING "0.2.0"
/* One number that compares: 0.1.0 is 100, 1.2.3 is 10203 (as SQLite and zstd do). */
#define HPCDB_VERSION_NUMBER (HPCDB_VERSION_MAJOR * 10000 + HPCDB_VERSION_MINOR * 100 + HPCDB_VERSION_PATCH)
/* The version of the library linked at run time (the macros: the headers compiled against). */
HPCDB_API const char *hpcdb_version(void);
HPCDB_API unsigned hpcdb_version_number(void);

typedef enum hpcdb_status {
  HPCDB_OK = 0,
  HPCDB_ENOTFORMAT = -1,   /* not this format (bad magic, unknown file) */
  HPCDB_EVERSION = -2,     /* a version this library does not read */
  HPCDB_ETRUNCATED = -3,   /* data ends before a structure does */
  HPCDB_ECORRUPT = -4,     /* a rule of the format is broken */
  HPCDB_EIO = -5,          /* the operating system said no */
  HPCDB_ENOMEM = -6,       /* out of memory, or a size that cannot be allocated */
  HPCDB_EINVAL = -7,       /* the caller's arguments are wrong */
  HPCDB_EUNSUPPORTED = -8, /* valid input this library cannot represent */
  HPCDB_EEXIST = -9,       /* the output exists and may not be overwritten */
  HPCDB_ECANCELED = -10    /* the caller's cancel hook said stop (the work was superseded) */
} hpcdb_status;

/* Message of the last failure in this thread ("" when none). */
HPCDB_API const char *hpcdb_last_error(void);
HPCDB_API void hpcdb_clear_error(void);
HPCDB_API const char *hpcdb_status_name(int status);

/* Removes what runs writing output left behind when they were killed: the
 * hidden temporaries beside it, `.NAME.hpcdb-tmp-PID.*`, whose PID is not a
 * live process (a live run's are never touched). Every writer of the library
 * does this itself before writing; for a program's own writers. */
HPCDB_API void hpcdb_remove_leftovers(const char *output);

/* ---- formats ------------------------------------------------------------- */

typedef enum hpcdb_format {
  HPCDB_FORMAT_UNKNOWN = 0,
  HPCDB_FORMAT_HPCTK4_DIR,     /* v4.0 database directory */
  HPCDB_FORMAT_HPCTK4_META,    /* single v4.0 files */
  HPCDB_FORMAT_HPCTK4_PROFILE,
  HPCDB_FORMAT_HPCTK4_CCT,
  HPCDB_FORMAT_HPCTK4_TRACE,
  HPCDB_FORMAT_HPCRUN,         /* one .hpcrun measurement file */
  HPCDB_FORMAT_HPCTRACE,       /* one .hpctrace file */
  HPCDB_FORMAT_HPCRUN_DIR,     /* a measurements directory */
  HPCDB_FORMAT_DRAFT_A,        /* experiment.xml 4.0 + HPCPROF-* */
  HPCDB_FORMAT_DRAFT_B,        /* HPCTOOLKIT_expmt meta.db + HPCPROF-* */
  HPCDB_FORMAT_LEGACY_XML,     /* experiment.xml 2.x (+ *.metric-db) */
  HPCDB_FORMAT_CUBE,           /* .cubex */
  HPCDB_FORMAT_HPCSTRUCT       /* hpcstruct's structure file (not an experiment: info and validate) */
} hpcdb_format;

/* Detects the format of a file or directory from its bytes, not its name. */
HPCDB_API int hpcdb_detect(hpcdb_format *out, const char *path);
HPCDB_API const char *hpcdb_format_name(hpcdb_format format);

/* Reads any supported format into a new experiment. */
HPCDB_API int hpcdb_read(hpcdb_experiment **out, const char *path);

/* What a reader must load. Formats that cannot read less read everything;
 * what they read is then the same as hpcdb_read's. */
typedef enum hpcdb_read_values {
  HPCDB_READ_ALL = 0,       /* every value of every metric */
  HPCDB_READ_STRUCTURE = 1, /* tree, metrics, profiles' identities; profiles may hold no values */
  HPCDB_READ_METRICS = 2,   /* the structure and the values of the named metrics (others may be empty) */
  HPCDB_READ_COUNTS = 3     /* the structure, and each profile's values either kept or only counted
                               (hpcdb_profile.n_counted): what hpcdb info prints */
} hpcdb_read_values;

/* The values of the summary profiles only: the other profiles may hold none. */
#define HPCDB_READ_SUMMARY_ONLY 0x1u
/* The summary profiles' values, and of the other profiles only each metric's
 * total as hpcdb_report's profiles view takes it: the profile's value at the
 * global context (id 0), or where it has none there, the sum of its point
 * values (in the order of its contexts), held as its one point value, at the
 * global context. Ignored with HPCDB_READ_SUMMARY_ONLY or HPCDB_READ_COUNTS. */
#define HPCDB_READ_PROFILE_TOTALS 0x2u

#define HPCDB_READ_OPTIONS_VERSION 1
#define HPCDB_READ_OPTIONS_INIT {.version = HPCDB_READ_OPTIONS_VERSION}
typedef struct hpcdb_read_options {
  unsigned version; /* HPCDB_READ_OPTIONS_VERSION (0 is taken as 1); docs/api-stability.md */
  hpcdb_read_values values;
  const char *const *metrics; /* HPCDB_READ_METRICS: model metric names (as hpcdb info prints them) */
  uint32_t n_metrics;
  unsigned flags;             /* HPCDB_READ_SUMMARY_ONLY, HPCDB_READ_PROFILE_TOTALS */
} hpcdb_read_options;

/* hpcdb_read reading only what options ask for (NULL: everything). */
HPCDB_API int hpcdb_read_opts(hpcdb_experiment **out, const char *path, const hpcdb_read_options *options);

/* ---- HPCToolkit v4.0 databases ------------------------------------------ */

/* Reads a database directory (meta.db required; profile.db, cct.db, trace.db
 * when present) or a single meta.db. */
HPCDB_API int hpcdb_hpctk4_read(hpcdb_experiment **out, const char *path);

#define HPCDB_WRITE_FORCE 0x1u    /* replace an existing output */
#define HPCDB_WRITE_NO_TRACE 0x2u /* do not write trace.db even if traces exist */
#define HPCDB_WRITE_COMPRESS 0x4u /* compress where the format can (HPCDB_FORMAT_COMPRESSES: Cube's members) */
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
HPCDB_API int hpcdb_db_profile_value(const hpcdb_db *db, uint32_t profile, uint32_t ctx_id,
                                     uint16_t metric_id, double *out);
/* One value by binary search in cct.db, same contract. */
HPCDB_API int hpcdb_db_context_value(const hpcdb_db *db, uint32_t ctx_id, uint16_t metric_id,
                                     uint32_t profile, double *out);

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
HPCDB_API int hpcdb_db_context_scan(const hpcdb_db *db, uint32_t ctx_id, uint32_t metric_id,
                                    hpcdb_value_fn fn, void *user);

/* The tree, metrics and profile identities of a database directory without
 * its values (the profiles of *out hold none; traces are not read), and the
 * database opened as by hpcdb_db_open to read them on demand: opening takes
 * the time meta.db and profile.db's Profile Info take, whatever the size of
 * the values. Free both (hpcdb_experiment_free, hpcdb_db_close). */
HPCDB_API int hpcdb_hpctk4_read_lazy(hpcdb_experiment **out, hpcdb_db **db, const char *dir);

/* ---- validation ---------------------------------------------------------- */

typedef enum hpcdb_severity { HPCDB_SEV_ERROR = 0, HPCDB_SEV_NOTE = 1 } hpcdb_severity;

typedef struct hpcdb_diagnostic {
  hpcdb_severity severity;
  const char *file;   /* path of the file the problem is in */
  uint64_t offset;    /* byte offset the rule was checked at */
  const char *rule;   /* short rule name, e.g. "section-bounds" */
  const char *detail; /* what was found */
} hpcdb_diagnostic;

typedef void (*hpcdb_diagnostic_fn)(void *user, const hpcdb_diagnostic *d);

typedef struct hpcdb_validation {
  uint64_t errors;
  uint64_t notes;
} hpcdb_validation;

/* Checks every rule of the format's specification for path (a database
 * directory or a single file). Problems go to fn; counts to *result. Returns 0
 * when the check ran (look at result->errors), negative when path could not
 * be read at all. */
HPCDB_API int hpcdb_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn,
                             void *user);

/* ---- presenting and comparing ------------------------------------------- */

/* What contexts[index] is, in the words of hpcdb_dump_json's tree ("call
 * function main in app+0x4a0 def cpi.c:12", "entry 1 \"main thread\"",
 * "<global>") into buf; returns the length it needed ("" and 0 for an index
 * out of range). */
HPCDB_API size_t hpcdb_context_label(const hpcdb_experiment *exp, uint32_t index, char *buf, size_t size);

/* Human-readable summary (what `hpcdb info` prints). */
HPCDB_API int hpcdb_write_info(FILE *out, const hpcdb_experiment *exp);
/* The whole content, human-readable. */
HPCDB_API int hpcdb_dump_text(FILE *out, const hpcdb_experiment *exp);
/* Canonical JSON: strings and references resolved, contexts as a nested tree,
 * values sorted; two equal experiments give identical text. */
HPCDB_API int hpcdb_dump_json(FILE *out, const hpcdb_experiment *exp);
/* The same text from a v4.0 database with cct.db: exp read with
 * HPCDB_READ_SUMMARY_ONLY (tree, metrics, profiles, traces, the summary
 * profiles' values), db opened by hpcdb_db_open on the same directory. The
 * thread profiles' values come from cct.db, one context at a time (memory:
 * the model and one context's values), not from exp or profile.db; where the
 * two files disagree (validate's rule "transpose") the text follows cct.db.
 * HPCDB_EINVAL when db has no cct.db. */
HPCDB_API int hpcdb_dump_json_db(FILE *out, const hpcdb_experiment *exp, const hpcdb_db *db);

#define HPCDB_DIFF_OPTIONS_VERSION 1
#define HPCDB_DIFF_OPTIONS_INIT {.version = HPCDB_DIFF_OPTIONS_VERSION}
typedef struct hpcdb_diff_options {
  unsigned version; /* HPCDB_DIFF_OPTIONS_VERSION (0 is taken as 1); docs/api-stability.md */
  double rel_tolerance;    /* default 1e-9 */
  uint64_t max_reported;   /* stop listing after this many (0: no limit) */
  const char *scope;       /* compare only this scope's values (NULL: everything); for comparisons
                              across formats: scopes, statistics, traces and values outside the
                              tree that one side lacks are then not differences */
} hpcdb_diff_options;

typedef void (*hpcdb_line_fn)(void *user, const char *line);

/* ---- the formats (one descriptor each, listed by `hpcdb formats`) -------- */
#define HPCDB_FORMAT_CAN_READ 0x1u        /* into the model */
#define HPCDB_FORMAT_CAN_READ_PART 0x2u   /* honours hpcdb_read_options (reads less) */
#define HPCDB_FORMAT_CAN_WRITE 0x4u       /* from the model (hpcdb_write) */
#define HPCDB_FORMAT_CAN_VALIDATE 0x8u    /* checks every rule of its documents */
#define HPCDB_FORMAT_CARRIES_TRACES 0x10u /* holds traces */
#define HPCDB_FORMAT_COMPRESSES 0x20u     /* its writer honours HPCDB_WRITE_COMPRESS */

typedef struct hpcdb_format_info {
  const char *name;   /* "hpctoolkit-v4", "cube", ... */
  const char *writer; /* the name hpcdb_write (convert --to) takes, NULL when not written */
  unsigned caps;      /* HPCDB_FORMAT_* above */
  uint32_t n_kinds;   /* the hpcdb_format values it answers for */
} hpcdb_format_info;

/* The i-th format (HPCDB_EINVAL past the end). */
HPCDB_API int hpcdb_format_get(uint32_t i, hpcdb_format_info *out);
/* The name of the i-th format's k-th kind (as hpcdb_format_name), or NULL. */
HPCDB_API const char *hpcdb_format_kind_name(uint32_t i, uint32_t k);
/* Writes exp with the writer of that name (hpcdb_format_info.writer):
 * HPCDB_EINVAL for a name no format writes. flags: HPCDB_WRITE_*. */
HPCDB_API int hpcdb_write(const char *writer, const hpcdb_experiment *exp, const char *path, unsigned flags);
/* What that writer cannot carry of exp, one line each to fn (NULL: not
 * told); returns how many kinds of data would be lost. */
HPCDB_API uint64_t hpcdb_write_losses(const char *writer, const hpcdb_experiment *exp, hpcdb_line_fn fn, void *user);

/* Semantic comparison: contexts by calling path, profiles by identity, metrics
 * by name and scope, values within the relative tolerance. Each difference is
 * one line to fn; *n_differences gets the count (0 means the same). */
HPCDB_API int hpcdb_diff(uint64_t *n_differences, const hpcdb_experiment *a, const hpcdb_experiment *b,
                         const hpcdb_diff_options *options, hpcdb_line_fn fn, void *user);

#ifdef __cplusplus
}
#endif

/* Format modules' own declarations. */
#include "hpcdb/hpcrun.h"
#include "hpcdb/analysis.h"
#include "hpcdb/report.h"
#include "hpcdb/cube.h"
#include "hpcdb/hpctk4_write.h"
#include "hpcdb/source.h"
#include "hpcdb/query.h"
#include "hpcdb/compare.h"
#include "hpcdb/page.h"
#endif
