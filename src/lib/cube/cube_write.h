/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing a model as a .cubex archive (internal): the call tree in Cube's
 * terms, anchor.xml, and each metric's .index and .data. */
#ifndef HPCDB_CUBE_WRITE_INTERNAL_H
#define HPCDB_CUBE_WRITE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/hashmap.h"
#include "cube/cube.h"
#include "hpcdb/model.h"

/* A growable byte buffer. */
typedef struct cube_buf {
  uint8_t *data;
  size_t len, cap;
  int failed;
} cube_buf;

void cube_buf_put(cube_buf *b, const void *data, size_t n);
/* A string literal, without its terminating zero. */
#define cube_buf_lit(b, s) cube_buf_put((b), (s), sizeof(s) - 1)
void cube_buf_printf(cube_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s with &, <, >, " and control characters escaped for XML. */
void cube_buf_escaped(cube_buf *b, const char *s);
void cube_buf_free(cube_buf *b);

/* A synthetic region for contexts without a function (entry points, loops,
 * lines, instructions): its name, and a source location when it has one. */
typedef struct cube_synthetic_region {
  const char *name; /* interned in the tree's pool */
  const char *role; /* "artificial", "loop" or "code" */
  uint32_t file, line;
} cube_synthetic_region;

/* The model's call tree in Cube's terms: cnodes are the contexts other than
 * the global one, numbered 0.. in depth-first pre-order (which is also the
 * cnode order of exclusive metrics); regions are the model's functions
 * (region id = function index) followed by synthetic regions. */
typedef struct cube_tree {
  uint32_t n;        /* cnodes */
  uint32_t *ctx;     /* model context index of each cnode */
  uint32_t *parent;  /* parent cnode, UINT32_MAX for a root */
  uint32_t *kids_at; /* n + 1 entries: children of c are kids[kids_at[c] .. kids_at[c + 1]) */
  uint32_t *kids;
  uint32_t *region;       /* region id of each cnode */
  uint32_t *cnode_of_ctx; /* per model context index; UINT32_MAX for the global one */
  uint32_t *cnode_of_id;  /* per native context id below n_ids (UINT32_MAX: none); NULL when ids are too sparse */
  uint32_t n_ids;
  cube_synthetic_region *synthetic;
  uint32_t n_synthetic;
  hpcdb_strpool names;
  uint32_t *locations; /* profile index of each location (the non-summary profiles) */
  uint32_t n_locations;
} cube_tree;

int cube_tree_build(cube_tree *t, const hpcdb_experiment *exp);
void cube_tree_free(cube_tree *t);

/* How one model metric becomes a Cube metric: which propagated values are
 * stored, with which flavour and data type. */
typedef struct cube_metric_plan {
  uint32_t metric;    /* model metric index */
  uint16_t stored_id; /* prop metric id whose values are written */
  int inclusive;      /* 1: INCLUSIVE (execution values), 0: EXCLUSIVE */
  int32_t entry_id;   /* exclusive min / max: the execution id whose values entry points store, or -1 */
  const char *dtype;  /* DOUBLE, MINDOUBLE, MAXDOUBLE, or UINT64 / INT64 for an integer metric */
  uint8_t integer;    /* HPCDB_INTEGER_*: the values are written as 64-bit integers */
  int stored_only;    /* one flavour and no summary (e.g. a component of a Cube RATE): nothing to derive */
} cube_metric_plan;

/* One plan per model metric that has values to store; *n may be less than
 * the number of metrics (metrics without a propagated instance). */
int cube_plan_metrics(const hpcdb_experiment *exp, cube_metric_plan **plans, uint32_t *n);

int cube_write_anchor(cube_buf *out, const hpcdb_experiment *exp, const cube_tree *t, const cube_metric_plan *plans,
                      uint32_t n_plans);

/* One metric's values laid out as Cube stores them: rows[pos × n_locations + l]
 * by position in the metric's cnode order; listed: the positions with a
 * non-zero value at some location (the sparse index). The buffers are reused
 * from one metric to the next. */
typedef struct cube_metric_rows {
  uint32_t n, n_locations;
  double *rows;
  uint32_t *listed;
  uint32_t n_listed;
  size_t rows_bytes;     /* of the mapping that holds the rows, then the tiles */
  uint32_t *order, *pos; /* scratch: cnode order and its inverse */
  uint8_t *nonzero;      /* scratch: per position, whether some location's value is not 0 (twice: two fill threads) */
  uint32_t
      *slot; /* scratch: per native context id (cube_tree's n_ids), the cnode's position; NULL when ids are sparse */
  double *tiles;   /* scratch: two tiles of a few locations' values, cnode by cnode */
  uint8_t integer; /* the plan's: rows become 64-bit integers on the way out */
} cube_metric_rows;

int cube_metric_rows_fill(cube_metric_rows *r, const hpcdb_experiment *exp, const cube_tree *t,
                          const cube_metric_plan *plan);
void cube_metric_rows_free(cube_metric_rows *r);

/* The .index member (a sparse index of the listed positions). */
int cube_write_index(cube_buf *index, const cube_metric_rows *r);

/* The uncompressed .data member: its size, and its bytes handed to sink in
 * pieces (so that the rows need not be copied into one buffer first). */
typedef int (*cube_sink_fn)(void *user, const void *data, size_t n);
uint64_t cube_data_size(const cube_metric_rows *r);
int cube_write_data(const cube_metric_rows *r, cube_sink_fn sink, void *user);
/* The ZCUBEX.DATA member: one zlib stream per row. */
int cube_write_data_compressed(cube_buf *data, const cube_metric_rows *r);

/* Where carried members go: a member's header, then its bytes in pieces. */
typedef struct cube_member_writer {
  int (*header)(void *user, const char *name, uint64_t size);
  cube_sink_fn data;
  void *user;
  const char *origin; /* set by cube_carry_members, for messages */
} cube_member_writer;
/* The members of exp's origin (when it was read from a Cube file) that
 * hpcdb does not write itself, copied as they are. */
int cube_carry_members(const hpcdb_experiment *exp, cube_member_writer *w);

#endif
