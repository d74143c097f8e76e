/* SPDX-License-Identifier: BSD-3-Clause */
/* Function symbols of a binary (through libelf): which function an address
 * falls in. Used for binaries the measurement directory carries itself (the
 * vdso), as hpcprof does without structure files. */
#ifndef HPCDB_ANALYSIS_SYMBOLS_H
#define HPCDB_ANALYSIS_SYMBOLS_H

#include <libelf.h>
#include <stdint.h>

typedef struct symbol {
  uint64_t start, size;
  char *name;
  int rank; /* binding preference: global, weak, local */
} symbol;

typedef struct symbol_table {
  symbol *syms; /* sorted by start; one name per address (global before weak) */
  uint32_t n;
} symbol_table;

/* Loads the FUNC symbols of an ELF file, also one stored compressed (xz,
 * gzip, bzip2); a file that is not ELF, or has no symbols, gives an empty
 * table (and 0): symbols are a refinement, not a need. */
int symbols_load(symbol_table *out, const char *path);
/* The same from an ELF image already open (NULL or not ELF: none). */
int symbols_of_elf(symbol_table *out, Elf *elf);
/* Of symbols sorted by start, keeps the first of each start (frees the others' names). */
void symbols_keep_first_per_start(symbol_table *t);
/* The function containing addr, or NULL. */
const symbol *symbols_find(const symbol_table *t, uint64_t addr);
void symbols_free(symbol_table *t);

#endif
