/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — comparing runs: calling paths aligned by meaning across builds,
 * machines and formats, the values of each run side by side, and scaling
 * models fitted over runs that differ in one parameter. The rules are in
 * docs/compare.md. */
#ifndef HPCDB_COMPARE_H
#define HPCDB_COMPARE_H

/* ABI (docs/api-stability.md): the layouts of this header's structs, other
 * than options structs and ops tables (which carry a version), may change in
 * any 0.x minor release; code that reads their fields is recompiled for it. */

#include "hpcdb/export.h"

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/model.h"
#include "hpcdb/source.h"

struct hpcdb_compare_private;

#ifdef __cplusplus
extern "C" {
#endif

/* ---- alignment ------------------------------------------------------------ */

/* How a run's context is in an aligned node: the rule that matched it to
 * the node (or, for the run whose context made the node, the rule its key
 * belongs to); docs/compare.md gives them in the order they are tried. */
typedef enum hpcdb_match {
  HPCDB_MATCH_ABSENT = 0,   /* the run has no context here */
  HPCDB_MATCH_ROOT,         /* the global context */
  HPCDB_MATCH_ENTRY,        /* entry point by kind and name */
  HPCDB_MATCH_NAME,         /* a frame by function name (compiler clone suffixes dropped) */
  HPCDB_MATCH_LINE,         /* a loop or line by file name and line */
  HPCDB_MATCH_LINE_SHIFTED, /* a loop or line by file name, line within the tolerance */
  HPCDB_MATCH_OFFSET,       /* by load module name and offset: the last resort */
  HPCDB_MATCH_NAME_ACROSS   /* a frame by function name across a frame one side alone has (a program
                              region, a wrapper another build inlined) */
} hpcdb_match;

typedef struct hpcdb_align_node {
  uint32_t parent; /* HPCDB_NONE for nodes[0], the root */
  uint32_t first_child, next_sibling;
  uint32_t scope;   /* the enclosing frame node (itself for a frame) */
  uint8_t is_frame; /* root, entry point, call or inlined call */
  const char *name; /* as a person reads it: function, "loop at f.c:12", "f.c:40", "app+0x4a0" */
} hpcdb_align_node;

#define HPCDB_ALIGN_OPTIONS_VERSION 1
#define HPCDB_ALIGN_OPTIONS_INIT \
  { .version = HPCDB_ALIGN_OPTIONS_VERSION }
typedef struct hpcdb_align_options {
  unsigned version;        /* HPCDB_ALIGN_OPTIONS_VERSION (0 is taken as 1); docs/api-stability.md */
  uint32_t line_tolerance; /* lines a loop or line may have moved (default 0 is taken as 8) */
  int no_shifted_lines;    /* 1: exact lines only */
} hpcdb_align_options;

struct hpcdb_align_private;
typedef struct hpcdb_alignment {
  uint32_t n_runs;
  uint32_t n_nodes;
  hpcdb_align_node *nodes; /* nodes[0] is the root; parents come before children */
  uint32_t *ctx;           /* [node * n_runs + run]: the run's context index, HPCDB_NONE when absent */
  uint8_t *how;            /* [node * n_runs + run]: enum hpcdb_match */
  int32_t *shift;          /* [node * n_runs + run]: lines moved, for HPCDB_MATCH_LINE_SHIFTED */
  const hpcdb_experiment *const *runs;
  struct hpcdb_align_private *priv;
} hpcdb_alignment;

/* Aligns the context trees of n_runs experiments (which must outlive the
 * alignment) into one tree of nodes: every context of every run is in
 * exactly one node; a node no run but one has is "only in" that run. */
HPCDB_API int hpcdb_align(hpcdb_alignment **out, const hpcdb_experiment *const *runs, uint32_t n_runs,
                          const hpcdb_align_options *options);
HPCDB_API void hpcdb_alignment_free(hpcdb_alignment *al);

/* The node's path from the root, names joined by " > ": the ancestors the tree views show
 * (a loop or line scope without a line, "[libucs.so]:0", is left out), then the node.
 * Returns the length it needed. */
HPCDB_API size_t hpcdb_align_path(const hpcdb_alignment *al, uint32_t node, char *buf, size_t size);
/* 1 when no tree view shows the node (the rule of hpcdb report and the
 * viewer's profile views): in every run that has it, a loop or line scope
 * without a line ("[libucs.so]:0", "loop at [libucp.so]:0"). It is no row:
 * its children are listed under its parent, and its cost is its parent's
 * (in the parent's inclusive value, and in its exclusive value, which holds
 * its loop and line scopes). */
HPCDB_API int hpcdb_align_hidden(const hpcdb_alignment *al, uint32_t node);
/* The rows below node: its children, a hidden child replaced by its own rows
 * (in the children's order); up to max into out. Returns how many there are. */
HPCDB_API uint32_t hpcdb_align_shown_children(const hpcdb_alignment *al, uint32_t node, uint32_t *out, uint32_t max);
/* Why each run's context is (or is not) in the node, one line per run. */
typedef void (*hpcdb_explain_fn)(void *user, const char *line);
HPCDB_API int hpcdb_align_explain(const hpcdb_alignment *al, uint32_t node, const char *const *run_names,
                                  hpcdb_explain_fn fn, void *user);
/* Nodes whose name is `name` (frames also by the name the alignment compares:
 * "MPI_Send" finds "PMPI_Send [libmpi.so.40]"), or whose path ends with it (a
 * path written "main > work"), into out (up to max); returns how many there are. */
HPCDB_API uint32_t hpcdb_align_find(const hpcdb_alignment *al, const char *name, uint32_t *out, uint32_t max);
HPCDB_API const char *hpcdb_match_name(int how);

/* ---- values ---------------------------------------------------------------- */

#define HPCDB_COMPARE_OPTIONS_VERSION 1
#define HPCDB_COMPARE_OPTIONS_INIT \
  { .version = HPCDB_COMPARE_OPTIONS_VERSION }
typedef struct hpcdb_compare_options {
  unsigned version; /* HPCDB_COMPARE_OPTIONS_VERSION (0 is taken as 1); docs/api-stability.md */
  /* The metric to compare, per run: metrics[run] (NULL, or a NULL entry:
   * the first run's metric when named, else hpcdb_default_metric of the
   * first run (of a lazy source: hpcdb_query_default_column's); another run takes the metric of the same name, else one
   * documented as equivalent, e.g. a Cube file's "time" for "REALTIME (sec)"). */
  const char *const *metrics;
  hpcdb_align_options align;
  /* With lazy sources (hpcdb_compare_sources: a v4.0 database with cct.db, a
   * Cube file): no pass over the profiles; the per-profile mean and max are
   * NaN until hpcdb_compare_profiles asks for some nodes' (a table shows a
   * few hundred of a database's nodes; each is one context's values). */
  int profiles_on_demand;
} hpcdb_compare_options;

typedef struct hpcdb_comparison {
  hpcdb_alignment *al;
  uint32_t n_runs;
  uint32_t *metric; /* per run: index of the metric compared */
  double *seconds;  /* per run: seconds per unit of its values, 0 when not a time */
  /* [node * n_runs + run], in the unit of the first run (values of a run in
   * another time unit are converted): */
  double *inc, *exc;    /* inclusive and exclusive, of the whole run (summary) */
  double *pmean, *pmax; /* over the run's profiles (ranks, threads), inclusive: the mean over
                                the profiles with a value at the node (as hpcprof's Mean); for a run
                                read without its profiles' values (HPCDB_READ_SUMMARY_ONLY) from
                                the summary's Sum and Max statistics, NaN where it has no Max */
  uint32_t *n_profiles; /* per run: profiles the mean is over */
  struct hpcdb_compare_private *priv;
} hpcdb_comparison;

HPCDB_API int hpcdb_compare(hpcdb_comparison **out, const hpcdb_experiment *const *runs, uint32_t n_runs,
                            const hpcdb_compare_options *options);
/* The same over sources (hpcdb/source.h), which the comparison holds a
 * reference to: a lazy source's values are read through it (a v4.0
 * database's summary, decoded once for every reader of the source; a Cube
 * file's compared metric alone), its profiles one at a time or, with
 * profiles_on_demand, per node. hpcdb_compare is this over sources made from
 * the experiments. */
HPCDB_API int hpcdb_compare_sources(hpcdb_comparison **out, hpcdb_source *const *srcs, uint32_t n_runs,
                                    const hpcdb_compare_options *options);
HPCDB_API void hpcdb_comparison_free(hpcdb_comparison *c);
/* profiles_on_demand: the per-profile mean and max of these nodes, from each
 * lazy run's source (nodes already done, and other runs, are left).
 * Several threads may use one comparison at once: this is the only function
 * that changes it, and it may be called from several at once (a node's
 * figures are read without a lock and stored once under the comparison's
 * own); a thread reads a node's per-profile figures (pmean, pmax,
 * hpcdb_compare_delta's stat 1 and 2) after its own call for that node has
 * returned. */
HPCDB_API int hpcdb_compare_profiles(hpcdb_comparison *c, const uint32_t *nodes, uint32_t n);

/* Side A is runs [0, n_a), side B the rest: one node's figures. */
typedef struct hpcdb_delta {
  double a, b;               /* mean over the side's runs */
  double spread_a, spread_b; /* max - min over the side's runs (0 for one run) */
  double delta, ratio;       /* b - a; b / a (infinity when a is 0 and b is not, 1 when both are 0) */
  int noise;                 /* |delta| is within the larger spread of the two sides */
} hpcdb_delta;
/* inclusive 1: inclusive values, 0: exclusive; stat 0: the run's value, 1: per-profile mean, 2: max */
HPCDB_API void hpcdb_compare_delta(const hpcdb_comparison *c, uint32_t node, uint32_t n_a, int inclusive, int stat,
                                   hpcdb_delta *out);
/* The same figures of any row of n_runs values (e.g. sums over nodes). */
HPCDB_API void hpcdb_delta_of(const double *values, uint32_t n_runs, uint32_t n_a, hpcdb_delta *out);
/* Imbalance of a node in a run: max / mean - 1 over its profiles (0 without profiles). */
HPCDB_API double hpcdb_compare_imbalance(const hpcdb_comparison *c, uint32_t node, uint32_t run);

/* The key rows are ranked by, largest first: |delta|, or with by_ratio
 * |log(B / A)| (a tenfold change of a small node before 10 % of a large one;
 * a node only one side has a value at ranks first, none at all last). */
HPCDB_API double hpcdb_delta_rank(const hpcdb_delta *d, int by_ratio);
/* A node (or a function's index) with the key it is ranked by. */
typedef struct hpcdb_ranked {
  uint32_t node;
  double key;
} hpcdb_ranked;
/* Sorts by key, largest first, ties by node: the order in which every view
 * of a comparison (the command's tables, the viewer's rows) lists. */
HPCDB_API void hpcdb_rank_sort(hpcdb_ranked *r, size_t n);
/* The summary's frames (entry points, calls): the largest changes of their
 * exclusive cost, regressions (worse 1: B grew) or improvements (worse 0),
 * of nodes with at least min_share of a side's total inclusive value and
 * not noise, by |delta| largest first; up to max into out. Returns how many
 * there are. */
HPCDB_API uint32_t hpcdb_compare_changes(const hpcdb_comparison *c, uint32_t n_a, double min_share, int worse,
                                         uint32_t *out, uint32_t max);
/* Per function name (the bottom-up view): exclusive values summed over the
 * name's frames, inclusive over its outermost frames (a recursive call is not
 * counted twice). Functions in the order of their first frame. */
typedef struct hpcdb_compare_functions {
  uint32_t n;
  uint32_t *node;    /* per function: its first frame (the name: al->nodes[node[f]].name) */
  double *inc, *exc; /* [f * n_runs + run] */
} hpcdb_compare_functions;
HPCDB_API int hpcdb_compare_by_function(const hpcdb_comparison *c, hpcdb_compare_functions *out);
HPCDB_API void hpcdb_compare_functions_free(hpcdb_compare_functions *f);

/* ---- scaling models ----------------------------------------------------- */

/* A model in Extra-P's performance-model normal form:
 * f(p) = c0 + sum over its terms of c * p^(num/den) * log2(p)^log_exp,
 * with up to HPCDB_SCALING_MAX_TERMS terms (none: a constant model), terms in
 * the order of Extra-P's building blocks (slower growth first). */
#define HPCDB_SCALING_MAX_TERMS 3
typedef struct hpcdb_scaling_term {
  double c;
  int num, den, log_exp;
} hpcdb_scaling_term;

typedef struct hpcdb_scaling_model {
  double c0;
  uint32_t n_terms;
  hpcdb_scaling_term terms[HPCDB_SCALING_MAX_TERMS];
  double smape; /* leave-one-out cross-validated SMAPE (%) the model was chosen by */
  double rss;   /* residual sum of squares over every point */
  double ar2;   /* adjusted R^2 (1 - (1 - R^2) (n - 1) / (n - terms - 1)) */
} hpcdb_scaling_model;

/* Fits y(p) over n points (p > 0) by Extra-P's hypothesis search, one to
 * three terms (fewer with fewer points), docs/compare.md "The model". */
HPCDB_API int hpcdb_scaling_fit(hpcdb_scaling_model *out, const double *p, const double *y, uint32_t n);
HPCDB_API double hpcdb_scaling_eval(const hpcdb_scaling_model *m, double p);
/* "5 + 0.1 * p^2", "2 * log2(p)", "1 + 3 * p + 0.5 * p * log2(p)" (%.4g coefficients). Returns the length needed. */
HPCDB_API size_t hpcdb_scaling_format(const hpcdb_scaling_model *m, char *buf, size_t size);
/* The growth order of a model, to rank them: of its fastest-growing term
 * with a positive coefficient, the exponent of p plus a small weight per log
 * factor (0 for a constant or a model of decreasing terms only). */
HPCDB_API double hpcdb_scaling_growth(const hpcdb_scaling_model *m);

/* The parameter of a run from its identity: "ranks" (distinct RANK ids),
 * "threads" (distinct THREAD ids per rank, the largest), "profiles".
 * HPCDB_EINVAL for another name. */
HPCDB_API int hpcdb_run_parameter(double *out, const hpcdb_experiment *exp, const char *name);

/* A folder of Cube files as Extra-P reads them: one subfolder per
 * measurement point named [PREFIX.]NAME VALUE[.rREPETITION] holding
 * .cubex files. Lists the files (sorted by value, then name) with the value
 * of the parameter `name`; *paths and *values are the caller's (free each
 * path, then both arrays). HPCDB_ENOTFORMAT when dir has no such subfolder. */
HPCDB_API int hpcdb_extrap_folder(char ***paths, double **values, uint32_t *n, const char *dir, const char *name);

#ifdef __cplusplus
}
#endif
#endif
