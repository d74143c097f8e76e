/* SPDX-License-Identifier: BSD-3-Clause */
/* Names as a person reads them, and numbers with units. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/dtoa.h"
#include "common/fixed_decimal.h"
#include "query/names.h"
#include "report/report_data.h"

/* Context names, frames and time units are the query layer's, so that report and the
 * viewer name everything alike. */
size_t report_name(const hpcdb_experiment *exp, uint32_t ctx, char *buf, size_t size) {
  return query_context_name(exp, ctx, buf, size);
}

uint32_t report_frame(const hpcdb_experiment *exp, uint32_t ctx, int functions_only) {
  return query_frame(exp, ctx, functions_only);
}

double report_time_unit(const char *name, const char *unit) { return query_time_unit(name, unit); }

/* "-0.000 us": a value that rounds to zero is shown without a sign. */
static void unsign_zero(char *buf) {
  if (buf[0] != '-') return;
  for (const char *p = buf + 1; *p && *p != ' '; p++)
    if (*p >= '1' && *p <= '9') return;
  memmove(buf, buf + 1, strlen(buf));
}

void report_value(char *buf, size_t size, double v, double seconds) {
  if (seconds != 0) v *= seconds;
  double a = fabs(v);
  if (v == 0) {
    snprintf(buf, size, "0");
  } else if (seconds != 0) {
    if (a >= 100) snprintf(buf, size, "%.1f s", v);
    else if (a >= 1) snprintf(buf, size, "%.3f s", v);
    else if (a >= 1e-3) snprintf(buf, size, "%.3f ms", v * 1e3);
    else snprintf(buf, size, "%.3f us", v * 1e6);
  } else {
    static const char *const suffix[] = {"", "k", "M", "G", "T", "P", "E"}; /* E: a 64-bit counter reaches 18.4E */
    int k = 0;
    while (a >= 1000 && k < 6) {
      a /= 1000;
      v /= 1000;
      k++;
    }
    if (k == 0 && v == floor(v)) { /* |v| < 1000: its integer digits, as "%.0f" */
      buf[fmt_i64(buf, (int64_t)v)] = '\0';
    } else {
      int n = fmt_g3(buf, size, v);
      snprintf(buf + n, size - (size_t)n, "%s", suffix[k]);
    }
  }
  unsign_zero(buf);
}
