/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing JSON text: strings escaped (control characters as \u00XX, UTF-8
 * passed through), doubles in shortest round-trip form, non-finite as null.
 * The textout forms write into a block buffer (common/textout.h). */
#ifndef HPCDB_CORE_JSON_OUT_H
#define HPCDB_CORE_JSON_OUT_H

#include <stdio.h>

#include "common/textout.h"

void json_string(FILE *out, const char *s);
/* As json_string, with <, > and & as \u00XX too: the text may sit inside an
 * HTML <script> element (no "</script>" can end it early). */
void json_script_string(FILE *out, const char *s);
void json_number(FILE *out, double v);
void json_text_string(textout *t, const char *s);
void json_text_number(textout *t, double v);

#endif
