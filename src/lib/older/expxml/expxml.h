/* SPDX-License-Identifier: BSD-3-Clause */
/* experiment.xml, both generations (legacy 2.x and the 2021-22 draft "4.0"),
 * read with expat in a single streaming pass (internal).
 *
 * The parser fills the experiment's tables and calling-context tree directly
 * and keeps what the two value loaders need in an expxml_doc: the metric and
 * metric-db tables, the trace-db attributes and the inline <M> values. Memory
 * grows with the model, never with the XML text. */
#ifndef HPCDB_EXPXML_H
#define HPCDB_EXPXML_H

#include <stddef.h>
#include <stdint.h>

#include "common/hashmap.h"
#include "hpcdb/model.h"
#include "model/format.h"

enum expxml_metric_type { EXPXML_NIL = 0, EXPXML_INCLUSIVE = 1, EXPXML_EXCLUSIVE = 2 };

#define EXPXML_NO_ID INT64_MIN

/* A <Metric> or <MetricDB> entry as written. */
typedef struct expxml_metric {
  int64_t id;              /* i */
  const char *name;        /* n (interned in the experiment) */
  const char *description; /* md, or NULL */
  const char *unit;        /* Info/NV n="units", or NULL */
  const char *kind;        /* v: raw, final, derived-incr, derived (NULL when absent) */
  uint8_t type;            /* t: enum expxml_metric_type */
  int64_t partner;         /* EXPXML_NO_ID when absent */
  int64_t db_id;           /* db-id (MetricDB), EXPXML_NO_ID when absent */
  int64_t db_num_metrics;  /* db-num-metrics, EXPXML_NO_ID when absent */
  int64_t db_header_sz;    /* db-header-sz, EXPXML_NO_ID when absent */
  const char *db_glob;     /* db-glob, or NULL */
  int is_view;             /* has a MetricFormula t="view": computed by the viewer, no values stored */
  uint64_t line;           /* where it was declared */
} expxml_metric;

/* A problem the parser found: with a diagnostic function set (validation)
 * parsing goes on after referential problems; without, the first one fails. */
typedef void (*expxml_problem_fn)(void *user, uint64_t offset, const char *rule, const char *detail);

typedef struct expxml_options {
  uint32_t entry_id;          /* native id of the entry point that holds the top-level frames (0: a fresh id) */
  int fresh_ids_for_negative; /* draft a: negative or repeated XML ids get ids of their own */
  uint32_t min_fresh_id;      /* fresh ids start above the XML ids and at least here (ids the values use) */
  expxml_problem_fn problem;  /* validation: report and go on (NULL: fail at the first) */
  void *user;
} expxml_options;

/* Draft a: one hpcprof context written as two elements, PF i="X" holding a C
 * or S i="-X" (X's call site or statement when the code has no line
 * information); its values are stored once, under X. */
typedef struct expxml_mirror {
  uint32_t index;    /* model index of the inner (negative id) element */
  uint32_t trace_id; /* its it= when that is X (traces record X for it), else 0 */
} expxml_mirror;

typedef struct expxml_doc {
  char version[16]; /* HPCToolkitExperiment version= */
  expxml_metric *metrics;
  uint32_t n_metrics;
  uint64_t cap_metrics;
  expxml_metric *metric_dbs;
  uint32_t n_metric_dbs;
  uint64_t cap_metric_dbs;
  /* Inline <M n= v=/> values in document order, in runs of one context: run
   * k is context run_ctx[k] with values [run_start[k], run_start[k + 1]);
   * value_metric is the index into metrics. 10 bytes a value, 12 a run. */
  uint32_t *run_ctx;
  uint64_t *run_start; /* n_runs + 1 entries once parsed */
  uint64_t n_runs, cap_run_ctx, cap_run_start;
  uint16_t *value_metric;
  double *value;
  uint64_t n_values, cap_value_metric, cap_value;
  int has_trace_db;
  uint64_t trace_min, trace_max;
  uint32_t n_frames;      /* calling-context elements read */
  uint32_t max_xml_id;    /* largest positive XML context id */
  uint32_t n_fresh;       /* contexts that got a fresh id (no usable XML id) */
  hpcdb_u64map xml_ids;   /* draft a: XML context id -> native id where they differ */
  expxml_mirror *mirrors; /* draft a: the inner elements of contexts written twice, in document order */
  uint64_t n_mirrors, cap_mirrors;
  uint64_t problems; /* reported through options.problem */
} expxml_doc;

/* Parses path (read in chunks with read(2)) into a new experiment and doc.
 * Contexts without a usable XML id get fresh ids just above the largest XML
 * id (v4.0 sizes cct.db by the largest id), so such files are parsed twice:
 * the first pass finds the largest id. */
int expxml_read_file(hpcdb_experiment **out, const char *path, const expxml_options *opt, expxml_doc *doc);
/* The same over bytes in memory (fuzzing, unit tests); path names them in messages. */
int expxml_read_buffer(hpcdb_experiment **out, const char *data, size_t len, const char *path,
                       const expxml_options *opt, expxml_doc *doc);
void expxml_doc_free(expxml_doc *doc);

/* Index of the metric (resp. metric-db entry) with XML id `id`, or UINT32_MAX. */
uint32_t expxml_find_metric(const expxml_doc *doc, int64_t id);

/* ---- model metrics from the metric tables (both generations) ------------ */

enum expxml_scope { EXPXML_SCOPE_POINT, EXPXML_SCOPE_FUNCTION, EXPXML_SCOPE_EXECUTION, EXPXML_N_SCOPES };

typedef struct expxml_metric_builder {
  hpcdb_experiment *exp;
  uint32_t scope[EXPXML_N_SCOPES]; /* scope indices in exp */
  uint16_t next_prop, next_stat;   /* ids handed out in order */
} expxml_metric_builder;

/* Adds the scopes "point", "function" (transitive, propagation bit 0) and
 * "execution" to exp. */
int expxml_metrics_begin(expxml_metric_builder *b, hpcdb_experiment *exp);
/* The scope of a metric type: inclusive "execution", exclusive "function",
 * nil "point"; a nil type is taken from a " (I)" / " (E)" name suffix. */
enum expxml_scope expxml_scope_of(const expxml_metric *m);
/* Length of the name without a " (I)" / " (E)" suffix. */
size_t expxml_base_length(const char *name);
/* The model metric named name[0..len), added (description, unit from `from`) when new. */
int expxml_metric_named(expxml_metric_builder *b, const char *name, size_t len, const expxml_metric *from,
                        uint32_t *out);
/* The propagated id of (metric, scope), resp. the statistic id of (metric,
 * scope, $$ combined by `combine`), added when new. */
int expxml_metric_instance(expxml_metric_builder *b, uint32_t metric, enum expxml_scope scope, uint16_t *id);
int expxml_metric_summary(expxml_metric_builder *b, uint32_t metric, enum expxml_scope scope, uint8_t combine,
                          uint16_t *id);

/* 2 for a legacy experiment.xml (any version but 4.0), 4 for draft a's,
 * 0 for neither; a directory is asked about its experiment.xml. */
int expxml_generation(const format_probe *p);

#endif
