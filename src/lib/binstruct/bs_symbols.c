/* SPDX-License-Identifier: BSD-3-Clause */
/* Function symbols from .symtab (or .dynsym when stripped), for binaries or
 * parts of binaries without DWARF. */
#include <stdlib.h>
#include <string.h>

#include "binstruct/bs_internal.h"
#include "binstruct/bs_names.h"
#include "common/error.h"
#include "common/vec.h"

typedef struct cand {
  bs_symbol s;
  int rank; /* global 0, weak 1, local 2: the name kept for an address */
} cand;

static int cand_cmp(const void *a, const void *b) {
  const cand *x = a, *y = b;
  if (x->s.addr != y->s.addr) return x->s.addr < y->s.addr ? -1 : 1;
  if (x->rank != y->rank) return x->rank - y->rank;
  return strcmp(x->s.name, y->s.name);
}

static int read_table(const bs_binary *b, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, cand **out, uint64_t *n,
                      uint64_t *cap) {
  Elf_Data *d = elf_getdata(scn, NULL);
  if (!d || sh->sh_entsize == 0) return 0;
  size_t count = d->d_size / sh->sh_entsize;
  for (size_t i = 0; i < count; i++) {
    GElf_Sym sym;
    if (!gelf_getsym(d, (int)i, &sym)) break;
    int type = GELF_ST_TYPE(sym.st_info);
    if (type != STT_FUNC && type != STT_GNU_IFUNC) continue;
    if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE) continue;
    uint64_t addr = sym.st_value;
    if (b->machine == EM_CUDA) { /* section-relative, the section placed at its offset */
      GElf_Shdr ssh;
      Elf_Scn *ss = elf_getscn(elf, sym.st_shndx);
      if (!ss || !gelf_getshdr(ss, &ssh) || addr > UINT64_MAX - ssh.sh_offset) continue;
      addr += bs_section_base(b, &ssh);
    }
    uint64_t len = 1;
    if (addr == 0 || !bs_binary_code_at(b, addr, &len)) continue;
    const char *name = elf_strptr(elf, sh->sh_link, sym.st_name);
    if (!name || !name[0]) continue;
    HPCDB_TRY(VEC_RESERVE(out, cap, *n + 1));
    int bind = GELF_ST_BIND(sym.st_info);
    (*out)[(*n)++] = (cand){{addr, sym.st_size, name}, bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2};
  }
  return 0;
}

/* PLT stubs as hpcstruct names them: each stub by its relocation's symbol
 * (NAME@plt; ifuncADDR@plt for an IRELATIVE one; targADDR@plt without a
 * symbol). The lazy-binding header (PLT0) has no entry: hpcstruct writes none
 * (HPCToolkit's tests/hpcstruct/inlines+loops.c lists the procedures of such a
 * library). With .plt.sec (IBT), the named stubs are there and .plt holds only
 * the header and each stub's lazy-binding code: no entry either (hpcstruct's
 * testmeas-loops.hpcstruct of HPCToolkit's test data lists none of its .plt,
 * 0x1020-0x1080). The stubs of .plt.got (functions both called and
 * address-taken, bound at load time) carry no .rela.plt entry: unresolved,
 * targADDR@plt (targ1080@plt there). */
static int add_unresolved(uint64_t a, uint64_t size, hpcdb_arena *names, cand **out, uint64_t *n, uint64_t *cap) {
  char buf[64];
  snprintf(buf, sizeof buf, "targ%llx@plt", (unsigned long long)a);
  char *nm = arena_strndup(names, buf, strlen(buf));
  if (!nm) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  HPCDB_TRY(VEC_RESERVE(out, cap, *n + 1));
  (*out)[(*n)++] = (cand){{a, size, nm}, 3};
  return 0;
}

static int read_plt_got(const GElf_Shdr *sh, hpcdb_arena *names, cand **out, uint64_t *n, uint64_t *cap) {
  uint64_t entry = sh->sh_entsize == 8 || sh->sh_entsize == 16 ? sh->sh_entsize : 8;
  for (uint64_t off = 0; off + entry <= sh->sh_size && off < ((uint64_t)1 << 28); off += entry)
    HPCDB_TRY(add_unresolved(sh->sh_addr + off, entry, names, out, n, cap));
  return 0;
}

static int read_plt(const bs_binary *b, hpcdb_arena *names, cand **out, uint64_t *n, uint64_t *cap) {
  Elf_Scn *plt = NULL, *plt_sec = NULL, *rela = NULL;
  GElf_Shdr plt_sh, sec_sh, rela_sh;
  size_t shstrndx;
  if (elf_getshdrstrndx(b->elf, &shstrndx) != 0) return 0;
  for (Elf_Scn *scn = elf_nextscn(b->elf, NULL); scn; scn = elf_nextscn(b->elf, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh)) continue;
    const char *name = elf_strptr(b->elf, shstrndx, sh.sh_name);
    if (!name) continue;
    if (!strcmp(name, ".plt")) plt = scn, plt_sh = sh;
    else if (!strcmp(name, ".plt.sec")) plt_sec = scn, sec_sh = sh;
    else if (!strcmp(name, ".rela.plt") && sh.sh_type == SHT_RELA) rela = scn, rela_sh = sh;
    else if (!strcmp(name, ".plt.got") && sh.sh_type == SHT_PROGBITS) HPCDB_TRY(read_plt_got(&sh, names, out, n, cap));
  }
  if (!plt) return 0;
  uint64_t header = b->machine == EM_AARCH64 ? 32 : 16, entry = 16;
  const GElf_Shdr *stubs = plt_sec ? &sec_sh : &plt_sh;
  uint64_t first = plt_sec ? sec_sh.sh_addr : plt_sh.sh_addr + header;
  uint64_t count = stubs->sh_size > (plt_sec ? 0 : header) ? (stubs->sh_size - (plt_sec ? 0 : header)) / entry : 0;
  Elf_Data *rd = rela ? elf_getdata(rela, NULL) : NULL;
  Elf_Data *symd = NULL;
  GElf_Shdr dynsym_sh;
  if (rela) {
    Elf_Scn *dynsym = elf_getscn(b->elf, rela_sh.sh_link);
    if (dynsym && gelf_getshdr(dynsym, &dynsym_sh)) symd = elf_getdata(dynsym, NULL);
  }
  char buf[512];
  for (uint64_t k = 0; k < count && k < (1u << 24); k++) {
    uint64_t a = first + k * entry;
    GElf_Rela r;
    GElf_Sym sym;
    const char *sname = NULL;
    int irelative = 0;
    if (rd && gelf_getrela(rd, (int)k, &r)) {
      uint64_t type = GELF_R_TYPE(r.r_info);
      irelative = (b->machine == EM_X86_64 && type == R_X86_64_IRELATIVE) ||
                  (b->machine == EM_AARCH64 && type == R_AARCH64_IRELATIVE);
      if (symd && GELF_R_SYM(r.r_info) && gelf_getsym(symd, (int)GELF_R_SYM(r.r_info), &sym))
        sname = elf_strptr(b->elf, dynsym_sh.sh_link, sym.st_name);
    }
    if (irelative) snprintf(buf, sizeof buf, "ifunc%llx@plt", (unsigned long long)a);
    else if (sname && sname[0]) snprintf(buf, sizeof buf, "%.400s@plt", sname);
    else snprintf(buf, sizeof buf, "targ%llx@plt", (unsigned long long)a);
    char *nm = arena_strndup(names, buf, strlen(buf));
    if (!nm) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    HPCDB_TRY(VEC_RESERVE(out, cap, *n + 1));
    (*out)[(*n)++] = (cand){{a, entry, nm}, 3};
  }
  return 0;
}

static uint64_t section_end(const bs_binary *b, uint64_t addr) {
  uint64_t len = UINT64_MAX;
  if (!bs_binary_code_at(b, addr, &len)) return addr;
  return addr + len;
}

int bs_symbols_read(const bs_binary *b, hpcdb_arena *names, bs_symbol **out, size_t *n_out) {
  *out = NULL;
  *n_out = 0;
  Elf_Scn *symtab = NULL, *dynsym = NULL;
  GElf_Shdr symtab_sh, dynsym_sh;
  for (Elf_Scn *scn = elf_nextscn(b->elf, NULL); scn; scn = elf_nextscn(b->elf, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh)) continue;
    if (sh.sh_type == SHT_SYMTAB && !symtab) symtab = scn, symtab_sh = sh;
    if (sh.sh_type == SHT_DYNSYM && !dynsym) dynsym = scn, dynsym_sh = sh;
  }
  cand *c = NULL;
  uint64_t n = 0, cap = 0;
  int rc = 0;
  if (symtab) rc = read_table(b, b->elf, symtab, &symtab_sh, &c, &n, &cap);
  if (rc == 0 && n == 0 && dynsym) rc = read_table(b, b->elf, dynsym, &dynsym_sh, &c, &n, &cap);
  if (rc == 0) rc = read_plt(b, names, &c, &n, &cap);
  if (rc == 0) rc = bs_dwarf_out_of_memory("the symbol tables"); /* a table skipped for want of memory */
  if (rc < 0) {
    free(c);
    return rc;
  }
  if (n == 0) {
    free(c);
    return 0;
  }
  qsort(c, n, sizeof *c, cand_cmp);
  bs_symbol *s = malloc(n * sizeof *s);
  if (!s) {
    free(c);
    return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory for %llu symbols", b->path, (unsigned long long)n);
  }
  size_t m = 0;
  for (uint64_t i = 0; i < n; i++)
    if (m == 0 || s[m - 1].addr != c[i].s.addr) s[m++] = c[i].s;
  free(c);
  /* sizes: as given, never past the next symbol or the section's end */
  for (size_t i = 0; i < m; i++) {
    uint64_t end = section_end(b, s[i].addr);
    if (i + 1 < m && s[i + 1].addr < end) end = s[i + 1].addr;
    if (s[i].size == 0 || s[i].size > end - s[i].addr) s[i].size = end - s[i].addr;
  }
  *out = s;
  *n_out = m;
  return 0;
}

static int read_all_tables(const bs_binary *b, Elf *elf, cand **c, uint64_t *n, uint64_t *cap) {
  for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM))
      HPCDB_TRY(read_table(b, elf, scn, &sh, c, n, cap));
  }
  return 0;
}

int bs_symtab_load(bs_symtab *t, const bs_binary *b) {
  memset(t, 0, sizeof *t);
  cand *c = NULL;
  uint64_t n = 0, cap = 0;
  int rc = read_all_tables(b, b->elf, &c, &n, &cap);
  if (rc == 0 && b->debug_elf) rc = read_all_tables(b, b->debug_elf, &c, &n, &cap);
  if (rc == 0) rc = bs_dwarf_out_of_memory("the symbol tables");
  if (rc == 0 && n) {
    qsort(c, n, sizeof *c, cand_cmp);
    t->syms = malloc(n * sizeof *t->syms);
    if (!t->syms) rc = hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory for %llu symbols", b->path, (unsigned long long)n);
    for (uint64_t i = 0; rc == 0 && i < n; i++)
      if (!t->n || t->syms[t->n - 1].addr != c[i].s.addr || strcmp(t->syms[t->n - 1].name, c[i].s.name))
        t->syms[t->n++] = c[i].s;
  }
  free(c);
  if (rc < 0) bs_symtab_free(t);
  return rc;
}

void bs_symtab_free(bs_symtab *t) {
  free(t->syms);
  memset(t, 0, sizeof *t);
}
