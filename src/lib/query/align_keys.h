/* SPDX-License-Identifier: BSD-3-Clause */
/* What a context is for the alignment: its class (entry point, frame, loop,
 * line, instruction) and the keys it can be matched by (internal). */
#ifndef HPCDB_QUERY_ALIGN_KEYS_H
#define HPCDB_QUERY_ALIGN_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "hpcdb/compare.h"

enum align_class { AC_ROOT, AC_ENTRY, AC_FRAME, AC_LOOP, AC_LINE, AC_INSTR, AC_OTHER };

typedef struct align_key {
  uint8_t cls;      /* enum align_class */
  uint8_t kind;     /* enum hpcdb_match of the primary key */
  uint64_t primary; /* name, file:line, or module+offset; 0: none */
  uint64_t file;    /* loops and lines: the file name alone (for shifted lines); 0: none */
  uint32_t line;
  uint64_t offset; /* module name + offset, the last resort; 0: none */
} align_key;

void align_key_of(const hpcdb_experiment *exp, uint32_t ctx, align_key *out);
/* The name of a frame's function with a compiler clone suffix (.constprop.N,
 * .isra.N, .part.N, .cold, .lto_priv.N) and hpcprof's " [module]" dropped,
 * and PMPI_X read as MPI_X, into buf (length back). */
size_t align_function_name(const char *name, char *buf, size_t size);
/* What a person reads: function name, "loop at f.c:12", "f.c:40", "app+0x4a0". */
size_t align_display_name(const hpcdb_experiment *exp, uint32_t ctx, char *buf, size_t size);
const char *align_basename(const char *path);

#endif
