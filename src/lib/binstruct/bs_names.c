/* SPDX-License-Identifier: BSD-3-Clause */
/* DWARF names a GCC clone by its origin (foo for foo.constprop.0: the
 * clone's DIE points to foo's) and gives static C++ functions no linkage
 * name (spin for _ZL4spinl); the symbol at the entry says which clone it is
 * and the full signature, as `hpcdb struct` names the same code without
 * DWARF. */
#include <string.h>

#include "binstruct/bs_names.h"
#include "common/error.h"

/* Whether sym is base followed by clone suffixes (".constprop.0", ".cold", "._omp_fn.1"). */
static int is_clone_of(const char *sym, const char *base) {
  size_t n = strlen(base);
  return !strncmp(sym, base, n) && sym[n] == '.' && sym[n + 1];
}

/* The first symbol at addr (t sorted by address), or t->n. */
static size_t first_at(const bs_symtab *t, uint64_t addr) {
  size_t lo = 0, hi = t->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->syms[mid].addr < addr) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static int rename_from_symbol(bs_unit *u, bs_func *f, const char *sym) {
  const char *link = bs_intern(u, sym), *pretty = bs_demangled(u, sym);
  if (!link) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  f->name = pretty ? pretty : link;
  f->link_name = pretty ? link : NULL;
  return 0;
}

int bs_names_from_symbols(bs_unit *u, const bs_symtab *t) {
  for (uint64_t i = 0; i < u->n_funcs; i++) {
    bs_func *f = &u->funcs[i];
    const char *better = NULL;
    for (size_t k = first_at(t, f->entry); k < t->n && t->syms[k].addr == f->entry; k++) {
      const char *sym = t->syms[k].name;
      if (!strcmp(sym, f->link_name ? f->link_name : f->name)) { /* DWARF and the symbol agree */
        better = NULL;
        break;
      }
      if (better) continue;
      if (f->link_name ? is_clone_of(sym, f->link_name) : is_clone_of(sym, f->name)) better = sym;
      else if (!f->link_name && !strncmp(sym, "_Z", 2)) { /* a C++ function DWARF gives no linkage name */
        const char *pretty = bs_demangled(u, sym);
        if (pretty && strstr(pretty, f->name)) better = sym;
      }
    }
    if (better) HPCDB_TRY(rename_from_symbol(u, f, better));
  }
  return 0;
}
