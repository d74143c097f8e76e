/* SPDX-License-Identifier: BSD-3-Clause */
/* Function extents from the unwind tables: every FDE of .eh_frame and
 * .debug_frame (in the binary or its split debug file) gives the range of
 * one function the compiler emitted, with or without symbols. An FDE that
 * does not start in the state of a call (its first instructions already
 * move the CFA or save registers) is a fragment of another function — the
 * ".cold" part GCC splits off — not an entry. libdw frames the entries
 * (dwarf_next_cfi); the fields it leaves encoded are read here with a
 * bounds-checked cursor. */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "binstruct/bs_code_procs.h"
#include "common/cursor.h"
#include "common/error.h"
#include "common/hashmap.h"
#include "common/vec.h"

/* How the CIE says its FDEs are written. */
typedef struct cie_info {
  uint8_t enc; /* pointer encoding of initial_location (DW_EH_PE_*) */
  int has_z;   /* FDEs carry a length-prefixed augmentation */
} cie_info;

typedef struct section {
  const char *path, *name;
  Elf_Data *data;
  uint64_t addr; /* sh_addr: where pc-relative fields are relative to */
  int eh;        /* .eh_frame (else .debug_frame) */
  unsigned ptr_size;
  const unsigned char *ident;
} section;

static int read_uleb(hpcdb_cursor *c, uint64_t *v) {
  *v = 0;
  for (unsigned shift = 0;; shift += 7) {
    uint8_t b;
    HPCDB_TRY(cursor_u8(c, &b, "LEB128"));
    if (shift < 64) *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return 0;
    if (shift > 70) return hpcdb_fail(HPCDB_ECORRUPT, "%s: LEB128 too long", c->section);
  }
}

static int read_sleb(hpcdb_cursor *c, int64_t *v) {
  uint64_t r = 0;
  unsigned shift = 0;
  uint8_t b;
  do {
    HPCDB_TRY(cursor_u8(c, &b, "LEB128"));
    if (shift < 64) r |= (uint64_t)(b & 0x7f) << shift;
    shift += 7;
    if (shift > 77) return hpcdb_fail(HPCDB_ECORRUPT, "%s: LEB128 too long", c->section);
  } while (b & 0x80);
  if (shift < 64 && (b & 0x40)) r |= ~(uint64_t)0 << shift;
  *v = (int64_t)r;
  return 0;
}

/* A value in a DW_EH_PE format (the low four bits of enc). */
static int read_encoded(hpcdb_cursor *c, uint8_t enc, unsigned ptr_size, uint64_t *v) {
  uint16_t u16;
  uint32_t u32;
  int64_t s = 0;
  switch (enc & 0x0f) {
  case DW_EH_PE_absptr:
    if (ptr_size == 4) {
      HPCDB_TRY(cursor_le32(c, &u32, "pointer"));
      *v = u32;
      return 0;
    }
    return cursor_le64(c, v, "pointer");
  case DW_EH_PE_uleb128: return read_uleb(c, v);
  case DW_EH_PE_udata2:
    HPCDB_TRY(cursor_le16(c, &u16, "udata2"));
    *v = u16;
    return 0;
  case DW_EH_PE_udata4:
    HPCDB_TRY(cursor_le32(c, &u32, "udata4"));
    *v = u32;
    return 0;
  case DW_EH_PE_udata8: return cursor_le64(c, v, "udata8");
  case DW_EH_PE_sleb128:
    HPCDB_TRY(read_sleb(c, &s));
    *v = (uint64_t)s;
    return 0;
  case DW_EH_PE_sdata2:
    HPCDB_TRY(cursor_le16(c, &u16, "sdata2"));
    *v = (uint64_t)(int64_t)(int16_t)u16;
    return 0;
  case DW_EH_PE_sdata4:
    HPCDB_TRY(cursor_le32(c, &u32, "sdata4"));
    *v = (uint64_t)(int64_t)(int32_t)u32;
    return 0;
  case DW_EH_PE_sdata8: return cursor_le64(c, v, "sdata8");
  default: return hpcdb_fail(HPCDB_ECORRUPT, "%s: pointer encoding 0x%x not supported", c->section, enc);
  }
}

static uint64_t size_of_encoded(uint8_t enc, unsigned ptr_size) {
  switch (enc & 0x0f) {
  case DW_EH_PE_udata2:
  case DW_EH_PE_sdata2: return 2;
  case DW_EH_PE_udata4:
  case DW_EH_PE_sdata4: return 4;
  case DW_EH_PE_udata8:
  case DW_EH_PE_sdata8: return 8;
  case DW_EH_PE_absptr: return ptr_size;
  default: return 0; /* LEB128: read, not skipped */
  }
}

/* Whether call-frame instructions at a function's first address describe
 * anything but the state a call leaves (an entry's FDE starts with an
 * advance, or nothing). */
static int moves_at_start(const uint8_t *p, const uint8_t *end) {
  for (; p < end; p++) {
    uint8_t op = *p, hi = op & 0xc0;
    if (hi == DW_CFA_advance_loc) return 0;
    if (hi == DW_CFA_offset) return 1;
    switch (op) {
    case DW_CFA_nop: continue;
    case DW_CFA_advance_loc1:
    case DW_CFA_advance_loc2:
    case DW_CFA_advance_loc4:
    case DW_CFA_set_loc: return 0;
    case DW_CFA_offset_extended:
    case DW_CFA_def_cfa:
    case DW_CFA_def_cfa_register:
    case DW_CFA_def_cfa_offset:
    case DW_CFA_def_cfa_expression:
    case DW_CFA_offset_extended_sf:
    case DW_CFA_def_cfa_sf:
    case DW_CFA_def_cfa_offset_sf:
    case DW_CFA_expression:
    case DW_CFA_val_offset:
    case DW_CFA_val_offset_sf:
    case DW_CFA_val_expression:
    case DW_CFA_register: return 1;
    default: return 0; /* e.g. .cfi_undefined at _start: not a frame of another function */
    }
  }
  return 0;
}

static int read_cie(const section *s, Dwarf_Off off, cie_info *out) {
  Dwarf_CFI_Entry e;
  Dwarf_Off next;
  memset(out, 0, sizeof *out);
  if (dwarf_next_cfi(s->ident, s->data, s->eh, off, &next, &e) != 0 || !dwarf_cfi_cie_p(&e))
    return hpcdb_fail(HPCDB_ECORRUPT, "%s: %s: offset 0x%llx: no CIE there", s->path, s->name, (unsigned long long)off);
  const char *aug = e.cie.augmentation ? e.cie.augmentation : "";
  out->enc = DW_EH_PE_absptr;
  out->has_z = aug[0] == 'z';
  if (aug[0] && !out->has_z) /* an augmentation we cannot skip in its FDEs */
    return hpcdb_fail(HPCDB_ECORRUPT, "%s: %s: offset 0x%llx: augmentation \"%s\" not supported", s->path, s->name,
                      (unsigned long long)off, aug);
  hpcdb_cursor c;
  cursor_init(&c, e.cie.augmentation_data, e.cie.augmentation_data ? e.cie.augmentation_data_size : 0, s->path);
  c.section = s->name;
  for (const char *a = aug + (out->has_z ? 1 : 0); *a; a++) {
    uint8_t enc;
    uint64_t skip;
    if (*a == 'R') {
      HPCDB_TRY(cursor_u8(&c, &out->enc, "FDE encoding"));
    } else if (*a == 'L') {
      HPCDB_TRY(cursor_u8(&c, &enc, "LSDA encoding"));
    } else if (*a == 'P') {
      HPCDB_TRY(cursor_u8(&c, &enc, "personality encoding"));
      if ((skip = size_of_encoded(enc, s->ptr_size))) HPCDB_TRY(cursor_skip(&c, skip));
      else HPCDB_TRY(read_uleb(&c, &skip));
    } else if (*a != 'S' && *a != 'B') {
      break; /* the rest of the data is skipped with the 'z' length */
    }
  }
  return 0;
}

typedef struct reader {
  bs_frame *frames;
  uint64_t n, cap;
  hpcdb_u64map cies; /* CIE offset -> index + 1 in infos */
  cie_info *infos;
  uint64_t n_infos, cap_infos;
} reader;

static int cie_of(reader *r, const section *s, Dwarf_Off off, const cie_info **out) {
  uint64_t idx;
  if (!u64map_get(&r->cies, off, &idx)) {
    HPCDB_TRY(VEC_RESERVE(&r->infos, &r->cap_infos, r->n_infos + 1));
    HPCDB_TRY(read_cie(s, off, &r->infos[r->n_infos]));
    if (u64map_put(&r->cies, off, ++r->n_infos) < 0) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    idx = r->n_infos;
  }
  *out = &r->infos[idx - 1];
  return 0;
}

static int add_fde(reader *r, const section *s, const Dwarf_FDE *fde) {
  const cie_info *ci = NULL;
  HPCDB_TRY(cie_of(r, s, fde->CIE_pointer, &ci));
  if (!fde->start || fde->end < fde->start)
    return hpcdb_fail(HPCDB_ECORRUPT, "%s: %s: an FDE without bytes", s->path, s->name);
  hpcdb_cursor c;
  cursor_init(&c, fde->start, (uint64_t)(fde->end - fde->start), s->path);
  c.section = s->name;
  uint64_t lo, len;
  HPCDB_TRY(read_encoded(&c, ci->enc, s->ptr_size, &lo));
  uint8_t app = ci->enc & 0x70;
  if (app == DW_EH_PE_pcrel) lo += s->addr + (uint64_t)(fde->start - (const uint8_t *)s->data->d_buf);
  else if (app != DW_EH_PE_absptr)
    return hpcdb_fail(HPCDB_ECORRUPT, "%s: %s: pointer encoding 0x%x not supported", s->path, s->name, ci->enc);
  HPCDB_TRY(read_encoded(&c, ci->enc & 0x0f, s->ptr_size, &len));
  if (ci->has_z) {
    uint64_t aug;
    HPCDB_TRY(read_uleb(&c, &aug));
    HPCDB_TRY(cursor_skip(&c, aug));
  }
  if (len == 0 || lo == 0 || lo > UINT64_MAX - len) return 0; /* discarded code (a linker's zeroed FDE) */
  const uint8_t *insns = fde->start + c.pos;
  HPCDB_TRY(VEC_RESERVE(&r->frames, &r->cap, r->n + 1));
  r->frames[r->n++] = (bs_frame){lo, lo + len, !moves_at_start(insns, fde->end)};
  return 0;
}

/* The FDEs of one section: a damaged FDE is left out; damaged framing ends the section. */
static void read_section(reader *r, const section *s, int *failed) {
  Dwarf_Off off = 0, next;
  Dwarf_CFI_Entry e;
  while (off < s->data->d_size) {
    int rc = dwarf_next_cfi(s->ident, s->data, s->eh, off, &next, &e);
    if (rc != 0) break; /* 1: the end (a zero terminator); -1: damaged */
    rc = dwarf_cfi_cie_p(&e) ? 0 : add_fde(r, s, &e.fde);
    if (rc == HPCDB_ENOMEM) {
      *failed = rc;
      return;
    }
    if (next <= off) break;
    off = next;
  }
}

static void read_elf(reader *r, const bs_binary *b, Elf *elf, int eh_too, int *failed) {
  size_t shstrndx;
  const unsigned char *ident = (const unsigned char *)elf_getident(elf, NULL);
  if (!ident || ident[EI_DATA] != ELFDATA2LSB || elf_getshdrstrndx(elf, &shstrndx) != 0) return;
  for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn && !*failed; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS) continue;
    const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
    int eh = name && !strcmp(name, ".eh_frame");
    if (!name || (!(eh && eh_too) && strcmp(name, ".debug_frame"))) continue;
    Elf_Data *d = elf_getdata(scn, NULL);
    if (!d || !d->d_buf || d->d_size == 0) continue;
    section s = {b->path, name, d, sh.sh_addr, eh, ident[EI_CLASS] == ELFCLASS32 ? 4 : 8, ident};
    read_section(r, &s, failed);
  }
}

static int frame_cmp(const void *a, const void *b) {
  const bs_frame *x = a, *y = b;
  if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
  return (x->hi < y->hi) - (x->hi > y->hi); /* the longest first */
}

int bs_frames_read(const bs_binary *b, bs_frame **out, size_t *n_out) {
  *out = NULL;
  *n_out = 0;
  if (b->machine == EM_CUDA) return 0;
  reader r;
  memset(&r, 0, sizeof r);
  int failed = 0;
  read_elf(&r, b, b->elf, 1, &failed);
  if (b->debug_elf && !failed) read_elf(&r, b, b->debug_elf, 0, &failed);
  u64map_free(&r.cies);
  free(r.infos);
  if (failed) {
    free(r.frames);
    return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory reading the unwind tables", b->path);
  }
  /* one per start (.eh_frame and .debug_frame may both describe it), in code only */
  if (r.n > 1) qsort(r.frames, r.n, sizeof *r.frames, frame_cmp);
  size_t m = 0;
  for (uint64_t i = 0; i < r.n; i++) {
    uint64_t len = 1;
    if ((m && r.frames[m - 1].lo == r.frames[i].lo) || !bs_binary_code_at(b, r.frames[i].lo, &len)) continue;
    r.frames[m++] = r.frames[i];
  }
  *out = r.frames;
  *n_out = m;
  return 0;
}
