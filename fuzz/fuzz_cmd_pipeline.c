/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: the commands, not only the parsers. The input is a directory
 * image (cmd_image.h) of any format hpcdb reads (v4.0, draft a/b, legacy,
 * Cube, hpcrun measurements); it is validated, read, reported in every view,
 * dumped, exported in every format and converted to v4.0 and Cube; the
 * partial reads of `info` and `report` (counts, summary, totals) too. */
#include "cmd_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char dir[4096], input[4096];
  if (cmd_image_unpack(data, size, dir, sizeof dir, input, sizeof input) < 0) return 0;
  cmd_run_pipeline(input, dir);
  cmd_image_remove(dir);
  return 0;
}
