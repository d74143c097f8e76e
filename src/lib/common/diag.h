/* SPDX-License-Identifier: BSD-3-Clause */
/* Reporting validation problems (internal): each validator counts a problem
 * in the caller's hpcdb_validation and hands it to the caller's function. */
#ifndef HPCDB_COMMON_DIAG_H
#define HPCDB_COMMON_DIAG_H

#include <stdarg.h>
#include <stdint.h>

#include "common/error.h"
#include "hpcdb/formats.h"

typedef struct diag_sink {
  hpcdb_validation *result;
  hpcdb_diagnostic_fn fn; /* may be NULL: only counted */
  void *user;
} diag_sink;

/* One problem; the detail is formatted from fmt (cut at 1 KiB). */
void diag_emit(const diag_sink *s, hpcdb_severity sev, const char *file, uint64_t offset, const char *rule,
               const char *fmt, ...) HPCDB_PRINTF(6, 7);
void diag_vemit(const diag_sink *s, hpcdb_severity sev, const char *file, uint64_t offset, const char *rule,
                const char *fmt, va_list ap);

#endif
