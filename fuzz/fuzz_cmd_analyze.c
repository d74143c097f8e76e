/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: analyze on a measurement directory (a directory image of
 * .hpcrun and .hpctrace files, cmd_image.h, typically one of them damaged),
 * skipping bad files and strict, in memory and streamed to a database; then
 * the analysed database through the other commands. */
#include <stdio.h>

#include "cmd_image.h"
#include "hpcdb/analysis.h"
#include "hpcdb/hpcdb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char dir[4096], input[4096], out[4200];
  if (cmd_image_unpack(data, size, dir, sizeof dir, input, sizeof input) < 0) return 0;
  hpcdb_experiment *exp = NULL;
  hpcdb_analyze_options strict = {.threads = 2, .strict = 1};
  hpcdb_analyze(&exp, dir, &strict, NULL, NULL, NULL);
  hpcdb_experiment_free(exp);
  exp = NULL;
  snprintf(out, sizeof out, "%s/analyzed.d", dir);
  hpcdb_analyze_options streamed = {.threads = 2, .output = out};
  if (hpcdb_analyze(&exp, dir, &streamed, NULL, NULL, NULL) == 0) cmd_run_pipeline(out, dir);
  hpcdb_experiment_free(exp);
  cmd_image_remove(dir);
  return 0;
}
