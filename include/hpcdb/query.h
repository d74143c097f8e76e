/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — the query layer: questions a viewer asks of an experiment,
 * answered as plain structs, over one value interface (a loaded model, a
 * memory-mapped v4.0 database, a Cube file). No sockets, no threads of its
 * own. Several threads may use one hpcdb_query at once: each call holds the
 * query's lock while it reads or fills its caches, and a column's values are
 * computed without it (a caller's hpcdb_qsource_ops are then called from
 * several threads at once, as the built-in sources allow).
 *
 * Nodes: in the top-down view a node is an index into the experiment's
 * contexts (0: the program root). The bottom-up and flat views are
 * aggregations of the same tree: their nodes are row numbers of that view
 * (0: the root; bottom-up: functions, each with its callers; flat: load
 * modules, each with its functions), as `hpcdb report` prints them.
 *
 * Columns: a metric of the experiment, or a derived metric (a formula over
 * metrics, hpcdb_expr), registered once with hpcdb_query_column; each column
 * has an inclusive and an exclusive value at every node. */
#ifndef HPCDB_QUERY_H
#define HPCDB_QUERY_H

/* ABI (docs/api-stability.md): the layouts of this header's structs, other
 * than options structs and ops tables (which carry a version), may change in
 * any 0.x minor release; code that reads their fields is recompiled for it. */

#include "hpcdb/export.h"

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/model.h"
#include "hpcdb/source.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t hpcdb_qnode;   /* a node of a view (see above) */
typedef uint32_t hpcdb_qcolumn; /* a column registered in one query */

typedef enum hpcdb_qview { HPCDB_QVIEW_TOP_DOWN = 0, HPCDB_QVIEW_BOTTOM_UP = 1, HPCDB_QVIEW_FLAT = 2 } hpcdb_qview;

/* ---- the value interface ------------------------------------------------- */

#define HPCDB_QHAVE_INCLUSIVE 0x1u
#define HPCDB_QHAVE_EXCLUSIVE 0x2u

/* What a source of values implements. The tree, metrics and profile
 * identities are the experiment the source hands over (exp); values come
 * only through these functions. */
#define HPCDB_QSOURCE_OPS_VERSION 1
typedef struct hpcdb_qsource_ops {
  unsigned version; /* HPCDB_QSOURCE_OPS_VERSION: the functions below this library may call */
  const char *name; /* "model", "v4.0 mapped", "cube" */
  /* Whole-program values of one metric at every context (index into
   * exp->contexts): inc[i] and exc[i], zeroed by the caller; *have gets
   * HPCDB_QHAVE_* for the flavours the source stores (the query layer
   * derives the other one from the tree). */
  int (*column)(void *impl, uint32_t metric, double *inc, double *exc, unsigned *have);
  /* The values of one metric at one context in each profile that is not a
   * summary: out[k] for the k-th such profile (in exp->profiles order), n of
   * them (hpcdb_qsource.n_profiles), zeroed by the caller; absent values stay 0. */
  int (*profiles)(void *impl, uint32_t ctx, uint32_t metric, int inclusive, double *out, uint32_t n);
  void (*close)(void *impl); /* frees impl (and the experiment it owns) */
  /* As column, from one profile (index into exp->profiles) instead of the
   * whole program; NULL when the source cannot (HPCDB_EUNSUPPORTED). */
  int (*profile_column)(void *impl, uint32_t profile, uint32_t metric, double *inc, double *exc, unsigned *have);
} hpcdb_qsource_ops;

typedef struct hpcdb_qsource {
  const hpcdb_qsource_ops *ops;
  void *impl;
  const hpcdb_experiment *exp;
  uint32_t n_profiles;        /* profiles that are not summaries */
  const uint32_t *profile_of; /* n_profiles indices into exp->profiles */
} hpcdb_qsource;

/* ---- opening ------------------------------------------------------------- */

typedef struct hpcdb_query hpcdb_query;

/* A query over a source (hpcdb/source.h), which it holds a reference to:
 * the trace set and the comparison of the same path share it. */
HPCDB_API int hpcdb_query_on(hpcdb_query **out, hpcdb_source *src);
/* The query's source (for a trace set or a comparison of the same data). */
HPCDB_API hpcdb_source *hpcdb_query_source(const hpcdb_query *q);
/* hpcdb_source_open(path, NULL) and a query on it alone: a v4.0 database
 * directory through the mapped accessor, a Cube file through its reader,
 * anything else loaded whole. */
HPCDB_API int hpcdb_query_open(hpcdb_query **out, const char *path);
/* A query over an experiment the caller keeps (and frees after the query). */
HPCDB_API int hpcdb_query_from_experiment(hpcdb_query **out, const hpcdb_experiment *exp);
/* A query over a source the caller built; the query closes it. */
HPCDB_API int hpcdb_query_from_source(hpcdb_query **out, const hpcdb_qsource *src);
HPCDB_API void hpcdb_query_close(hpcdb_query *q); /* NULL-safe */

/* The tree, metrics and profile identities (values may be absent). */
HPCDB_API const hpcdb_experiment *hpcdb_query_experiment(const hpcdb_query *q);
HPCDB_API const char *hpcdb_query_source_name(const hpcdb_query *q);
HPCDB_API uint32_t hpcdb_query_n_profiles(const hpcdb_query *q);

/* ---- columns ------------------------------------------------------------- */

/* The metric views and exports use when none is named: the first time
 * metric (a time unit in its name or unit) with a non-zero total, else the
 * first metric with a non-zero total, else the first; *reason says which
 * (static text). */
HPCDB_API int hpcdb_default_metric(const hpcdb_experiment *exp, uint32_t *metric, const char **reason);

/* A column for a metric name, or for a formula (hpcdb_expr_parse's syntax;
 * a metric name that parses as a formula is taken as the name). The same
 * text gives the same column. HPCDB_EINVAL with a clear message when the
 * name is unknown or the formula malformed. */
HPCDB_API int hpcdb_query_column(hpcdb_query *q, const char *spec, hpcdb_qcolumn *out);
/* The same over one profile (index into exp->profiles): that profile's own
 * tree, as `hpcdb report --profile ID` shows it. HPCDB_EINVAL for a profile
 * past the end. */
HPCDB_API int hpcdb_query_profile_column(hpcdb_query *q, const char *spec, uint32_t profile, hpcdb_qcolumn *out);
/* The same summed over a group of profiles (indices into exp->profiles): the group's tree, as
 * `hpcdb report --profile rank=0-7,thread=0` shows it. HPCDB_EINVAL for none or one past the end. */
HPCDB_API int hpcdb_query_profiles_column(hpcdb_query *q, const char *spec, const uint32_t *profiles, uint32_t n,
                                          hpcdb_qcolumn *out);
/* The column the views show first when none is named: of the summed time
 * metrics with a non-zero total the largest, CPU time before GPU operations
 * (GPUOP, GKER, ...); else the first metric with a non-zero total; else the
 * first. why (may be NULL): that rule's case in words, for a status line. */
HPCDB_API int hpcdb_query_default_column_why(hpcdb_query *q, hpcdb_qcolumn *out, const char **why);
HPCDB_API int hpcdb_query_default_column(hpcdb_query *q, hpcdb_qcolumn *out);
HPCDB_API const char *hpcdb_query_column_name(const hpcdb_query *q, hpcdb_qcolumn col);
/* Seconds per unit when the metric is a time, else 0 (derived: 0). */
HPCDB_API double hpcdb_query_column_seconds(const hpcdb_query *q, hpcdb_qcolumn col);
/* HPCDB_INTEGER_UNSIGNED or _SIGNED when the column is a metric whose source
 * stores integers (hpcdb_metric.integer: a Cube UINT64 / INT64), else 0. Its
 * values are the integers' doubles, two's complement (a wrapped UINT64
 * counter's 2^64 - 1 is -1), which add up as the integers do modulo 2^64. */
HPCDB_API int hpcdb_query_column_integer(const hpcdb_query *q, hpcdb_qcolumn col);
/* The whole program's value: the root's inclusive value. */
HPCDB_API int hpcdb_query_total(hpcdb_query *q, hpcdb_qcolumn col, double *out);

/* ---- tree slices --------------------------------------------------------- */

typedef struct hpcdb_qsort {
  hpcdb_qcolumn column;
  uint8_t exclusive; /* sort by the exclusive value (default inclusive) */
  uint8_t ascending; /* default: largest first */
} hpcdb_qsort;

/* Inclusive and exclusive value of a node. HPCDB_EINVAL for a node out of range. */
HPCDB_API int hpcdb_query_value(hpcdb_query *q, hpcdb_qview view, hpcdb_qcolumn col, hpcdb_qnode node,
                                double *inclusive, double *exclusive);
/* Nodes of a view (top-down: contexts; root included). */
HPCDB_API uint32_t hpcdb_query_n_nodes(hpcdb_query *q, hpcdb_qview view);
HPCDB_API int hpcdb_query_parent(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, hpcdb_qnode *parent);
HPCDB_API int hpcdb_query_n_children(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, uint32_t *n);
/* The name a person reads (as hpcdb report prints it) into buf; returns the
 * length it needed (0 for a node out of range). */
HPCDB_API size_t hpcdb_query_name(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, char *buf, size_t size);

/* The children of node sorted by s (ties: the order hpcdb report uses),
 * rows [offset, offset + limit) of them into out (room for limit); *n gets
 * how many were written, *total how many children there are. As in hpcdb
 * report, children whose inclusive and exclusive values of the sort column
 * are both 0 are not listed (hpcdb_query_n_children counts them). Sorting the
 * same children by the same column again costs no sort (cached). */
HPCDB_API int hpcdb_query_children(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, const hpcdb_qsort *s,
                                   uint32_t offset, uint32_t limit, hpcdb_qnode *out, uint32_t *n, uint32_t *total);

/* The hot path from node: each step the child holding at least half of its
 * parent's inclusive value of col (report --hot-path's rule), up to max
 * nodes into out (node itself first); *n how many. */
HPCDB_API int hpcdb_query_hot_path(hpcdb_query *q, hpcdb_qcolumn col, hpcdb_qnode node, hpcdb_qnode *out, uint32_t max,
                                   uint32_t *n);

/* Top-down nodes whose name matches an extended regular expression, in
 * tree order, from the offset-th match; *total all matches (counted up to
 * the end of the tree). HPCDB_EINVAL for a bad expression. */
HPCDB_API int hpcdb_query_search(hpcdb_query *q, const char *regex, uint32_t offset, uint32_t limit, hpcdb_qnode *out,
                                 uint32_t *n, uint32_t *total);

/* ---- one node over the profiles ----------------------------------------- */

#define HPCDB_QSPREAD_BINS 32
#define HPCDB_QSPREAD_POINTS 256
typedef struct hpcdb_qspread {
  uint32_t n_profiles;
  double min, max, mean, median, stddev;
  double imbalance; /* max / mean - 1 (0 when the mean is 0) */
  double bin_width;
  uint32_t bins[HPCDB_QSPREAD_BINS]; /* histogram over [min, max] */
  /* the sorted values, sampled evenly when there are more than
   * HPCDB_QSPREAD_POINTS: value and the profile (index into exp->profiles) */
  uint32_t n_points;
  double point_value[HPCDB_QSPREAD_POINTS];
  uint32_t point_profile[HPCDB_QSPREAD_POINTS];
} hpcdb_qspread;

/* The values of a top-down node in every non-summary profile, not summarised: values[k] (room for
 * hpcdb_query_n_profiles), and profiles[k] its index into exp->profiles (NULL: not wanted). */
HPCDB_API int hpcdb_query_node_profiles(hpcdb_query *q, hpcdb_qcolumn col, hpcdb_qnode node, int exclusive,
                                        double *values, uint32_t *profiles);
/* The same for a node of any view: a bottom-up or flat row's value in each profile is summed over
 * its contexts as the row's own value is (inclusive: the outermost contexts of that function,
 * file or module; exclusive: every context's own cost, its inclusive value less its children's),
 * one context's values read at a time. */
HPCDB_API int hpcdb_query_view_profiles(hpcdb_query *q, hpcdb_qview view, hpcdb_qcolumn col, hpcdb_qnode node,
                                        int exclusive, double *values, uint32_t *profiles);
/* The values of a top-down node over every non-summary profile, summarised.
 * For an unsigned integer column (hpcdb_query_column_integer) the values sort
 * and are summarised as unsigned (a wrapped counter's 2^64 - 1 is the
 * largest); min, max and the points are still the column's values (two's
 * complement doubles, exact), mean, median, stddev and the bins those of the
 * unsigned values (doubles). */
HPCDB_API int hpcdb_query_spread(hpcdb_query *q, hpcdb_qcolumn col, hpcdb_qnode node, int exclusive,
                                 hpcdb_qspread *out);

/* ---- source lines -------------------------------------------------------- */

typedef struct hpcdb_qline {
  uint32_t line;
  double inclusive; /* sums over the top-down nodes at this file and line (a node */
  double exclusive; /* below another at the same line counts in both) */
} hpcdb_qline;

/* The file of a top-down node (index into exp->files, HPCDB_NONE when it has
 * none) and its line. */
HPCDB_API int hpcdb_query_location(hpcdb_query *q, hpcdb_qnode node, uint32_t *file, uint32_t *line);
/* The same for a node of any view: a bottom-up or flat row's is that of the
 * first context adding to it (a flat view's load module has none). */
HPCDB_API int hpcdb_query_view_location(hpcdb_query *q, hpcdb_qview view, hpcdb_qnode node, uint32_t *file,
                                        uint32_t *line);
/* Per line of a file: the values of col at contexts there (lines with any
 * non-zero value), lines ascending, up to max into out; *n how many (the
 * rest are dropped). */
HPCDB_API int hpcdb_query_lines(hpcdb_query *q, hpcdb_qcolumn col, uint32_t file, hpcdb_qline *out, uint32_t max,
                                uint32_t *n);

/* ---- derived metrics: the one expression engine ------------------------- */

/* Formulas over metrics: numbers, $N (metric N as hpcdb info lists them,
 * from 0), metric names (bare identifiers such as PAPI_TOT_CYC, or quoted
 * "CPUTIME (sec)"), + - * / with the usual precedence, unary minus,
 * parentheses, and min(a,b), max(a,b), abs(a), sqrt(a). A division by 0
 * gives 0. Anything else is refused with the offset and what was expected. */
typedef struct hpcdb_expr hpcdb_expr;
HPCDB_API int hpcdb_expr_parse(hpcdb_expr **out, const char *text, const hpcdb_experiment *exp);
HPCDB_API void hpcdb_expr_free(hpcdb_expr *e); /* NULL-safe */
/* The distinct metrics the formula reads, in the order eval takes them. */
HPCDB_API uint32_t hpcdb_expr_inputs(const hpcdb_expr *e, const uint32_t **metrics);
HPCDB_API double hpcdb_expr_eval(const hpcdb_expr *e, const double *inputs);

#ifdef __cplusplus
}
#endif
#endif
