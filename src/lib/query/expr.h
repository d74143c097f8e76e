/* SPDX-License-Identifier: BSD-3-Clause */
/* The compiled form of a derived-metric formula (internal): a postfix
 * program over the inputs (the metrics it reads) and constants. */
#ifndef HPCDB_QUERY_EXPR_H
#define HPCDB_QUERY_EXPR_H

#include "hpcdb/query.h"

#define EXPR_MAX_TEXT 1024
#define EXPR_MAX_OPS 256
#define EXPR_MAX_INPUTS 16

enum {
  EXPR_NUMBER,
  EXPR_INPUT,
  EXPR_ADD,
  EXPR_SUB,
  EXPR_MUL,
  EXPR_DIV,
  EXPR_NEG,
  EXPR_MIN,
  EXPR_MAX,
  EXPR_ABS,
  EXPR_SQRT
};

typedef struct expr_op {
  uint8_t op;
  double number;  /* EXPR_NUMBER */
  uint32_t input; /* EXPR_INPUT: slot in inputs */
} expr_op;

struct hpcdb_expr {
  expr_op ops[EXPR_MAX_OPS];
  uint32_t n_ops;
  uint32_t inputs[EXPR_MAX_INPUTS]; /* metric indices */
  uint32_t n_inputs;
  unsigned max_stack;
};

#endif
