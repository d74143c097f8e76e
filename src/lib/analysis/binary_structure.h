/* SPDX-License-Identifier: BSD-3-Clause */
/* Program structure straight from a binary, when no structure file describes it. */
#ifndef HPCDB_ANALYSIS_BINARY_STRUCTURE_H
#define HPCDB_ANALYSIS_BINARY_STRUCTURE_H

#include "hpcdb/hpcstruct.h"

/* The structure of the ELF binary at path, its load module named lm_name
 * (the path the measurement recorded), analyzed with threads threads;
 * *has_lines: whether any line information (DWARF) was found for it. */
int binary_structure_make(hpcdb_struct **out, const char *binary, const char *lm_name, unsigned threads,
                          int *has_lines);

#endif
