/* SPDX-License-Identifier: BSD-3-Clause */
/* The Capstone functions the decoder calls, from the library opened on
 * first use (bs_capstone.c says why it is not linked). */
#ifndef HPCDB_BINSTRUCT_BS_CAPSTONE_H
#define HPCDB_BINSTRUCT_BS_CAPSTONE_H

#include <capstone/capstone.h>

typedef struct bs_capstone { /* each one typed as Capstone's own declaration */
  __typeof__(cs_open) *open;
  __typeof__(cs_option) *option;
  __typeof__(cs_malloc) *malloc;
  __typeof__(cs_free) *free;
  __typeof__(cs_close) *close;
  __typeof__(cs_insn_group) *insn_group;
  __typeof__(cs_disasm_iter) *disasm_iter;
} bs_capstone;

/* NULL when the library cannot be opened or lacks a function. */
const bs_capstone *bs_capstone_get(void);

#endif
