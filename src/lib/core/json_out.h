/* Writing JSON text: strings escaped (control characters as \u00XX, UTF-8
 * passed through), doubles in round-trip precision, non-finite as null. */
#ifndef HPCDB_CORE_JSON_OUT_H
#define HPCDB_CORE_JSON_OUT_H

#include <stdio.h>

void json_string(FILE *out, const char *s);
void json_number(FILE *out, double v);

#endif
