/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: the draft-b meta.db (HPCTOOLKIT_expmt) from arbitrary bytes,
 * through the parser the reader and the validator share. */
#include <stddef.h>
#include <stdint.h>

#include "older/draftb/draftb.h"
#include "hpcdb/hpcdb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hpcdb_experiment *exp;
  if (hpcdb_experiment_new(&exp) != 0) return 0;
  draftb_meta m;
  draftb_parse_meta(&m, exp, data, size, "fuzz/meta.db");
  hpcdb_experiment_free(exp);
  return 0;
}
