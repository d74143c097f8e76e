/* SPDX-License-Identifier: BSD-3-Clause */
/* A strict JSON syntax check for the fuzz targets' answers (RFC 8259:
 * objects, arrays, strings with their escapes, numbers, true/false/null). */
#ifndef HPCDB_FUZZ_JSON_CHECK_H
#define HPCDB_FUZZ_JSON_CHECK_H

#include <stddef.h>

/* 1 when text[0..len) is one JSON value (with optional white space around it). */
int json_valid(const char *text, size_t len);

#endif
