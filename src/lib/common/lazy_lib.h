/* SPDX-License-Identifier: BSD-3-Clause */
/* Libraries opened on first use (dlopen) rather than linked, so that a
 * process pays for loading them only when it needs them. */
#ifndef HPCDB_COMMON_LAZY_LIB_H
#define HPCDB_COMMON_LAZY_LIB_H

#include <stddef.h>

/* A symbol to resolve, and where in the caller's table of function
 * pointers its address goes (offsetof). */
typedef struct lazy_sym {
  const char *name;
  size_t offset;
} lazy_sym;

/* Opens soname and stores the address of each of syms[0 .. n) in table at
 * its offset: 1, or 0 when the library cannot be opened or lacks one of them
 * (then it is closed again). An opened library stays open for the process's
 * life, like a linked one. Call it once (pthread_once). */
int lazy_lib_open(const char *soname, const lazy_sym *syms, size_t n, void *table);
/* Why the last lazy_lib_open failed (dlerror's words): read it in the same
 * pthread_once. */
const char *lazy_lib_error(void);

#endif
