/* SPDX-License-Identifier: BSD-3-Clause */
/* The report's integer columns exact: a metric whose values are integers
 * (hpcdb_metric.integer, a Cube UINT64 hardware counter) is carried beside
 * its doubles as 64-bit integers, from the profile's exact values
 * (hpcdb_profile_integer) through every sum and difference the report
 * makes, so that --csv and --json print all its digits. Sums and
 * differences are taken modulo 2^64, as CubeLib's UINT64 values add and
 * subtract (CubeUnsignedLongValue.h: operator+= and operator-= on a
 * uint64_t): a wrapped counter's inclusive values come back small, as
 * Cube's tools show them. */
#include <stdlib.h>

#include "common/error.h"
#include "report/report_data.h"

int report_integers_alloc(report_data *d) {
  int any = 0;
  for (uint32_t c = 0; c < d->n_cols; c++) any |= d->cols[c].integer != 0;
  if (!any) return 0;
  size_t cells = ((size_t)d->exp->n_contexts + 1) * d->n_cols;
  d->iinc = calloc(cells, sizeof *d->iinc);
  d->iexc = calloc(cells, sizeof *d->iexc);
  d->iself = calloc(cells, sizeof *d->iself);
  if (!d->iinc || !d->iexc || !d->iself) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the report");
  return 0;
}

void report_integers_add(report_data *d, uint32_t p, uint64_t v, size_t cell, int exclusive) {
  column *col = &d->cols[cell % d->n_cols];
  uint64_t u;
  if (!d->iinc || !col->integer) return;
  if (!hpcdb_profile_integer(d->exp, p, v, &u)) col->integer = 0; /* not one of its integers: the doubles say it */
  else (exclusive ? d->iexc : d->iinc)[cell] += u;
}

/* The sum of ctx's children's inclusive integers in column c. */
static uint64_t children(const report_data *d, uint32_t ctx, uint32_t c) {
  const hpcdb_experiment *e = d->exp;
  uint64_t sum = 0;
  for (uint32_t k = e->contexts[ctx].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling)
    sum += d->iinc[(size_t)k * d->n_cols + c];
  return sum;
}

/* The integer columns' doubles as their type reads the integers (a wrapped
 * UINT64 counter near 2^64, not the small negative number the model's
 * two's complement double is): what the views sort, fold by threshold and
 * show in the text table. */
static void as_read(report_data *d) {
  uint32_t nc = d->n_cols;
  for (uint32_t c = 0; c < nc; c++) {
    uint8_t kind = d->cols[c].integer;
    if (!kind) continue;
    d->total[c] = report_integer_double(d->itotal[c], kind);
    for (size_t i = 0; i < d->exp->n_contexts; i++) {
      size_t cell = i * nc + c;
      d->inc[cell] = report_integer_double(d->iinc[cell], kind);
      d->exc[cell] = report_integer_double(d->iexc[cell], kind);
      d->self[cell] = report_integer_double(d->iself[cell], kind);
    }
  }
}

/* As derive() in data.c, column by column: a metric with no inclusive scope
 * sums the exclusive values up the tree, one with no exclusive scope takes
 * inclusive minus the children's; a minimum or maximum keeps what is stored. */
void report_integers_derive(report_data *d, const uint8_t *have_inc, const uint8_t *have_exc) {
  const hpcdb_experiment *e = d->exp;
  uint32_t nc = d->n_cols;
  for (uint32_t c = 0; d->iinc && c < nc; c++) {
    if (!d->cols[c].integer) continue;
    if (d->cols[c].extreme) {
      d->itotal[c] = d->iinc[c];
      for (uint32_t i = 0; i < e->n_contexts; i++) d->iself[(size_t)i * nc + c] = d->iexc[(size_t)i * nc + c];
      continue;
    }
    if (!have_inc[c]) {
      for (uint32_t i = 0; i < e->n_contexts; i++) d->iinc[(size_t)i * nc + c] = d->iexc[(size_t)i * nc + c];
      for (uint32_t i = e->n_contexts; i-- > 1;) /* children come after parents */
        d->iinc[(size_t)e->contexts[i].parent * nc + c] += d->iinc[(size_t)i * nc + c];
    } else if (!have_exc[c]) {
      for (uint32_t i = 0; i < e->n_contexts; i++)
        d->iexc[(size_t)i * nc + c] = d->iinc[(size_t)i * nc + c] - children(d, i, c);
    }
    if (d->iinc[c] == 0) d->iinc[c] = children(d, 0, c); /* the root: stored, else its children */
    d->itotal[c] = d->iinc[c];
    for (uint32_t i = 0; i < e->n_contexts; i++)
      d->iself[(size_t)i * nc + c] = d->iinc[(size_t)i * nc + c] - children(d, i, c);
  }
  as_read(d);
}
