/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: trace.db v4.0 from arbitrary bytes, for an experiment with a
 * few profiles (trace lines must name one). Also the cct.db header. */
#include <stddef.h>
#include <stdint.h>

#include "hpcdb/hpcdb.h"
#include "hpctk4/hpctk4_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hpcdb_experiment *exp;
  if (hpcdb_experiment_new(&exp) != 0) return 0;
  for (int i = 0; i < 4; i++) hpcdb_add_profile(exp, i == 0, i != 0, NULL, 0, NULL);
  hpctk4_parse_trace(exp, data, size, "fuzz/trace.db");
  uint32_t n;
  hpctk4_parse_cct_header(data, size, "fuzz/cct.db", &n);
  hpcdb_experiment_free(exp);
  return 0;
}
