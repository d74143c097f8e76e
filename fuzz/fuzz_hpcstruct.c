/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: a structure file through the reader, then an address lookup
 * at every range's edges and the info summary (to /dev/null). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hpcdb/hpcstruct.h"

/* The depth of a scope (its chain of parents must end). */
static uint32_t depth(const hpcdb_struct_module *m, uint32_t scope) {
  uint32_t d = 0;
  for (; scope != HPCDB_NONE && d <= m->n_scopes; scope = m->scopes[scope].parent) d++;
  return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hpcdb_struct *s;
  if (hpcdb_hpcstruct_read_mem(&s, "fuzz.hpcstruct", data, size) != 0) return 0;
  for (uint32_t i = 0; i < hpcdb_hpcstruct_n_modules(s); i++) {
    const hpcdb_struct_module *m = hpcdb_hpcstruct_module(s, i);
    for (uint32_t k = 0; k < m->n_ranges; k++) {
      uint32_t d = depth(m, hpcdb_hpcstruct_lookup(m, m->ranges[k].lo)) +
                   depth(m, hpcdb_hpcstruct_lookup(m, m->ranges[k].hi - 1));
      if (d == 0) __builtin_trap(); /* a range's own bytes must find a scope */
    }
  }
  FILE *null = fopen("/dev/null", "w");
  if (null) {
    hpcdb_hpcstruct_write_info(null, s);
    fclose(null);
  }
  hpcdb_hpcstruct_free(s);
  return 0;
}
