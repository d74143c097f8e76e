/* SPDX-License-Identifier: BSD-3-Clause */
/* Text inside SVG and HTML (report_data.h). */
#include <stdio.h>

#include "report/report_data.h"

void report_markup_text(FILE *out, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '&': fputs("&amp;", out); break;
    case '"': fputs("&quot;", out); break;
    default: fputc(*s, out);
    }
  }
}
