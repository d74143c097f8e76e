/* SPDX-License-Identifier: BSD-3-Clause */
/* The structure of a binary made on the spot: `hpcdb struct` (libdw,
 * Capstone) written into a memory buffer, read back by the structure-file
 * reader, as if hpcstruct had been run on it. */
#include "analysis/binary_structure.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "hpcdb/binstruct.h"

int binary_structure_make(hpcdb_struct **out, const char *binary, const char *lm_name, unsigned threads,
                          int *has_lines) {
  *out = NULL;
  *has_lines = 0;
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  if (!mem) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the structure of %s", binary);
  hpcdb_binstruct_stats stats = {0};
  hpcdb_binstruct_options opt = HPCDB_BINSTRUCT_OPTIONS_INIT;
  opt.threads = threads;
  opt.lm_name = lm_name;
  opt.stats = &stats;
  int rc = hpcdb_binstruct_write(binary, mem, &opt);
  if (fclose(mem) != 0 && rc == 0) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for the structure of %s", binary);
  if (rc == 0) rc = hpcdb_hpcstruct_read_mem(out, binary, buf, len);
  if (rc == 0) *has_lines = stats.has_dwarf;
  free(buf);
  return rc;
}
