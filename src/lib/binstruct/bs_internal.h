/* SPDX-License-Identifier: BSD-3-Clause */
/* Program structure of one binary (internal): what DWARF or the symbol tables
 * say about one batch of functions (a compile unit, or a slice of the symbol
 * table), and the scope tree each function becomes. */
#ifndef HPCDB_BINSTRUCT_INTERNAL_H
#define HPCDB_BINSTRUCT_INTERNAL_H

#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>

#include "common/arena.h"
#include "common/hashmap.h"

typedef struct bs_range {
  uint64_t lo, hi; /* [lo, hi) */
} bs_range;

/* One inlined call instance (DW_TAG_inlined_subroutine). */
typedef struct bs_inline {
  int32_t parent; /* index in the function's inlines, -1: the function itself */
  const char *name, *decl_file, *call_file;
  uint32_t decl_line, call_line;
  uint32_t first_range, n_ranges; /* into bs_unit.ranges */
} bs_inline;

typedef struct bs_func {
  const char *name, *link_name, *file; /* file: where the P goes (its F) */
  uint32_t line;
  uint64_t entry;
  uint32_t first_range, n_ranges;   /* into bs_unit.ranges */
  uint32_t first_inline, n_inlines; /* into bs_unit.inlines; parents are relative */
} bs_func;

/* A line-table row: from addr up to the next row's addr. file == NULL ends
 * a sequence (no line there). */
typedef struct bs_row {
  uint64_t addr;
  const char *file;
  uint32_t line;
} bs_row;

/* One batch of functions with everything their scopes need. */
typedef struct bs_unit {
  hpcdb_strpool strings;
  bs_func *funcs;
  uint64_t n_funcs, cap_funcs;
  bs_inline *inlines;
  uint64_t n_inlines, cap_inlines;
  bs_range *ranges;
  uint64_t n_ranges, cap_ranges;
  bs_row *rows; /* sorted by addr */
  uint64_t n_rows, cap_rows;
} bs_unit;

void bs_unit_reset(bs_unit *u); /* empties it, keeping allocations */
void bs_unit_free(bs_unit *u);
const char *bs_intern(bs_unit *u, const char *s); /* NULL stays NULL */
int bs_unit_add_range(bs_unit *u, uint64_t lo, uint64_t hi);
/* link demangled (interned in u): C++, Rust, gfortran module procedures, as
 * their toolchains print them; NULL when it is none of these. */
const char *bs_demangled(bs_unit *u, const char *link);
/* How many names the process left mangled for want of memory (a count that
 * grows: a writer compares it before and after). */
unsigned bs_demangle_failures(void);
/* Sorts the rows by address (stable: the last row at an address wins). */
void bs_unit_sort_rows(bs_unit *u);
/* The row in effect at addr, or NULL. */
const bs_row *bs_unit_row_at(const bs_unit *u, uint64_t addr);

/* ---- the binary ---- */

typedef struct bs_code {
  uint64_t addr, size;
  const uint8_t *bytes;
} bs_code;

typedef struct bs_binary {
  const char *path;
  int fd, debug_fd;
  char *image; /* the decompressed file when it is stored compressed (vmlinux.xz), else NULL */
  uint64_t image_len;
  Elf *elf;
  Dwarf *dwarf; /* NULL: no DWARF (in the file or a split debug file) */
  Elf *debug_elf;
  GElf_Half machine;
  bs_code *code; /* executable sections, sorted by addr */
  size_t n_code;
  char build_id[129];    /* hex, "" when none */
  char debug_path[4096]; /* the split debug file in use, "" when none */
} bs_binary;

int bs_binary_open(bs_binary *b, const char *path, const char *debug_root);
void bs_binary_close(bs_binary *b);
/* Where a section's addresses start (its sh_addr; its file offset in a CUDA binary). */
uint64_t bs_section_base(const bs_binary *b, const GElf_Shdr *sh);
/* Bytes at [addr, addr + *len) clipped to the section holding addr; NULL if none. */
const uint8_t *bs_binary_code_at(const bs_binary *b, uint64_t addr, uint64_t *len);

/* Functions of one compile unit from DWARF into u (reset first). */
int bs_dwarf_unit(bs_unit *u, Dwarf_Die *cudie);
/* After a libdw or libelf call failed: HPCDB_ENOMEM (message set) when it
 * (or an earlier call) failed for want of memory, which must not be read as
 * "this part is absent"; else 0. */
int bs_dwarf_out_of_memory(const char *what);

/* Function symbols (.symtab, else .dynsym) in executable sections, and PLT
 * stubs (names made in names), sorted by address, one per address, sizes
 * completed up to the next symbol. */
typedef struct bs_symbol {
  uint64_t addr, size;
  const char *name; /* in the ELF string table */
} bs_symbol;
int bs_symbols_read(const bs_binary *b, hpcdb_arena *names, bs_symbol **out, size_t *n);

/* ---- machine code ---- */

/* PAD: alignment padding (nop, int3), falls through like NEXT */
enum bs_flow { BS_FLOW_NEXT, BS_FLOW_JUMP, BS_FLOW_COND, BS_FLOW_STOP, BS_FLOW_CALL, BS_FLOW_PAD };

typedef struct bs_insn {
  uint64_t addr;
  uint64_t target; /* direct jump/call target, 0: none or indirect */
  uint16_t len;
  uint8_t flow; /* enum bs_flow */
} bs_insn;

/* The index of the instruction at addr in insns (sorted by address), or -1. */
int64_t bs_insn_index(const bs_insn *insns, uint64_t n, uint64_t addr);

typedef struct bs_decoder bs_decoder;
/* Whether Capstone decodes this machine's code (loops can be found). */
int bs_decoder_supported(GElf_Half machine);
/* NULL when the machine is not supported, or with the error set when
 * Capstone cannot be opened or memory runs out. */
bs_decoder *bs_decoder_new(GElf_Half machine);
void bs_decoder_free(bs_decoder *d);
/* Appends the instructions of [addr, addr+len) to *insns. */
int bs_decode(bs_decoder *d, const uint8_t *bytes, uint64_t len, uint64_t addr, bs_insn **insns, uint64_t *n,
              uint64_t *cap);

/* Loops of a function's control-flow graph. */
typedef struct bs_loop {
  int32_t parent;     /* enclosing loop, -1: none */
  uint32_t header;    /* insn index of the header block's first instruction */
  uint32_t line_insn; /* insn whose source line names the loop */
  uint32_t back_insn; /* insn of the back edge's branch (the last latch's) */
  int irreducible;    /* entered at more than one block */
} bs_loop;

typedef struct bs_loops {
  bs_loop *loops;
  uint64_t n, cap;
  int32_t *insn_loop; /* innermost loop of each instruction, -1: none */
} bs_loops;

/* insns sorted by address, n > 0. */
int bs_find_loops(const bs_insn *insns, uint64_t n, uint64_t entry, bs_loops *out);
void bs_loops_free(bs_loops *l);

/* ---- scopes and XML ---- */

enum bs_kind { BS_NODE_PROC, BS_NODE_CALLSITE, BS_NODE_ALIEN, BS_NODE_LOOP };

typedef struct bs_node {
  uint8_t kind;
  int32_t parent, first_child, last_child, next_sibling;
  const char *name, *link_name, *file;
  uint32_t line;
  uint64_t addr;     /* P: entry, L: header */
  uint64_t min_addr; /* lowest address inside (orders siblings) */
  int32_t ctx;       /* inline index this node stands in, -1: the function */
} bs_node;

typedef struct bs_stmt {
  int32_t node;
  uint32_t line;
  uint64_t lo, hi;
  const char *file; /* the line table's file; bs_xml_proc: NULL where it is the node's */
} bs_stmt;

typedef struct bs_proc {
  bs_node *nodes;
  uint64_t n_nodes, cap_nodes;
  bs_stmt *stmts;
  uint64_t n_stmts, cap_stmts;
  uint64_t n_loops, n_irreducible;
  uint64_t *calls; /* direct call targets outside the function */
  uint64_t n_calls, cap_calls;
} bs_proc;

typedef struct bs_stats {
  uint64_t functions, inlines, loops, irreducible, insns;
} bs_stats;

/* The scope tree of function f of u (decoder NULL: no loops, line rows instead). */
int bs_build_proc(const bs_unit *u, const bs_func *f, const bs_binary *b, bs_decoder *d, bs_proc *out);
void bs_proc_free(bs_proc *p);

/* The code reachable from start without leaving [start, limit) (direct
 * jumps and fall-through), as ranges appended to u; returns how many. */
int64_t bs_reachable_ranges(bs_unit *u, const bs_binary *b, bs_decoder *d, uint64_t start, uint64_t limit);

typedef struct bs_xml {
  FILE *out;
  uint64_t next_id;
} bs_xml;

int bs_xml_begin(bs_xml *x, const char *lm_name);
int bs_xml_file_begin(bs_xml *x, const char *name);
int bs_xml_file_end(bs_xml *x);
/* name_suffix: appended to P names (" [lib.so]" for binaries without DWARF), or NULL. */
int bs_xml_proc(bs_xml *x, bs_proc *p, const char *name_suffix); /* sorts p's statements */
int bs_xml_end(bs_xml *x);

#endif
