/* SPDX-License-Identifier: BSD-3-Clause */
/* A growing buffer for JSON responses (internal to src/view). */
#ifndef HPCDB_VIEW_JSON_H
#define HPCDB_VIEW_JSON_H

#include <stddef.h>

typedef struct jbuf {
  char *p;
  size_t n, cap;
  int failed; /* out of memory: the response becomes a 500 */
} jbuf;

void jb_raw(jbuf *b, const char *s);
void jb_fmt(jbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void jb_str(jbuf *b, const char *s); /* a JSON string, escaped */
void jb_num(jbuf *b, double v);      /* shortest round-trip form; non-finite as 0 */
/* A value of a column: as jb_num, but an unsigned integer metric's value (its
 * two's complement double, hpcdb_query_column_integer) as the unsigned
 * integer it is, as CubeLib and hpcdb report show it (-1: 18446744073709551615). */
void jb_value(jbuf *b, double v, int is_unsigned);
void jb_free(jbuf *b);

#endif
