/* SPDX-License-Identifier: BSD-3-Clause */
/* Machine code to instructions with their control flow, through Capstone
 * (x86-64 and aarch64). */
#include <stdlib.h>

#include "binstruct/bs_capstone.h"
#include "binstruct/bs_internal.h"
#include "common/error.h"
#include "common/vec.h"

struct bs_decoder {
  const bs_capstone *cs;
  csh handle;
  cs_arch arch;
  cs_insn *insn;
};

int bs_decoder_supported(GElf_Half machine) { return machine == EM_X86_64 || machine == EM_AARCH64; }

bs_decoder *bs_decoder_new(GElf_Half machine) {
  cs_arch arch;
  cs_mode mode;
  if (machine == EM_X86_64) arch = CS_ARCH_X86, mode = CS_MODE_64;
  else if (machine == EM_AARCH64) arch = CS_ARCH_ARM64, mode = CS_MODE_ARM;
  else return NULL;
  const bs_capstone *cs = bs_capstone_get();
  if (!cs) return NULL;
  bs_decoder *d = calloc(1, sizeof *d);
  if (!d) {
    hpcdb_fail(HPCDB_ENOMEM, "out of memory for a machine-code decoder");
    return NULL;
  }
  d->cs = cs;
  d->arch = arch;
  if (cs->open(arch, mode, &d->handle) != CS_ERR_OK) {
    free(d);
    hpcdb_fail(HPCDB_ENOMEM, "Capstone cannot open a decoder (out of memory)");
    return NULL;
  }
  cs->option(d->handle, CS_OPT_DETAIL, CS_OPT_ON);
  d->insn = cs->malloc(d->handle);
  if (!d->insn) {
    cs->close(&d->handle);
    free(d);
    hpcdb_fail(HPCDB_ENOMEM, "out of memory for a machine-code decoder");
    return NULL;
  }
  return d;
}

void bs_decoder_free(bs_decoder *d) {
  if (!d) return;
  d->cs->free(d->insn, 1);
  d->cs->close(&d->handle);
  free(d);
}

static uint64_t x86_target(const cs_insn *in) {
  const cs_x86 *x = &in->detail->x86;
  if (x->op_count >= 1 && x->operands[0].type == X86_OP_IMM) return (uint64_t)x->operands[0].imm;
  return 0;
}

static uint64_t arm64_target(const cs_insn *in) {
  const cs_arm64 *a = &in->detail->arm64;
  for (int i = a->op_count - 1; i >= 0; i--)
    if (a->operands[i].type == ARM64_OP_IMM) return (uint64_t)a->operands[i].imm;
  return 0;
}

static void classify(const bs_decoder *d, const cs_insn *in, bs_insn *out) {
  out->flow = BS_FLOW_NEXT;
  out->target = 0;
  if (!in->detail) return;
  csh h = d->handle;
  bool (*group)(csh, const cs_insn *, unsigned) = d->cs->insn_group;
  int x86 = d->arch == CS_ARCH_X86;
  if (group(h, in, CS_GRP_RET) || group(h, in, CS_GRP_IRET)) {
    out->flow = BS_FLOW_STOP;
  } else if (group(h, in, CS_GRP_CALL)) {
    out->flow = BS_FLOW_CALL;
    out->target = x86 ? x86_target(in) : arm64_target(in);
  } else if (group(h, in, CS_GRP_JUMP)) {
    out->target = x86 ? x86_target(in) : arm64_target(in);
    int uncond;
    if (x86) uncond = in->id == X86_INS_JMP || in->id == X86_INS_LJMP;
    else
      uncond =
          in->id == ARM64_INS_BR ||
          (in->id == ARM64_INS_B && (in->detail->arm64.cc == ARM64_CC_INVALID || in->detail->arm64.cc == ARM64_CC_AL));
    out->flow = uncond ? BS_FLOW_JUMP : BS_FLOW_COND;
  } else if (x86 ? in->id == X86_INS_NOP || in->id == X86_INS_INT3 : in->id == ARM64_INS_NOP) {
    out->flow = BS_FLOW_PAD;
  } else if (x86 && (in->id == X86_INS_HLT || in->id == X86_INS_UD2)) {
    out->flow = BS_FLOW_STOP;
  } else if (!x86 && (in->id == ARM64_INS_BRK || in->id == ARM64_INS_HLT)) {
    out->flow = BS_FLOW_STOP;
  }
}

int bs_decode(bs_decoder *d, const uint8_t *bytes, uint64_t len, uint64_t addr, bs_insn **insns, uint64_t *n,
              uint64_t *cap) {
  const uint8_t *p = bytes;
  size_t left = (size_t)len;
  uint64_t pc = addr;
  unsigned step = d->arch == CS_ARCH_X86 ? 1 : 4; /* where undecodable bytes are skipped */
  while (left > 0) {
    HPCDB_TRY(VEC_RESERVE(insns, cap, *n + 1));
    bs_insn *out = &(*insns)[*n];
    if (d->cs->disasm_iter(d->handle, &p, &left, &pc, d->insn)) {
      out->addr = d->insn->address;
      out->len = d->insn->size;
      classify(d, d->insn, out);
    } else { /* data in the code, or an instruction Capstone does not know */
      unsigned skip = left < step ? (unsigned)left : step;
      out->addr = pc;
      out->len = (uint16_t)skip;
      out->flow = BS_FLOW_NEXT;
      out->target = 0;
      p += skip;
      left -= skip;
      pc += skip;
    }
    (*n)++;
  }
  return 0;
}
