/* SPDX-License-Identifier: BSD-3-Clause */
#include "analysis/symbols.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/decompress.h"
#include "common/error.h"

#define MAX_IMAGE (2ull << 30) /* a decompressed binary held in memory */

static int by_start_then_rank(const void *a, const void *b) {
  const symbol *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Binding classes in order of preference for an address's name. */
static int binding_rank(int binding) { return binding == STB_GLOBAL ? 0 : binding == STB_WEAK ? 1 : 2; }

/* Symbol names carry a version after '@' in .dynsym dumps; keep the name. */
static char *clean_name(const char *name) {
  size_t n = strcspn(name, "@");
  char *s = malloc(n + 1);
  if (s) {
    memcpy(s, name, n);
    s[n] = '\0';
  }
  return s;
}

static int add_symbols(symbol_table *t, Elf *elf, Elf_Scn *scn, GElf_Shdr *sh) {
  Elf_Data *data = elf_getdata(scn, NULL);
  if (!data || sh->sh_entsize == 0) return 0;
  size_t count = sh->sh_size / sh->sh_entsize;
  for (size_t i = 0; i < count; i++) {
    GElf_Sym sym;
    if (!gelf_getsym(data, (int)i, &sym)) break;
    if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_size == 0 || sym.st_shndx == SHN_UNDEF) continue;
    const char *name = elf_strptr(elf, sh->sh_link, sym.st_name);
    if (!name || !*name) continue;
    symbol *grown = realloc(t->syms, ((size_t)t->n + 1) * sizeof *grown);
    if (!grown) return hpcdb_fail(HPCDB_ENOMEM, "out of memory reading symbols");
    t->syms = grown;
    char *copy = clean_name(name);
    if (!copy) return hpcdb_fail(HPCDB_ENOMEM, "out of memory reading symbols");
    t->syms[t->n++] = (symbol){sym.st_value, sym.st_size, copy, binding_rank(GELF_ST_BIND(sym.st_info))};
  }
  return 0;
}

int symbols_of_elf(symbol_table *out, Elf *elf) {
  memset(out, 0, sizeof *out);
  int rc = 0;
  if (elf && elf_kind(elf) == ELF_K_ELF) {
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) && rc == 0) {
      GElf_Shdr sh;
      if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM))
        rc = add_symbols(out, elf, scn, &sh);
    }
  }
  if (rc < 0) {
    symbols_free(out);
    return rc;
  }
  if (out->n == 0) return 0;
  /* One name per address: the preferred binding's. */
  qsort(out->syms, out->n, sizeof *out->syms, by_start_then_rank);
  symbols_keep_first_per_start(out);
  return 0;
}

int symbols_load(symbol_table *out, const char *path) {
  memset(out, 0, sizeof *out);
  if (elf_version(EV_CURRENT) == EV_NONE) return 0;
  if (decompress_file_is_compressed(path)) { /* an image kept compressed (vmlinux.xz) */
    char *image;
    size_t len;
    int rc = decompress_file(path, MAX_IMAGE, &image, &len);
    if (rc < 0) return rc == HPCDB_ENOMEM ? rc : 0; /* no symbols, as for any file that is no ELF */
    Elf *elf = elf_memory(image, len);
    rc = symbols_of_elf(out, elf);
    if (elf) elf_end(elf);
    free(image);
    return rc;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
  int rc = symbols_of_elf(out, elf);
  if (elf) elf_end(elf);
  close(fd);
  return rc;
}

void symbols_keep_first_per_start(symbol_table *t) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < t->n; i++) {
    if (kept > 0 && t->syms[kept - 1].start == t->syms[i].start) {
      free(t->syms[i].name);
      continue;
    }
    t->syms[kept++] = t->syms[i];
  }
  t->n = kept;
}

const symbol *symbols_find(const symbol_table *t, uint64_t addr) {
  uint32_t lo = 0, hi = t->n;
  while (lo < hi) { /* the last symbol starting at or before addr */
    uint32_t mid = lo + (hi - lo) / 2;
    if (t->syms[mid].start <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return NULL;
  const symbol *s = &t->syms[lo - 1];
  return addr - s->start < s->size ? s : NULL;
}

void symbols_free(symbol_table *t) {
  for (uint32_t i = 0; i < t->n; i++) free(t->syms[i].name);
  free(t->syms);
  memset(t, 0, sizeof *t);
}
