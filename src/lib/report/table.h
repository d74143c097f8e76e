/* SPDX-License-Identifier: BSD-3-Clause */
/* Rows of a report table: a name column, then per metric inclusive, % of
 * the total and exclusive; aligned text or CSV (internal). */
#ifndef HPCDB_REPORT_TABLE_H
#define HPCDB_REPORT_TABLE_H

#include "hpcdb/report.h"
#include "report/report_data.h"

typedef struct table {
  FILE *out;
  const report_data *d;
  const hpcdb_report_options *o;
  unsigned name_width;
  int rows;         /* written so far (JSON needs the commas) */
  unsigned longest; /* the widest name column a row wanted (text): to say how to widen */
} table;

/* How many metric columns a text table shows by default at o->width: as many as leave the
 * name column at least 2/5 of the width (and 30 characters), at least one, at most three. */
uint32_t table_default_columns(const hpcdb_report_options *o);

void table_begin(table *t, FILE *out, const report_data *d, const hpcdb_report_options *o, const char *what);
/* One row; inc/exc have d->n_cols values (exc NULL: none, left blank); id is the native context id (CSV only; -1: none). */
void table_row(table *t, unsigned depth, const char *name, long long id, const double *inc, const double *exc);
/* A row with the exact integers of the integer columns (report_data.iinc's layout; NULL: none, the
 * doubles are printed): CSV and JSON print all their digits, the text table reads them as their type. */
void table_row_exact(table *t, unsigned depth, const char *name, long long id, const double *inc, const double *exc,
                     const uint64_t *iinc, const uint64_t *iexc);
/* Closes what table_begin opened (the JSON document). */
void table_end(table *t);

#endif
