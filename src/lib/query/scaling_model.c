/* SPDX-License-Identifier: BSD-3-Clause */
/* A scaling model once fitted: its value at p, its text, its growth order. */
#include <math.h>
#include <stdio.h>

#include "hpcdb/compare.h"
#include "query/scaling_private.h"

double hpcdb_scaling_eval(const hpcdb_scaling_model *m, double p) {
  double f = m->c0;
  for (uint32_t k = 0; k < m->n_terms; k++)
    f += m->terms[k].c * scaling_term(m->terms[k].num, m->terms[k].den, m->terms[k].log_exp, p);
  return f;
}

size_t hpcdb_scaling_format(const hpcdb_scaling_model *m, char *buf, size_t size) {
  size_t len = 0;
#define PUT(...) len += (size_t)snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0, __VA_ARGS__)
  if (m->c0 != 0 || m->n_terms == 0) PUT("%.4g", m->c0);
  for (uint32_t k = 0; k < m->n_terms; k++) {
    const hpcdb_scaling_term *t = &m->terms[k];
    if (len) PUT(" %c ", t->c < 0 ? '-' : '+');
    else if (t->c < 0) PUT("-");
    PUT("%.4g", fabs(t->c));
    if (t->num) {
      if (t->den == 1 && t->num == 1) PUT(" * p");
      else if (t->den == 1) PUT(" * p^%d", t->num);
      else PUT(" * p^(%d/%d)", t->num, t->den);
    }
    if (t->log_exp == 1) PUT(" * log2(p)");
    else if (t->log_exp > 1) PUT(" * log2(p)^%d", t->log_exp);
  }
#undef PUT
  return len;
}

double hpcdb_scaling_growth(const hpcdb_scaling_model *m) {
  double g = 0;
  for (uint32_t k = 0; k < m->n_terms; k++) {
    const hpcdb_scaling_term *t = &m->terms[k];
    if (t->c > 0) g = fmax(g, (double)t->num / t->den + 0.01 * t->log_exp);
  }
  return g;
}
