/* Function symbols from .symtab (or .dynsym when stripped), for binaries or
 * parts of binaries without DWARF. */
#include <stdlib.h>
#include <string.h>

#include "binstruct/bs_internal.h"
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

static int read_table(const bs_binary *b, Elf_Scn *scn, const GElf_Shdr *sh, cand **out,
                      uint64_t *n, uint64_t *cap) {
  Elf_Data *d = elf_getdata(scn, NULL);
  if (!d || sh->sh_entsize == 0) return 0;
  size_t count = d->d_size / sh->sh_entsize;
  for (size_t i = 0; i < count; i++) {
    GElf_Sym sym;
    if (!gelf_getsym(d, (int)i, &sym)) break;
    int type = GELF_ST_TYPE(sym.st_info);
    if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_value == 0) continue;
    if (sym.st_shndx == SHN_UNDEF) continue;
    uint64_t len = 1;
    if (!bs_binary_code_at(b, sym.st_value, &len)) continue;
    const char *name = elf_strptr(b->elf, sh->sh_link, sym.st_name);
    if (!name || !name[0]) continue;
    HPCDB_TRY(VEC_RESERVE(out, cap, *n + 1));
    int bind = GELF_ST_BIND(sym.st_info);
    (*out)[(*n)++] = (cand){{sym.st_value, sym.st_size, name},
                            bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2};
  }
  return 0;
}

static uint64_t section_end(const bs_binary *b, uint64_t addr) {
  uint64_t len = UINT64_MAX;
  if (!bs_binary_code_at(b, addr, &len)) return addr;
  return addr + len;
}

int bs_symbols_read(const bs_binary *b, bs_symbol **out, size_t *n_out) {
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
  if (symtab) rc = read_table(b, symtab, &symtab_sh, &c, &n, &cap);
  if (rc == 0 && n == 0 && dynsym) rc = read_table(b, dynsym, &dynsym_sh, &c, &n, &cap);
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
    return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory for %llu symbols", b->path,
                      (unsigned long long)n);
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
