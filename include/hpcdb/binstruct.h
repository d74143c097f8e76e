/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb — program structure of a binary, written as HPCToolkit's structure
 * XML (the .hpcstruct files hpcstruct writes and hpcprof reads): load module
 * -> source files -> procedures -> inlined calls (alien scopes) -> loops ->
 * statements, with address ranges. Functions, inlined calls and lines come
 * from DWARF (libdw; split debug found by build id), or from the ELF symbol
 * tables when there is none; loops from the machine code (Capstone). */
#ifndef HPCDB_BINSTRUCT_H
#define HPCDB_BINSTRUCT_H

/* ABI (docs/api-stability.md): the layouts of this header's structs, other
 * than options structs and ops tables (which carry a version), may change in
 * any 0.x minor release; code that reads their fields is recompiled for it. */

#include "hpcdb/export.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What was found (filled when the options point to one). */
typedef struct hpcdb_binstruct_stats {
  unsigned long long functions, inlined_calls, loops, irreducible_loops;
  int has_dwarf;         /* functions and lines came from DWARF */
  int has_loops;         /* the machine code was decoded (Capstone is installed and knows the machine) */
  char debug_file[4096]; /* the split debug file used, or "" */
} hpcdb_binstruct_stats;

#define HPCDB_BINSTRUCT_OPTIONS_VERSION 1
#define HPCDB_BINSTRUCT_OPTIONS_INIT \
  { .version = HPCDB_BINSTRUCT_OPTIONS_VERSION }
typedef struct hpcdb_binstruct_options {
  unsigned version;             /* HPCDB_BINSTRUCT_OPTIONS_VERSION (0 is taken as 1); docs/api-stability.md */
  unsigned threads;             /* worker threads over functions; 0 or 1: none */
  const char *lm_name;          /* the LM's n attribute; NULL: binary_path */
  const char *debug_root;       /* where build-id split debug files live; NULL: /usr/lib/debug */
  int no_loops;                 /* 1: functions and lines only, no disassembly */
  hpcdb_binstruct_stats *stats; /* NULL, or filled on success */
} hpcdb_binstruct_options;

/* Writes the structure of the ELF binary or shared library at binary_path to
 * out. opt may be NULL (defaults). Returns 0, or a negative hpcdb_status with
 * the message in hpcdb_last_error(); out may then hold a partial document. */
HPCDB_API int hpcdb_binstruct_write(const char *binary_path, FILE *out, const hpcdb_binstruct_options *opt);

/* The binary's identity for caching structure files: its GNU build id in hex
 * (or "" when it has none) and a 64-bit hash of its whole content, written as
 * "<build-id>-<hash16>" into buf (size >= 96). */
HPCDB_API int hpcdb_binstruct_identity(const char *binary_path, char *buf, size_t size);

/* Writes the structure file of binary_path to out_path atomically (a
 * temporary renamed into place; nothing is left behind on failure). With a
 * cache_dir (created if missing), a structure file made before for the same
 * binary identity, LM name and options is copied instead of analyzing again,
 * and a new one is stored there. *from_cache (may be NULL) tells which. */
HPCDB_API int hpcdb_binstruct_write_file(const char *binary_path, const char *out_path, const char *cache_dir,
                                         const hpcdb_binstruct_options *opt, int *from_cache);

#ifdef __cplusplus
}
#endif

#endif
