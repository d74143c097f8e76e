/* SPDX-License-Identifier: BSD-3-Clause */
/* One name per function whether it comes from DWARF or the symbol table
 * (internal). */
#ifndef HPCDB_BINSTRUCT_NAMES_H
#define HPCDB_BINSTRUCT_NAMES_H

#include "binstruct/bs_internal.h"

/* Every function symbol of the binary and of its split debug file, by
 * address (several per address); names point into the ELF files. */
typedef struct bs_symtab {
  bs_symbol *syms;
  size_t n;
} bs_symtab;

int bs_symtab_load(bs_symtab *t, const bs_binary *b);
void bs_symtab_free(bs_symtab *t);

/* Names u's DWARF functions as the symbol at their entry does where DWARF
 * says less: a GCC clone (DWARF names foo, the symbol foo.constprop.0 or
 * _Z3fooi.isra.0) and a C++ function DWARF gives no linkage name (static
 * ones: spin for _ZL4spinl). */
int bs_names_from_symbols(bs_unit *u, const bs_symtab *t);

#endif
