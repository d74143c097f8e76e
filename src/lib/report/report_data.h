/* SPDX-License-Identifier: BSD-3-Clause */
/* What every view works from: the chosen metrics as columns, and each
 * context's inclusive and exclusive value per column, taken from the
 * summary profile, one profile, or the sum of all profiles (internal). */
#ifndef HPCDB_REPORT_DATA_H
#define HPCDB_REPORT_DATA_H

#include <stddef.h>
#include <stdio.h>

#include "hpcdb/model.h"
#include "hpcdb/report.h"

#define REPORT_MAX_COLUMNS 8

typedef struct column {
  uint32_t metric;
  const char *name;
  const char *formula; /* a derived metric's formula (metric is then HPCDB_NONE), else NULL */
  double seconds; /* seconds per unit when the name gives a time unit ("(sec)", "(ms)", "(usec)", "(ns)"), else 0 */
  int extreme; /* HPCDB_COMBINE_MIN / _MAX: a minimum or maximum over the subtree (Cube's): no total, no share; 0 a sum */
  uint8_t integer; /* HPCDB_INTEGER_*: an integer metric, exact in report_data's iinc / iexc / iself; 0: doubles only */
} column;

typedef struct report_data {
  const hpcdb_experiment *exp;
  column cols[REPORT_MAX_COLUMNS];
  uint32_t n_cols;
  double *inc, *exc;                /* [context index × n_cols + column] */
  double *self;                     /* the context's own cost: inclusive minus its children's inclusive */
  double total[REPORT_MAX_COLUMNS]; /* the whole program: the root's inclusive value */
  /* The integer columns' exact values beside the doubles, laid out as inc / exc / self (NULL when no
   * column is an integer one), added and subtracted modulo 2^64 as CubeLib does (data_integers.c) */
  uint64_t *iinc, *iexc, *iself;
  uint64_t itotal[REPORT_MAX_COLUMNS];
  const char *source; /* "summary profile", "RANK 0 THREAD 1", "sum of N profiles" */
  const char *why;    /* without metric names: why the first column's metric was chosen */
  char source_buf[256];
} report_data;

/* Columns from names (NULL: hpcdb_default_metric, then the next summable metrics with
 * non-zero values, up to max_default), values from the profiles the selection
 * picks (hpcdb_profile_matches; NULL: the summary, or all profiles). */
int report_data_build(report_data *d, const hpcdb_experiment *exp, const char *const *metrics, uint32_t n_metrics,
                      const char *profile, uint32_t max_default);
void report_data_free(report_data *d);

static inline double rd_inc(const report_data *d, uint32_t ctx, uint32_t col) {
  return d->inc[(size_t)ctx * d->n_cols + col];
}
static inline double rd_exc(const report_data *d, uint32_t ctx, uint32_t col) {
  return d->exc[(size_t)ctx * d->n_cols + col];
}
static inline double rd_self(const report_data *d, uint32_t ctx, uint32_t col) {
  return d->self[(size_t)ctx * d->n_cols + col];
}
/* The exact integers of a context's row (every column; only integer columns' hold values), NULL
 * without integer columns. */
static inline const uint64_t *rd_iinc(const report_data *d, uint32_t ctx) {
  return d->iinc ? d->iinc + (size_t)ctx * d->n_cols : NULL;
}

/* data_integers.c: the integer columns (allocated, filled beside the doubles, derived as they are). */
int report_integers_alloc(report_data *d);
/* Adds value v of profile p, which add_profile adds as a double into cell (context i, column c) of
 * inc (or exc); a value that is not an integer of the column's metric makes the column doubles only. */
void report_integers_add(report_data *d, uint32_t p, uint64_t v, size_t cell, int exclusive);
/* derive()'s sums and differences for the integer columns, in integer arithmetic. */
void report_integers_derive(report_data *d, const uint8_t *have_inc, const uint8_t *have_exc);
/* The integer u of a column as a person reads it: a UINT64 unsigned, a signed type signed. */
static inline double report_integer_double(uint64_t u, uint8_t kind) {
  return kind == HPCDB_INTEGER_SIGNED ? (double)(int64_t)u : (double)u;
}

/* A context as a person reads it: function name, else file:line, else
 * module+0xoffset; loops "loop at file:line"; inlined calls marked. */
size_t report_name(const hpcdb_experiment *exp, uint32_t ctx, char *buf, size_t size);
/* The frame a context belongs to: itself or its nearest ancestor reached by
 * a call (or an entry point; with functions_only, inlined calls fold into
 * their function too); the unit bottom-up and flat views count by. */
uint32_t report_frame(const hpcdb_experiment *exp, uint32_t ctx, int functions_only);
/* A value with its unit and sensible precision, right-aligned in width. */
/* v for a person: a time when seconds (per unit of v) is not 0, else with an SI prefix. */
void report_value(char *buf, size_t size, double v, double seconds);
/* The seconds per unit of a metric: from its name ("CPUTIME (usec)") or its unit ("sec", as Cube's uom);
 * 0 when neither is a time unit. */
double report_time_unit(const char *name, const char *unit);
/* The views (topdown.c, bottomup.c: flat when flat, profiles.c). */
int report_top_down(FILE *out, const report_data *d, const hpcdb_report_options *o);
int report_bottom_up(FILE *out, const report_data *d, const hpcdb_report_options *o, int flat);
int report_profiles(FILE *out, const report_data *d, const hpcdb_report_options *o);
/* 1 when the load module at path is a system or runtime library (libc, libm, MPI, OpenMP, CUDA, ROCm,
 * BLAS...: by name and by the runtimes' install locations, runtime_libs.c), never a program's own. */
int report_runtime_library(const char *path);
/* s with <, >, & and " as entities: the text of SVG and HTML alike. */
void report_markup_text(FILE *out, const char *s);
/* The flame graph as SVG (flamegraph.c): a file of its own when standalone,
 * else an element for the HTML report. */
int report_flamegraph_svg(FILE *out, const hpcdb_experiment *exp, const char *metric, int standalone);
/* The traces as an SVG element: a row per trace, an interval per run of samples in one context (timeline_svg.c). */
void report_timeline_svg(FILE *out, const hpcdb_experiment *exp);

#endif
