/* SPDX-License-Identifier: BSD-3-Clause */
/* main in a stripped executable. The ELF entry point is the C library's
 * _start, which hands main's address to __libc_start_main in the first
 * argument register; on x86-64 glibc's _start loads it right before that
 * call: `lea main(%rip),%rdi` in a position-independent executable, `mov
 * $main,%rdi` or `mov $main,%edi` otherwise. Debuggers find main the same
 * way. Only the instructions before _start's first call are looked at. */
#include <stdlib.h>

#include "binstruct/bs_code_procs.h"

#define START_BYTES 64 /* glibc's x86-64 _start loads main within its first 24 bytes */

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The address an x86-64 instruction puts in rdi/edi, or 0 when it is none of the three forms. */
static uint64_t rdi_address(const uint8_t *p, uint64_t len, uint64_t next) {
  if (len == 7 && p[0] == 0x48 && p[1] == 0x8d && p[2] == 0x3d) return next + (uint64_t)(int64_t)(int32_t)le32(p + 3);
  if (len == 7 && p[0] == 0x48 && p[1] == 0xc7 && p[2] == 0xc7) return (uint64_t)(int64_t)(int32_t)le32(p + 3);
  if (len == 5 && p[0] == 0xbf) return le32(p + 1);
  return 0;
}

uint64_t bs_entry_main(const bs_binary *b, bs_decoder *dec) {
  GElf_Ehdr eh;
  if (!dec || b->machine != EM_X86_64 || !gelf_getehdr(b->elf, &eh) || eh.e_entry == 0) return 0;
  uint64_t len = START_BYTES;
  const uint8_t *code = bs_binary_code_at(b, eh.e_entry, &len);
  if (!code) return 0;
  bs_insn *in = NULL;
  uint64_t n = 0, cap = 0, main = 0, loaded = 0;
  if (bs_decode(dec, code, len, eh.e_entry, &in, &n, &cap) == 0)
    for (uint64_t i = 0; i < n; i++) {
      if (in[i].flow == BS_FLOW_CALL) {
        main = loaded;
        break;
      }
      if (in[i].flow != BS_FLOW_NEXT) break; /* a jump or an end before the call: not glibc's _start */
      uint64_t at = in[i].addr - eh.e_entry, found;
      if (at + in[i].len <= len && (found = rdi_address(code + at, in[i].len, in[i].addr + in[i].len))) loaded = found;
    }
  free(in);
  return main;
}
