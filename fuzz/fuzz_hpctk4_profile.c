/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: profile.db v4.0 from arbitrary bytes, read from the mapped
 * bytes alone or, for every other input, with its value arrays read by pread
 * from a file holding the same bytes (the path a database directory takes). */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hpcdb/hpcdb.h"
#include "hpctk4/hpctk4_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hpcdb_experiment *exp;
  if (hpcdb_experiment_new(&exp) != 0) return 0;
  int fd = size & 1 ? memfd_create("profile.db", 0) : -1;
  if (fd >= 0 && write(fd, data, size) != (ssize_t)size) {
    close(fd);
    fd = -1;
  }
  hpctk4_parse_profile_fd(exp, data, size, fd, "fuzz/profile.db");
  if (fd >= 0) close(fd);
  hpcdb_experiment_free(exp);
  return 0;
}
