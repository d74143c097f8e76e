/* Fuzz target: anchor.xml (plain or gzip) through the Cube parser, then the
 * model built from what it found. */
#include <stddef.h>
#include <stdint.h>

#include "cube/cube.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cube_anchor a;
  if (cube_anchor_parse(&a, data, size, "fuzz/anchor.xml") != 0) return 0;
  hpcdb_experiment *exp;
  uint32_t entry;
  if (hpcdb_experiment_new(&exp) == 0) {
    cube_build_model(exp, &a, "fuzz/anchor.xml", &entry);
    hpcdb_experiment_free(exp);
  }
  cube_anchor_free(&a);
  return 0;
}
