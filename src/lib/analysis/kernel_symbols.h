/* SPDX-License-Identifier: BSD-3-Clause */
/* Function symbols of the kernel from a measurement's kernel_symbols/ folder. */
#ifndef HPCDB_ANALYSIS_KERNEL_SYMBOLS_H
#define HPCDB_ANALYSIS_KERNEL_SYMBOLS_H

#include <stddef.h>

#include "analysis/symbols.h"

/* 1 and the name between the brackets when a load module's path is one of
 * hpcrun's kernel names ("<vmlinux.HASH>"), else 0. */
int kernel_module_name(const char *path, char *name, size_t size);
/* The text symbols of MEASUREMENTS/kernel_symbols/NAME (plain or
 * compressed); none, and 0, when there is no such file. */
int kernel_symbols_load(symbol_table *out, const char *measurements, const char *name);

#endif
