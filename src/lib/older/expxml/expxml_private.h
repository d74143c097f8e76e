/* SPDX-License-Identifier: BSD-3-Clause */
/* The streaming parser's state, shared by its files (internal to expxml). */
#ifndef HPCDB_EXPXML_PRIVATE_H
#define HPCDB_EXPXML_PRIVATE_H

#include <expat.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "older/expxml/expxml.h"

/* Element kinds the parser acts on. */
enum xtag {
  X_OTHER = 0,
  X_ROOT,
  X_HEADER,
  X_INFO,
  X_NV,
  X_SEC_CPP,
  X_SEC_HEADER,
  X_SEC_DATA,
  X_SEC_FLAT,
  X_TABLE,
  X_IDENTIFIER,
  X_METRIC,
  X_METRIC_FORMULA,
  X_METRIC_DB,
  X_TRACE_DB,
  X_LOAD_MODULE,
  X_FILE,
  X_PROCEDURE,
  X_PF,
  X_PR,
  X_A,
  X_P,
  X_C,
  X_L,
  X_S,
  X_M
};

typedef struct xframe {
  uint8_t tag;
  uint32_t ctx;  /* model index of the enclosing context, HPCDB_NONE outside the tree */
  uint32_t file; /* source file of the enclosing procedure or loop, HPCDB_NONE if none */
} xframe;

typedef struct xproc {
  const char *name;
  uint64_t offset; /* v= of draft a's Procedure (entry address), else 0 */
} xproc;

typedef struct xparser {
  hpcdb_experiment *exp;
  expxml_doc *doc;
  const expxml_options *opt;
  const char *path;
  XML_Parser x;
  xframe *stack;
  uint64_t depth, cap_stack;
  uint64_t skip;          /* > 0 inside an element subtree that is kept only as an attribute */
  hpcdb_u64map modules;   /* XML id -> module index */
  hpcdb_u64map files;     /* XML id -> file index */
  hpcdb_u64map procs;     /* XML id -> index into proc */
  hpcdb_u64map functions; /* hash of (name, module, file, line, offset) -> function index */
  hpcdb_u64map metric_ids, metric_db_ids, unknown_names;
  xproc *proc;
  uint64_t n_proc, cap_proc;
  const char **kinds; /* Identifier i -> name, added to the model at the table's end */
  uint64_t n_kinds, cap_kinds;
  uint32_t metric_open; /* index of the <Metric> being read, UINT32_MAX outside */
  uint32_t next_fresh;  /* next id for frames without a usable XML id */
  uint32_t first_fresh;
  int in_header; /* inside <Header> (Info/NV become attributes) */
  int error;     /* negative status once parsing must stop */
} xparser;

/* Fails the parse: "path: line L, column C: rule: detail". */
void expxml_fail(xparser *p, int status, const char *rule, const char *fmt, ...) HPCDB_PRINTF(4, 5);
/* A referential problem: reported and parsing goes on when validating,
 * else the parse fails. Returns 1 when parsing may go on. */
int expxml_problem(xparser *p, const char *rule, const char *fmt, ...) HPCDB_PRINTF(3, 4);
const char *expxml_attr(const char **atts, const char *name);
/* Integer attribute (decimal, or 0x hex); 1 on success. */
int expxml_int(const char *s, int64_t *out);
/* Leading unsigned integer of "beg-end" line ranges and plain numbers; 0 when absent. */
uint32_t expxml_line(const char *s);

/* Header sections: tables, metrics, identifiers, trace db (tables.c). */
void expxml_start_header_element(xparser *p, enum xtag tag, const char **atts);
void expxml_end_header_element(xparser *p, enum xtag tag);
/* Calling-context elements and inline values (tree.c). */
void expxml_start_tree_element(xparser *p, enum xtag tag, const char **atts);
void expxml_start_data(xparser *p);

#endif
