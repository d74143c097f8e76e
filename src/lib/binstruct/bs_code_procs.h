/* SPDX-License-Identifier: BSD-3-Clause */
/* Procedures of code DWARF does not describe (internal): function symbols
 * and PLT stubs, then the functions only the unwind tables know. */
#ifndef HPCDB_BINSTRUCT_CODE_PROCS_H
#define HPCDB_BINSTRUCT_CODE_PROCS_H

#include "binstruct/bs_internal.h"
#include "common/arena.h"

/* One FDE: [lo, hi); entry 0: a fragment of another function (its first
 * call-frame instructions already describe a frame, as in GCC's .cold parts). */
typedef struct bs_frame {
  uint64_t lo, hi;
  int entry;
} bs_frame;

/* The FDEs of .eh_frame and .debug_frame (the binary's or its split debug
 * file's) in executable code, sorted, one per start. A damaged FDE is left
 * out; only running out of memory fails. */
int bs_frames_read(const bs_binary *b, bs_frame **out, size_t *n);

typedef struct bs_code_proc {
  const char *name; /* the symbol's name; the display name when link is set */
  const char *link; /* NULL: name is a symbol name (demangled for display) */
  uint64_t entry;
  uint32_t first_range, n_ranges; /* into bs_code_procs.ranges; the first holds entry */
} bs_code_proc;

typedef struct bs_code_procs {
  bs_code_proc *procs; /* by entry */
  size_t n;
  bs_range *ranges;
  hpcdb_arena names;
  uint64_t frames, fragments, joined; /* FDEs read, of them fragments, joined to their function */
} bs_code_procs;

/* Symbols (bs_symbols_read), then each FDE entry no symbol overlaps as
 * "<unknown procedure> 0xADDR" (link "targADDR", as hpcstruct names the
 * procedures it finds without symbols; "main" for bs_entry_main's), and each fragment joined to the
 * procedure its code jumps back into (d NULL, or none found: a procedure of
 * its own). */
int bs_code_procs_read(const bs_binary *b, bs_decoder *d, bs_code_procs *out);
void bs_code_procs_free(bs_code_procs *p);
/* Adds procedure i to u as a function declared in file. */
int bs_code_proc_add(bs_unit *u, const bs_code_procs *p, size_t i, const char *file);
/* main's address in a stripped x86-64 executable, from what its entry point
 * (glibc's _start) hands __libc_start_main; 0 when not found. */
uint64_t bs_entry_main(const bs_binary *b, bs_decoder *dec);
/* hpcstruct's names of a procedure known only by its address. */
void bs_unknown_proc_names(uint64_t addr, char name[64], char link[64]);

#endif
