/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: meta.db v4.0 from arbitrary bytes into a fresh experiment. */
#include <stddef.h>
#include <stdint.h>

#include "hpcdb/hpcdb.h"
#include "hpctk4/hpctk4_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hpcdb_experiment *exp;
  if (hpcdb_experiment_new(&exp) != 0) return 0;
  hpctk4_parse_meta(exp, data, size, "fuzz/meta.db");
  hpcdb_experiment_free(exp);
  return 0;
}
