/* SPDX-License-Identifier: BSD-3-Clause */
/* Counting and handing over validation problems. */
#include <stdio.h>

#include "common/diag.h"
#include "hpcdb/formats.h"

void diag_vemit(const diag_sink *s, hpcdb_severity sev, const char *file, uint64_t offset, const char *rule,
                const char *fmt, va_list ap) {
  char detail[1024];
  vsnprintf(detail, sizeof detail, fmt, ap);
  if (sev == HPCDB_SEV_ERROR) s->result->errors++;
  else s->result->notes++;
  if (s->fn) {
    hpcdb_diagnostic d = {sev, file, offset, rule, detail};
    s->fn(s->user, &d);
  }
}

void diag_emit(const diag_sink *s, hpcdb_severity sev, const char *file, uint64_t offset, const char *rule,
               const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vemit(s, sev, file, offset, rule, fmt, ap);
  va_end(ap);
}
