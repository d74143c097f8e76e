/* SPDX-License-Identifier: BSD-3-Clause */
/* The structure-file reader's internals (shared by its files). */
#ifndef HPCDB_HPCSTRUCT_PRIVATE_H
#define HPCDB_HPCSTRUCT_PRIVATE_H

#include "common/hashmap.h"
#include "hpcdb/hpcstruct.h"
#include "model/format.h"

/* The module's face to the library (format.c). */
extern const format_desc hpcstruct_format;

struct hpcdb_struct {
  hpcdb_strpool strings;
  hpcdb_struct_module *modules;
  uint32_t n_modules;
  uint64_t cap_modules;
};

/* A module being read: its arrays with their capacities. */
typedef struct module_builder {
  hpcdb_struct_module *m;
  uint64_t cap_scopes, cap_ranges;
  hpcdb_u64map entries; /* procedure entry -> its scope */
} module_builder;

/* Parses "{[0xlo-0xhi) ...}" into *ranges (a buffer of capacity *cap,
 * grown as needed and kept for the next call); 0, or a negative status with
 * *why saying what is wrong. */
int vma_parse(const char *s, hpcdb_struct_range **ranges, uint64_t *cap, uint32_t *n, const char **why);
/* A whole string that is one hex number of at most 64 bits (0x optional). */
int hex_address(const char *s, uint64_t *out);
/* Sorts the module's statement ranges by address; a range that overlaps one
 * earlier in the file is dropped (counted in n_shadowed). */
int ranges_finish(hpcdb_struct_module *m);

/* Why and where this thread's last read stopped on a problem. */
typedef struct hpcstruct_problem {
  uint64_t offset;
  uint32_t line;
  char rule[32];
  char detail[600];
} hpcstruct_problem;
const hpcstruct_problem *hpcstruct_last_problem(void);

#endif
