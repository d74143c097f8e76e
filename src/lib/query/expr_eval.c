/* SPDX-License-Identifier: BSD-3-Clause */
/* Running a compiled formula (expr.h) on one set of input values. */
#include <math.h>

#include "query/expr.h"

uint32_t hpcdb_expr_inputs(const hpcdb_expr *e, const uint32_t **metrics) {
  *metrics = e->inputs;
  return e->n_inputs;
}

double hpcdb_expr_eval(const hpcdb_expr *e, const double *inputs) {
  double stack[EXPR_MAX_OPS];
  unsigned n = 0;
  for (uint32_t i = 0; i < e->n_ops; i++) {
    const expr_op *o = &e->ops[i];
    double b = n ? stack[n - 1] : 0;
    switch (o->op) {
    case EXPR_NUMBER: stack[n++] = o->number; continue;
    case EXPR_INPUT: stack[n++] = inputs[o->input]; continue;
    case EXPR_NEG: stack[n - 1] = -b; continue;
    case EXPR_ABS: stack[n - 1] = fabs(b); continue;
    case EXPR_SQRT: stack[n - 1] = b > 0 ? sqrt(b) : 0; continue;
    default: break;
    }
    double a = stack[n - 2], r;
    switch (o->op) {
    case EXPR_ADD: r = a + b; break;
    case EXPR_SUB: r = a - b; break;
    case EXPR_MUL: r = a * b; break;
    case EXPR_DIV: r = b != 0 ? a / b : 0; break; /* a rate over nothing: shown as 0, not inf */
    case EXPR_MIN: r = a < b ? a : b; break;
    default: r = a > b ? a : b; break; /* EXPR_MAX */
    }
    stack[--n - 1] = r;
  }
  double v = n ? stack[0] : 0;
  return isfinite(v) ? v : 0;
}
