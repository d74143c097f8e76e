/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: anchor.xml (plain or gzip) through the Cube parser, then the
 * model built from what it found; and the same text parsed in two halves at
 * once (any size here), which must succeed or fail as the whole parse does. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cube/cube.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cube_anchor a, halves;
  int rc = cube_anchor_parse_halves(&a, data, size, "fuzz/anchor.xml", SIZE_MAX, NULL);
  int rc2 = cube_anchor_parse_halves(&halves, data, size, "fuzz/anchor.xml", 0, NULL);
  if ((rc == 0) != (rc2 == 0)) abort();
  if (rc2 == 0) {
    if (halves.n_cnodes != a.n_cnodes || halves.n_regions != a.n_regions || halves.n_metrics != a.n_metrics ||
        halves.n_locations != a.n_locations || halves.n_params != a.n_params || halves.n_attrs != a.n_attrs)
      abort();
    cube_anchor_free(&halves);
  }
  if (rc != 0) return 0;
  hpcdb_experiment *exp;
  uint32_t entry;
  if (hpcdb_experiment_new(&exp) == 0) {
    cube_build_model(exp, &a, "fuzz/anchor.xml", &entry);
    hpcdb_experiment_free(exp);
  }
  cube_anchor_free(&a);
  return 0;
}
