/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: .hpctrace 01.01 files. A trace that parses serialises back to
 * the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpcrun/hpcrun_check.h"
#include "hpcrun/hpcrun_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hpcrun_trace_file *t = NULL;
  if (hpcrun_trace_parse(&t, data, size, "fuzz.hpctrace", NULL) < 0) return 0;
  uint8_t *again = NULL;
  uint64_t len = 0;
  if (hpcrun_trace_serialize(t, &again, &len) == 0 && (len != size || memcmp(again, data, size) != 0)) abort();
  free(again);
  hpcdb_validation res = {0, 0};
  hpcrun_check_trace(&res, "fuzz.hpctrace", t, NULL, NULL, NULL);
  hpcrun_trace_free(t);
  return 0;
}
