/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: .hpcrun profiles (02.00, 03.00 and 04.00 share the entry; the
 * version string decides). Whatever parses must serialise back to the same
 * bytes, pass through the validator's checks, and map into the model or fail
 * cleanly. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpcrun/hpcrun_check.h"
#include "hpcrun/hpcrun_file.h"
#include "hpcrun/hpcrun_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hpcrun_file *f = NULL;
  hpcrun_parse_error err;
  if (hpcrun_file_parse(&f, data, size, "fuzz.hpcrun", &err) < 0) return 0;
  uint8_t *again = NULL;
  uint64_t len = 0;
  if (hpcrun_file_serialize(f, &again, &len) == 0 && (len != size || memcmp(again, data, size) != 0))
    abort(); /* the reader kept less than the file holds */
  free(again);
  hpcdb_validation res = {0, 0};
  hpcrun_check_profile(&res, "fuzz.hpcrun", f, NULL, NULL);
  hpcdb_experiment *exp = NULL;
  if (hpcdb_experiment_new(&exp) == 0) {
    hpcrun_builder b;
    hpcrun_builder_init(&b, exp, f->major != 4 && f->n_epochs > 1);
    hpcrun_builder_add(&b, "fuzz.hpcrun", f, NULL, NULL, NULL);
    hpcrun_builder_free(&b);
    hpcdb_experiment_free(exp);
  }
  hpcrun_file_free(f);
  return 0;
}
