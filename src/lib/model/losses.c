/* SPDX-License-Identifier: BSD-3-Clause */
/* What a writer's format cannot carry of a model, said line by line
 * (model/format.h). */
#include <stdio.h>

#include "model/format.h"

uint64_t format_loss(hpcdb_line_fn fn, void *user, uint64_t n, const char *what) {
  char line[256];
  if (n == 0) return 0;
  snprintf(line, sizeof line, "%llu %s", (unsigned long long)n, what);
  if (fn) fn(user, line);
  return 1;
}
