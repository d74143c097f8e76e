/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: hpcdb struct on damaged ELF files — the ELF headers and
 * sections (libelf), the DWARF (libdw), the symbol tables and the machine
 * code (Capstone, CFG, loops). Whatever the bytes, writing the structure
 * must end (0 or an error), never crash or hang. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "hpcdb/binstruct.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[] = "/tmp/hpcdb-fuzz-binstruct-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return 0;
  size_t done = 0;
  while (done < size) {
    ssize_t w = write(fd, data + done, size - done);
    if (w <= 0) break;
    done += (size_t)w;
  }
  close(fd);
  FILE *out = fopen("/dev/null", "w");
  if (out) {
    /* no split debug files: the result must not depend on the machine */
    hpcdb_binstruct_options opt = {.threads = 1, .debug_root = "/nonexistent"};
    hpcdb_binstruct_write(path, out, &opt);
    fclose(out);
  }
  unlink(path);
  return 0;
}
