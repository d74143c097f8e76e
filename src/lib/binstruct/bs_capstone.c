/* SPDX-License-Identifier: BSD-3-Clause */
/* Capstone, opened on first use. Linking it would make every process that
 * loads hpcdb pay for it: its tables carry ~77k relative relocations, which
 * cost ~7 ms at start-up (an empty program linked against it) and ~3 MB of
 * resident memory (its share of a Python process with hpcdb imported), while
 * only `hpcdb struct` and analyses that read binaries decode machine code. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

#include "binstruct/bs_capstone.h"
#include "common/error.h"
#include "common/lazy_lib.h"

static bs_capstone capstone;
static const bs_capstone *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Capstone's cs_NAME into capstone.NAME */
#define SYM(name) \
  { "cs_" #name, offsetof(bs_capstone, name) }
static const lazy_sym syms[] = {SYM(open),  SYM(option),     SYM(malloc),     SYM(free),
                                SYM(close), SYM(insn_group), SYM(disasm_iter)};

static char why[512];

static void load(void) {
  if (lazy_lib_open(HPCDB_CAPSTONE_SONAME, syms, sizeof syms / sizeof *syms, &capstone)) loaded = &capstone;
  else snprintf(why, sizeof why, "%s", lazy_lib_error());
}

const bs_capstone *bs_capstone_get(void) {
  pthread_once(&once, load);
  if (!loaded) hpcdb_fail(HPCDB_EIO, "Capstone (%s) cannot be opened: %s", HPCDB_CAPSTONE_SONAME, why);
  return loaded;
}
