/* SPDX-License-Identifier: BSD-3-Clause */
/* printf's "%.3g" and "%.1f" of a double without printf where that is exact
 * (report tables print tens of thousands of them; glibc's formatting of
 * doubles was most of a report's own time), and through snprintf otherwise:
 * the text is always snprintf's. */
#ifndef HPCDB_FIXED_DECIMAL_H
#define HPCDB_FIXED_DECIMAL_H

#include <stddef.h>

/* snprintf(buf, size, "%.3g", v); the length it returns. size >= 32. */
int fmt_g3(char *buf, size_t size, double v);
/* snprintf(buf, size, "%.1f", v); the same. size >= 32. */
int fmt_f1(char *buf, size_t size, double v);

#endif
