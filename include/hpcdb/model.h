/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — the experiment model every reader produces and every writer consumes.
 *
 * The structures below are public and read-only for users: fill and change an
 * experiment only through the builder functions, which keep the invariants
 * (interned strings, child lists, the id index, sorted sparse values).
 * Indices into the experiment's tables are uint32_t; HPCDB_NONE means "absent".
 *
 * The builders are named for what they change (hpcdb_add_<table>,
 * hpcdb_set_<field>, hpcdb_metric_<verb>, hpcdb_profile_<verb>) rather than
 * hpcdb_model_<verb>: they are the public API since 0.1, and the library's
 * own helpers inside src/lib/model (model_build.h) carry the module's
 * prefix, model_. */
#ifndef HPCDB_MODEL_H
#define HPCDB_MODEL_H

/* ABI (docs/api-stability.md): the layouts of this header's structs, other
 * than options structs and ops tables (which carry a version), may change in
 * any 0.x minor release; code that reads their fields is recompiled for it. */

#include "hpcdb/export.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HPCDB_NONE UINT32_MAX

/* ---- static program structure ------------------------------------------ */

typedef struct hpcdb_module {
  const char *path;
  uint32_t flags; /* reserved bits, carried as read */
} hpcdb_module;

#define HPCDB_FILE_COPIED 0x1u
typedef struct hpcdb_source_file {
  const char *path;
  uint32_t flags; /* bit 0: copied into the database */
} hpcdb_source_file;

typedef struct hpcdb_function {
  const char *name; /* NULL when anonymous */
  uint32_t module;  /* index into modules, or HPCDB_NONE */
  uint64_t offset;  /* entry point offset within module */
  uint32_t file;    /* index into files, or HPCDB_NONE */
  uint32_t line;
  uint32_t flags;
} hpcdb_function;

/* ---- metrics ------------------------------------------------------------ */

enum hpcdb_scope_type {
  HPCDB_SCOPE_CUSTOM = 0,
  HPCDB_SCOPE_POINT = 1,
  HPCDB_SCOPE_EXECUTION = 2,
  HPCDB_SCOPE_TRANSITIVE = 3
};

enum hpcdb_combine { HPCDB_COMBINE_SUM = 0, HPCDB_COMBINE_MIN = 1, HPCDB_COMBINE_MAX = 2 };

typedef struct hpcdb_scope {
  const char *name;          /* "point", "function", "lex_aware", "execution", ... */
  uint8_t type;              /* enum hpcdb_scope_type; unknown values are kept */
  uint8_t propagation_index; /* bit of hpcdb_context.propagation (transitive scopes) */
} hpcdb_scope;

typedef struct hpcdb_scope_instance {
  uint32_t scope;          /* index into scopes */
  uint16_t prop_metric_id; /* id of propagated values in non-summary profiles */
} hpcdb_scope_instance;

typedef struct hpcdb_summary {
  uint32_t scope;          /* index into scopes */
  const char *formula;     /* "$$", "1", "$$^2", ... */
  uint8_t combine;         /* enum hpcdb_combine; unknown values are kept */
  uint16_t stat_metric_id; /* id of statistic values in summary profiles */
} hpcdb_summary;

#define HPCDB_INTEGER_UNSIGNED 1
#define HPCDB_INTEGER_SIGNED 2
typedef struct hpcdb_metric {
  const char *name;
  const char *description; /* optional (Cube, legacy XML) */
  const char *unit;        /* optional */
  hpcdb_scope_instance *instances;
  uint32_t n_instances;
  hpcdb_summary *summaries;
  uint32_t n_summaries;
  /* HPCDB_INTEGER_UNSIGNED / _SIGNED: the source stores integers (a Cube
   * integer type); the reader combined them in 64-bit integer arithmetic
   * (modulo 2^64, as CubeLib) and converted each result to a double once,
   * as a two's complement number (a wrapped UINT64 delta is negative, so the
   * doubles add up along the tree). Where the double rounds (beyond 53 bits)
   * the profile keeps the exact integer beside it (hpcdb_profile_adopt_integers,
   * hpcdb_profile_integer); outputs that carry integers print an unsigned
   * metric's unsigned (2^64 - 1, not -1).
   * 0: floating point or not known. */
  uint8_t integer;
  /* How the execution-scope values combine along the tree: HPCDB_COMBINE_SUM
   * (0, v4.0's meaning of `execution`), or MIN / MAX (Cube's MINDOUBLE /
   * MAXDOUBLE and min / max components: the min / max over the subtree).
   * v4.0 has no such scope: its writer puts these values under a custom scope
   * named `inclusive_min` / `inclusive_max`, and its reader turns that back. */
  uint8_t execution_combine;
} hpcdb_metric;

/* ---- the context tree ---------------------------------------------------- */

enum hpcdb_context_kind {
  HPCDB_CTX_GLOBAL = 0, /* contexts[0], native id 0: encloses everything */
  HPCDB_CTX_ENTRY = 1,  /* an entry point (children of the global context) */
  HPCDB_CTX_NORMAL = 2
};
enum hpcdb_relation { HPCDB_REL_LEXICAL = 0, HPCDB_REL_CALL = 1, HPCDB_REL_INLINED_CALL = 2 };
enum hpcdb_lexical_type { HPCDB_LEX_FUNCTION = 0, HPCDB_LEX_LOOP = 1, HPCDB_LEX_LINE = 2, HPCDB_LEX_INSTRUCTION = 3 };
enum hpcdb_entry_point { HPCDB_ENTRY_UNKNOWN = 0, HPCDB_ENTRY_MAIN = 1, HPCDB_ENTRY_THREAD = 2 };

/* v4.0 context flag bits; the builder keeps hpcdb_context.flags consistent
 * with the presence of function / file / module (other bits kept as read). */
#define HPCDB_CTXF_FUNCTION 0x1u
#define HPCDB_CTXF_SRCLOC 0x2u
#define HPCDB_CTXF_POINT 0x4u

typedef struct hpcdb_context {
  uint32_t id;                                    /* native id (v4.0 ctxId, Cube cnode id); 0 for the global context */
  uint32_t parent;                                /* index into contexts, HPCDB_NONE for contexts[0] */
  uint32_t first_child, next_sibling, last_child; /* indices, in insertion order */
  uint8_t kind;                                   /* enum hpcdb_context_kind */
  uint8_t relation;                               /* enum hpcdb_relation (unknown values kept) */
  uint8_t lexical_type;                           /* enum hpcdb_lexical_type (unknown values kept) */
  uint8_t flags;                                  /* HPCDB_CTXF_* plus reserved bits as read */
  uint16_t propagation;                           /* propagation bitmask */
  uint16_t entry_point;                           /* enum hpcdb_entry_point, for HPCDB_CTX_ENTRY */
  const char *name;  /* entry point pretty name; else an optional label (e.g. Cube region) */
  uint32_t function; /* index into functions, or HPCDB_NONE */
  uint32_t file;     /* index into files, or HPCDB_NONE */
  uint32_t line;
  uint32_t module; /* index into modules, or HPCDB_NONE */
  uint64_t offset;
} hpcdb_context;

/* ---- profiles and values ------------------------------------------------ */

typedef struct hpcdb_id {
  uint16_t kind;  /* index into kind_names */
  uint16_t flags; /* bit 0: isPhysical */
  uint32_t logical_id;
  uint64_t physical_id;
} hpcdb_id;

#define HPCDB_PROFILE_SUMMARY 0x1u
#define HPCDB_ID_PHYSICAL 0x1u

/* Sparse values in CSR form: contexts ascending by native id; the values of
 * context k are [ctx_starts[k], ctx_starts[k+1]) with metric ids ascending.
 * ctx_starts has n_ctxs + 1 entries (the last one is n_values). */
typedef struct hpcdb_profile {
  uint32_t flags;   /* HPCDB_PROFILE_SUMMARY plus reserved bits */
  int has_id_tuple; /* 0 for the canonical summary profile */
  hpcdb_id *ids;
  uint16_t n_ids;
  uint32_t n_ctxs;
  uint32_t *ctx_ids;
  uint64_t *ctx_starts;
  uint64_t n_values;
  uint16_t *metric_ids;
  double *values;
  /* HPCDB_READ_COUNTS: non-zero values of contexts in the tree that a reader
   * counted without keeping them (not in the arrays above; 0 for every other read) */
  uint64_t n_counted;
} hpcdb_profile;

typedef struct hpcdb_trace {
  uint32_t profile; /* index into profiles */
  uint64_t n;
  uint64_t *timestamps; /* nanoseconds */
  uint32_t *ctx_ids;    /* native context ids; 0 = not running */
} hpcdb_trace;

typedef struct hpcdb_attr {
  const char *key;
  const char *value;
} hpcdb_attr;

struct hpcdb_model_private;

typedef struct hpcdb_experiment {
  const char *format;    /* short name of the source format, e.g. "hpctoolkit-v4" */
  uint8_t version_major; /* of the source format */
  uint8_t version_minor;
  const char *origin; /* path it was read from, or NULL */
  const char *title;
  const char *description;
  hpcdb_attr *attrs;
  uint32_t n_attrs;
  const char **kind_names; /* identifier kind names: kind_names[kind] */
  uint32_t n_kind_names;
  hpcdb_module *modules;
  uint32_t n_modules;
  hpcdb_source_file *files;
  uint32_t n_files;
  hpcdb_function *functions;
  uint32_t n_functions;
  hpcdb_scope *scopes;
  uint32_t n_scopes;
  hpcdb_metric *metrics;
  uint32_t n_metrics;
  hpcdb_context *contexts; /* contexts[0] is the global context */
  uint32_t n_contexts;
  hpcdb_profile *profiles; /* profiles[0] is the canonical summary when present */
  uint32_t n_profiles;
  int has_traces;
  uint64_t trace_min, trace_max; /* as recorded by the source */
  hpcdb_trace *traces;
  uint32_t n_traces;
  /* What a reader could not take but did not fail on (e.g. a missing
   * metric-db file: that profile left empty). Not data: writers ignore them. */
  const char **warnings;
  uint32_t n_warnings;
  struct hpcdb_model_private *priv;
} hpcdb_experiment;

/* ---- building ------------------------------------------------------------ */

/* A new experiment holding only the global context (contexts[0], id 0). */
HPCDB_API int hpcdb_experiment_new(hpcdb_experiment **out);
HPCDB_API void hpcdb_experiment_free(hpcdb_experiment *exp);

/* Interned copy owned by exp (NULL in, NULL out); equal strings share storage. */
HPCDB_API const char *hpcdb_intern(hpcdb_experiment *exp, const char *s);
HPCDB_API const char *hpcdb_intern_n(hpcdb_experiment *exp, const char *s, size_t len);

HPCDB_API int hpcdb_set_title(hpcdb_experiment *exp, const char *title, const char *description);
/* The source format's short name (interned) and version. */
HPCDB_API int hpcdb_set_format(hpcdb_experiment *exp, const char *format, uint8_t major, uint8_t minor);
/* The path it was read from (interned). */
HPCDB_API int hpcdb_set_origin(hpcdb_experiment *exp, const char *path);
/* The trace range as the source recorded it, resp. that the source holds
 * traces (a trace.db of no lines too); hpcdb_add_trace sets the latter. */
HPCDB_API void hpcdb_set_trace_range(hpcdb_experiment *exp, uint64_t min, uint64_t max);
HPCDB_API void hpcdb_set_has_traces(hpcdb_experiment *exp);
HPCDB_API int hpcdb_add_attr(hpcdb_experiment *exp, const char *key, const char *value);
/* Records a reader's warning (a copy is interned). */
HPCDB_API int hpcdb_add_warning(hpcdb_experiment *exp, const char *text);
HPCDB_API int hpcdb_add_kind_name(hpcdb_experiment *exp, const char *name, uint32_t *out_index);
HPCDB_API int hpcdb_add_module(hpcdb_experiment *exp, const char *path, uint32_t flags, uint32_t *out_index);
HPCDB_API int hpcdb_add_file(hpcdb_experiment *exp, const char *path, uint32_t flags, uint32_t *out_index);
HPCDB_API int hpcdb_add_function(hpcdb_experiment *exp, const hpcdb_function *fn, uint32_t *out_index);
HPCDB_API int hpcdb_add_scope(hpcdb_experiment *exp, const hpcdb_scope *scope, uint32_t *out_index);
HPCDB_API int hpcdb_add_metric(hpcdb_experiment *exp, const char *name, uint32_t *out_index);
HPCDB_API int hpcdb_metric_add_instance(hpcdb_experiment *exp, uint32_t metric, uint32_t scope,
                                        uint16_t prop_metric_id);
HPCDB_API int hpcdb_metric_add_summary(hpcdb_experiment *exp, uint32_t metric, const hpcdb_summary *summary);
/* A metric's description and unit (interned; NULL: none). */
HPCDB_API int hpcdb_metric_describe(hpcdb_experiment *exp, uint32_t metric, const char *description, const char *unit);
/* How a metric's values combine: hpcdb_metric.integer and .execution_combine. */
HPCDB_API int hpcdb_metric_set_combine(hpcdb_experiment *exp, uint32_t metric, uint8_t integer,
                                       uint8_t execution_combine);

/* Appends a copy of *proto as the last child of contexts[parent]. The id, kind,
 * relation, lexical type, propagation, entry point, name and location fields are
 * taken from proto; tree links are set here; strings are interned. Fails with
 * HPCDB_EINVAL when the id is already used. */
HPCDB_API int hpcdb_add_context(hpcdb_experiment *exp, const hpcdb_context *proto, uint32_t parent,
                                uint32_t *out_index);
/* Index of the context with native id `id`, or HPCDB_NONE. */
HPCDB_API uint32_t hpcdb_find_context(const hpcdb_experiment *exp, uint32_t id);

HPCDB_API int hpcdb_add_profile(hpcdb_experiment *exp, uint32_t flags, int has_id_tuple, const hpcdb_id *ids,
                                uint16_t n_ids, uint32_t *out_index);
/* Replaces the values of a profile with n (ctx id, metric id, value) triples,
 * in any order; they are sorted. Zero values are kept as given. Duplicate
 * (ctx, metric) pairs fail with HPCDB_EINVAL. */
HPCDB_API int hpcdb_profile_set_values(hpcdb_experiment *exp, uint32_t profile, uint64_t n, const uint32_t *ctx_ids,
                                       const uint16_t *metric_ids, const double *values);
/* Takes ownership-free copies of already sorted CSR arrays (the readers' fast
 * path): ctx_starts has n_ctxs + 1 entries. Order is checked; not sorted input
 * fails with HPCDB_EINVAL. */
HPCDB_API int hpcdb_profile_set_csr(hpcdb_experiment *exp, uint32_t profile, uint32_t n_ctxs, const uint32_t *ctx_ids,
                                    const uint64_t *ctx_starts, uint64_t n_values, const uint16_t *metric_ids,
                                    const double *values);

/* As hpcdb_profile_set_csr, but takes ownership of malloc'ed arrays (freed
 * here on failure too): the readers' path without a copy. ctx_starts has
 * n_ctxs + 1 entries. */
HPCDB_API int hpcdb_profile_adopt_csr(hpcdb_experiment *exp, uint32_t profile, uint32_t n_ctxs, uint32_t *ctx_ids,
                                      uint64_t *ctx_starts, uint64_t n_values, uint16_t *metric_ids, double *values);

HPCDB_API int hpcdb_add_trace(hpcdb_experiment *exp, uint32_t profile, uint64_t n, const uint64_t *timestamps,
                              const uint32_t *ctx_ids, uint32_t *out_index);

/* Frees a profile's values (context ids, starts, metric ids, values) and
 * leaves it with none; its identity stays. */
HPCDB_API void hpcdb_profile_clear_values(hpcdb_profile *p);
/* HPCDB_READ_COUNTS: the profile's values counted without being kept. */
HPCDB_API int hpcdb_profile_set_counted(hpcdb_experiment *exp, uint32_t profile, uint64_t n_counted);

/* An integer metric's values exact (hpcdb_metric.integer): integers has the
 * profile's n_values entries beside its values. For a value of an integer
 * metric beyond a double's 53 bits, the reader's exact 64-bit integer (two's
 * complement for a signed metric), which must round to the value; every
 * other entry is filled in here from its value (0 for other metrics). Takes
 * ownership (freed here on failure too). Setting the profile's values again
 * drops them. */
HPCDB_API int hpcdb_profile_adopt_integers(hpcdb_experiment *exp, uint32_t profile, uint64_t *integers);

/* ---- queries ------------------------------------------------------------- */

/* Value v (an index into its values) of profiles[profile] as an exact
 * integer: 1 and *out (two's complement for a signed metric) when its metric
 * is an integer metric and the value one of its integers, else 0. */
HPCDB_API int hpcdb_profile_integer(const hpcdb_experiment *exp, uint32_t profile, uint64_t v, uint64_t *out);

/* Value of (ctx id, metric id) in a profile by binary search; 0 when absent.
 * Returns 1 when present, 0 when absent. */
HPCDB_API int hpcdb_profile_value(const hpcdb_profile *p, uint32_t ctx_id, uint16_t metric_id, double *out);

/* Finds which metric a propagated or statistic metric id belongs to.
 * *is_stat tells whether it is a summary statistic id; *which is the index into
 * instances or summaries. Returns 1 when found, 0 otherwise. */
HPCDB_API int hpcdb_metric_of_id(const hpcdb_experiment *exp, uint16_t id, uint32_t *metric, int *is_stat,
                                 uint32_t *which);

/* "RANK 3 THREAD 1"-style text of a profile's identity into buf; "SUMMARY" for
 * the canonical summary profile. Returns the length it needed. */
HPCDB_API size_t hpcdb_profile_identity(const hpcdb_experiment *exp, const hpcdb_profile *p, char *buf, size_t size);

/* Total number of stored values over all profiles. */
HPCDB_API uint64_t hpcdb_value_count(const hpcdb_experiment *exp);

#ifdef __cplusplus
}
#endif
#endif
