/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — reports a person reads in a terminal, and exports other tools open. */
#ifndef HPCDB_REPORT_H
#define HPCDB_REPORT_H

/* ABI (docs/api-stability.md): the layouts of this header's structs, other
 * than options structs and ops tables (which carry a version), may change in
 * any 0.x minor release; code that reads their fields is recompiled for it. */

#include "hpcdb/export.h"

#include <stdio.h>

#include "hpcdb/model.h"
#include "hpcdb/source.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hpcdb_view {
  HPCDB_VIEW_TOP_DOWN = 0, /* the calling-context tree */
  HPCDB_VIEW_BOTTOM_UP,    /* functions by exclusive cost, with their callers */
  HPCDB_VIEW_FLAT,         /* load module > function > loop / line */
  HPCDB_VIEW_PROFILES      /* one row per profile, with the spread across them */
} hpcdb_view;

/* The profiles view's groups: by kind of profile (CPU threads, GPU streams: the default), or one
 * group per rank, thread, node or GPU (context) of the profiles' identities. */
typedef enum hpcdb_group_by {
  HPCDB_BY_KIND = 0,
  HPCDB_BY_RANK,
  HPCDB_BY_THREAD,
  HPCDB_BY_NODE,
  HPCDB_BY_GPU
} hpcdb_group_by;

/* What the top-down and bottom-up views fold away (bits). */
#define HPCDB_COLLAPSE_LIBS 0x1u   /* a library's calls into itself: one row, the hidden frames counted */
#define HPCDB_COLLAPSE_CHAINS 0x2u /* frames with one child and no cost of their own: one row */

#define HPCDB_REPORT_OPTIONS_VERSION 1
#define HPCDB_REPORT_OPTIONS_INIT \
  { .version = HPCDB_REPORT_OPTIONS_VERSION }
typedef struct hpcdb_report_options {
  unsigned version; /* HPCDB_REPORT_OPTIONS_VERSION (0 is taken as 1); docs/api-stability.md */
  hpcdb_view view;
  const char *const *metrics; /* metric names to show; NULL: hpcdb_default_metric and the next non-zero ones (three) */
  uint32_t n_metrics;
  uint32_t top;            /* rows per level (top-down) or in all (other views); 0: all */
  double threshold;        /* top-down: fold children below this fraction of the total */
  uint32_t depth;          /* top-down: levels shown; 0: all */
  int hot_path;            /* top-down: follow only the child holding >= 50% of its parent */
  const char *profile;     /* the profiles to show: an identity or a pattern (hpcdb_profile_matches); NULL: all */
  int csv;                 /* comma-separated values instead of aligned text */
  int json;                /* a JSON document instead */
  int color;               /* ANSI colour (only for terminals) */
  uint32_t width;          /* columns of aligned text (default 100) */
  hpcdb_group_by group_by; /* profiles view: the groups */
  int functions_only;      /* top-down, bottom-up: lines, loops and inlined calls folded into their function */
  unsigned collapse;       /* top-down: HPCDB_COLLAPSE_* */
  int all_scopes;          /* top-down: loops without a line are rows too (named by address); line scopes without a
                         line never are */
  int all_values;          /* exp holds every metric's values (not a partial read): where the shown metric has
                         none, the profiles view may then name one that has */
} hpcdb_report_options;

/* "libs", "chains", "libs,chains" or "none" to HPCDB_COLLAPSE_* bits; -1 for anything else. */
HPCDB_API int hpcdb_report_parse_collapse(const char *text, unsigned *bits);

/* A profile selection: a whole identity ("RANK 3 THREAD 0") or a pattern of identity levels
 * ("rank=3", "rank=0-7,thread=0"; a level's kind name in any case = a number or a range).
 * _check: 0 when the pattern is well formed, else -1 and why (for a message). */
HPCDB_API int hpcdb_profile_pattern_check(const char *pattern, char *why, size_t size);
/* 1 when profile p is selected by selection. */
HPCDB_API int hpcdb_profile_matches(const hpcdb_experiment *exp, const hpcdb_profile *p, const char *selection);

HPCDB_API int hpcdb_report(FILE *out, const hpcdb_experiment *exp, const hpcdb_report_options *options);

/* hpcdb_default_metric: hpcdb/query.h. */

/* Brendan Gregg's folded stacks: one line per context with exclusive cost,
 * "frame;frame;frame value", for the named metric (NULL: the first). */
HPCDB_API int hpcdb_export_folded(FILE *out, const hpcdb_experiment *exp, const char *metric, const char *profile);

/* speedscope's JSON file format: one sampled profile per thread profile,
 * samples = calling paths weighted by their own cost of the metric. */
HPCDB_API int hpcdb_export_speedscope(FILE *out, const hpcdb_experiment *exp, const char *metric);

/* Trace Event Format JSON (Perfetto, chrome://tracing) from the traces: one
 * track per profile, nested B/E slices from the sampled calling paths. */
HPCDB_API int hpcdb_export_chrome_trace(FILE *out, const hpcdb_experiment *exp);

/* A self-contained interactive SVG flame graph (hover, click to zoom). */
HPCDB_API int hpcdb_export_flamegraph(FILE *out, const hpcdb_experiment *exp, const char *metric);

/* One self-contained HTML page (no network, opens from disk): hpcdb view's
 * page over a snapshot of the data (the metrics that fit a budget, the
 * heaviest 20,000 nodes of each view by each of them, the spreads over the
 * profiles of the heaviest nodes), the flame graph and, with traces, a
 * timeline. metric: the one the page opens with (NULL: the default). */
HPCDB_API int hpcdb_export_html(FILE *out, const hpcdb_experiment *exp, const char *metric);

/* ---- the exports by name (one table, src/lib/report/exports.c) ---------- */

#define HPCDB_EXPORT_TAKES_METRIC 0x1u  /* a metric to show (default: hpcdb_default_metric) */
#define HPCDB_EXPORT_TAKES_PROFILE 0x2u /* one profile, or the sum of those a pattern selects */

typedef enum hpcdb_export_reads {
  HPCDB_EXPORT_READS_SUMMARY = 0, /* the summary profile's values (the whole program) */
  HPCDB_EXPORT_READS_ALL = 1,     /* every profile's values and the traces */
  HPCDB_EXPORT_READS_PROFILES = 2 /* every profile's values, one at a time through the source */
} hpcdb_export_reads;

typedef struct hpcdb_export_info {
  const char *name; /* "folded", "csv", ... */
  const char *help; /* what it writes and for which tools: one paragraph for a person */
  unsigned takes;   /* HPCDB_EXPORT_TAKES_* */
  hpcdb_export_reads reads;
} hpcdb_export_info;

#define HPCDB_EXPORT_OPTIONS_VERSION 1
#define HPCDB_EXPORT_OPTIONS_INIT \
  { .version = HPCDB_EXPORT_OPTIONS_VERSION }
typedef struct hpcdb_export_options {
  unsigned version;    /* HPCDB_EXPORT_OPTIONS_VERSION (0 is taken as 1); docs/api-stability.md */
  const char *metric;  /* NULL: the default metric (then told to chose) */
  const char *profile; /* an identity as 'hpcdb info' prints it, or a pattern (rank=0-7) */
  /* told the metric an export that takes one shows when none was named, and why (NULL: not told) */
  void (*chose)(void *user, const char *metric, const char *why);
  void *user;
} hpcdb_export_options;

/* The exports in the order they are listed; NULL past the end. */
HPCDB_API const hpcdb_export_info *hpcdb_export_get(uint32_t i);
/* The export of that name, or NULL. */
HPCDB_API const hpcdb_export_info *hpcdb_export_find(const char *name);
/* How a source for this export is best opened (hpcdb_source_open's load):
 * the values it reads, and every profile's when a profile is selected. */
HPCDB_API void hpcdb_export_read_options(const hpcdb_export_info *e, const hpcdb_export_options *o,
                                         struct hpcdb_read_options *out);
/* Writes the export named name of src to out: HPCDB_EINVAL for an unknown
 * name or an option the export does not take; a lazy source's values are
 * read as the export needs them (hpcdb_source_load). */
HPCDB_API int hpcdb_export(FILE *out, hpcdb_source *src, const char *name, const hpcdb_export_options *o);

/* Every value in long form: context,profile,metric,inclusive,exclusive. */
HPCDB_API int hpcdb_export_csv(FILE *out, const hpcdb_experiment *exp);
/* The same rows from any source (hpcdb/source.h), one profile's values in
 * memory at a time (a v4.0 database's read from profile.db). */
HPCDB_API int hpcdb_export_csv_source(FILE *out, hpcdb_source *src);

#ifdef __cplusplus
}
#endif
#endif
