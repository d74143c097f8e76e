/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — the formats: detecting, reading, writing and validating any of
 * them through the model, presenting and comparing experiments. */
#ifndef HPCDB_FORMATS_H
#define HPCDB_FORMATS_H

/* ABI (docs/api-stability.md): the layouts of this header's structs, other
 * than options structs and ops tables (which carry a version), may change in
 * any 0.x minor release; code that reads their fields is recompiled for it. */

#include "hpcdb/export.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hpcdb/common.h"
#include "hpcdb/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- formats ------------------------------------------------------------- */

typedef enum hpcdb_format {
  HPCDB_FORMAT_UNKNOWN = 0,
  HPCDB_FORMAT_HPCTK4_DIR,  /* v4.0 database directory */
  HPCDB_FORMAT_HPCTK4_META, /* single v4.0 files */
  HPCDB_FORMAT_HPCTK4_PROFILE,
  HPCDB_FORMAT_HPCTK4_CCT,
  HPCDB_FORMAT_HPCTK4_TRACE,
  HPCDB_FORMAT_HPCRUN,     /* one .hpcrun measurement file */
  HPCDB_FORMAT_HPCTRACE,   /* one .hpctrace file */
  HPCDB_FORMAT_HPCRUN_DIR, /* a measurements directory */
  HPCDB_FORMAT_DRAFT_A,    /* experiment.xml 4.0 + HPCPROF-* */
  HPCDB_FORMAT_DRAFT_B,    /* HPCTOOLKIT_expmt meta.db + HPCPROF-* */
  HPCDB_FORMAT_LEGACY_XML, /* experiment.xml 2.x (+ *.metric-db) */
  HPCDB_FORMAT_CUBE,       /* .cubex */
  HPCDB_FORMAT_HPCSTRUCT   /* hpcstruct's structure file (not an experiment: info and validate) */
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
#define HPCDB_READ_OPTIONS_INIT \
  { .version = HPCDB_READ_OPTIONS_VERSION }
typedef struct hpcdb_read_options {
  unsigned version; /* HPCDB_READ_OPTIONS_VERSION (0 is taken as 1); docs/api-stability.md */
  hpcdb_read_values values;
  const char *const *metrics; /* HPCDB_READ_METRICS: model metric names (as hpcdb info prints them) */
  uint32_t n_metrics;
  unsigned flags; /* HPCDB_READ_SUMMARY_ONLY, HPCDB_READ_PROFILE_TOTALS */
} hpcdb_read_options;

/* hpcdb_read reading only what options ask for (NULL: everything). */
HPCDB_API int hpcdb_read_opts(hpcdb_experiment **out, const char *path, const hpcdb_read_options *options);

#define HPCDB_WRITE_FORCE 0x1u    /* replace an existing output */
#define HPCDB_WRITE_NO_TRACE 0x2u /* do not write trace.db even if traces exist */
#define HPCDB_WRITE_COMPRESS 0x4u /* compress where the format can (HPCDB_FORMAT_COMPRESSES: Cube's members) */

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
HPCDB_API int hpcdb_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);

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

#define HPCDB_DIFF_OPTIONS_VERSION 1
#define HPCDB_DIFF_OPTIONS_INIT \
  { .version = HPCDB_DIFF_OPTIONS_VERSION }
typedef struct hpcdb_diff_options {
  unsigned version;      /* HPCDB_DIFF_OPTIONS_VERSION (0 is taken as 1); docs/api-stability.md */
  double rel_tolerance;  /* default 1e-9 */
  uint64_t max_reported; /* stop listing after this many (0: no limit) */
  const char *scope;     /* compare only this scope's values (NULL: everything); for comparisons
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

#endif
