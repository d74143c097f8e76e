/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — the trace view in the terminal (`hpcdb report --view trace`). */
#ifndef HPCDB_TRACE_REPORT_H
#define HPCDB_TRACE_REPORT_H

#include "hpcdb/export.h"

#include <stdio.h>

#include "hpcdb/model.h"
#include "hpcdb/trace_query.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HPCDB_TRACE_REPORT_OPTIONS_VERSION 1
#define HPCDB_TRACE_REPORT_OPTIONS_INIT \
  { .version = HPCDB_TRACE_REPORT_OPTIONS_VERSION }
typedef struct hpcdb_trace_report_options {
  unsigned version;   /* HPCDB_TRACE_REPORT_OPTIONS_VERSION (0 is taken as 1); docs/api-stability.md */
  int at;             /* 1: the calling path at (profile, timestamp) */
  uint32_t profile;   /* index in profile.db */
  uint64_t timestamp; /* ns, as stored in the trace */
  int window;         /* 1: statistics of [t0, t1) (else of the whole run) */
  uint64_t t0, t1;
  uint32_t depth;       /* HPCDB_TRACE_LEAF: each element's own context; HPCDB_TRACE_ALL_SCOPES or'ed:
                            every scope counts (with at: every context of the path is printed) */
  const char *profiles; /* hpcdb_trace_rows_matching pattern, or NULL */
  const char *contexts; /* hpcdb_trace_contexts_matching pattern, or NULL */
} hpcdb_trace_report_options;

/* contexts[ctx] named as the tree views name it ("main", "loop at a.c:12",
 * "<main thread>"; "<not running>" for the global context, "<filtered out>"
 * for HPCDB_TRACE_GREY; a loop or line scope without a line, which no tree
 * view shows, by the row its cost is in: its nearest ancestor shown) into
 * buf; returns the length it needed. */
HPCDB_API size_t hpcdb_trace_context_name(const hpcdb_experiment *exp, uint32_t ctx, char *buf, size_t size);

/* Where procedure frame ctx was called from: the name of the innermost line
 * scope between it and its caller's frame ("ping-pong.c:60"), into buf;
 * returns the length it needed (0, buf "", when the tree has none, or that
 * scope has no file and line: "[libpsm2.so]:0" names no site). */
HPCDB_API size_t hpcdb_trace_call_site(const hpcdb_experiment *exp, uint32_t ctx, char *buf, size_t size);

/* With o->at: the calling path in effect at that time (the context of the
 * profile's last trace element at or before it), outermost first, named as
 * the tree views name them ("<not running>" when the thread was not
 * running): its procedure frames, one a line, each followed by "  (called
 * at FILE:LINE)" when its call site is known; with HPCDB_TRACE_ALL_SCOPES
 * in o->depth every context of the path. Otherwise: each context's exact
 * share of profile-time in the window at the depth, largest first. */
HPCDB_API int hpcdb_report_trace(FILE *out, const hpcdb_experiment *exp, const hpcdb_trace_set *t,
                                 const hpcdb_trace_report_options *o);

#ifdef __cplusplus
}
#endif
#endif
