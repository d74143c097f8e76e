/* SPDX-License-Identifier: BSD-3-Clause */
/* Function symbols of the kernel from a measurement's kernel_symbols/ folder. */
#ifndef HPCDB_ANALYSIS_KERNEL_SYMBOLS_H
#define HPCDB_ANALYSIS_KERNEL_SYMBOLS_H

#include <stddef.h>

#include "analysis/symbols.h"

enum { KERNEL_NAME_BRACKETED = 1, KERNEL_NAME_IN_FOLDER = 2 };

/* When a load module's path is one of hpcrun's kernel names, which one
 * (KERNEL_NAME_BRACKETED: "<vmlinux.HASH>"; KERNEL_NAME_IN_FOLDER: newer
 * hpcrun's "kernel_symbols/vmlinux.HASH") and the file's name in
 * kernel_symbols/ ("vmlinux.HASH"); else 0. */
int kernel_module_name(const char *path, char *name, size_t size);
/* The text symbols of MEASUREMENTS/kernel_symbols/NAME (kallsyms, or a
 * vmlinux ELF image; plain or compressed), named after the kernel as the
 * style of its module name has it; none, and 0, when there is no such file. */
int kernel_symbols_load(symbol_table *out, const char *measurements, const char *name, int style);

#endif
