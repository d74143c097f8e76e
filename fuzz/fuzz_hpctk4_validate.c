/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: the v4.0 validator on arbitrary bytes as a single file (its
 * magic and format id choose the rules). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "hpcdb/hpcdb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[] = "/tmp/hpcdb-fuzz-validate-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return 0;
  if (write(fd, data, size) == (ssize_t)size) {
    hpcdb_validation v;
    hpcdb_validate(&v, path, NULL, NULL);
  }
  close(fd);
  unlink(path);
  return 0;
}
