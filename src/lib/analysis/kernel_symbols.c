/* SPDX-License-Identifier: BSD-3-Clause */
/* Kernel frames: hpcrun copies /proc/kallsyms (plain or compressed) to
 * MEASUREMENTS/kernel_symbols/vmlinux.HASH and names the kernel's load module
 * "<vmlinux.HASH>" (newer ones: "kernel_symbols/vmlinux.HASH"); hpcprof (its
 * kernel-symbols finalizer) takes the text symbols (type t or T) of that file
 * as functions named "NAME [MODULE] <vmlinux>" ("... [vmlinux]" with the
 * newer name), each reaching up to the next text symbol (the first of several
 * at one address keeps it). A vmlinux ELF image kept there instead (plain or
 * compressed) gives its function symbols, each of its own size. */
#include "analysis/kernel_symbols.h"

#include <ctype.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/decompress.h"
#include "common/error.h"
#include "common/vec.h"

#define MAX_SYMBOLS_FILE (1ull << 30) /* kallsyms is tens of MB at most */

int kernel_module_name(const char *path, char *name, size_t size) {
  size_t n = strlen(path), dir = sizeof "kernel_symbols/" - 1;
  if (n > dir && !strncmp(path, "kernel_symbols/", dir) && !strchr(path + dir, '/') && n - dir < size) {
    memcpy(name, path + dir, n - dir + 1);
    return KERNEL_NAME_IN_FOLDER;
  }
  if (n < 3 || path[0] != '<' || path[n - 1] != '>' || strchr(path, '/') || n - 2 >= size) return 0;
  memcpy(name, path + 1, n - 2);
  name[n - 2] = '\0';
  return KERNEL_NAME_BRACKETED;
}

static const char *word(const char **p, const char *end, size_t *n) {
  while (*p < end && (**p == ' ' || **p == '\t')) (*p)++;
  const char *w = *p;
  while (*p < end && **p != ' ' && **p != '\t') (*p)++;
  *n = (size_t)(*p - w);
  return w;
}

/* One "ADDRESS TYPE NAME [MODULE]" line; 0 when it is no text symbol. */
static int parse_line(const char *p, const char *end, const char *kernel, symbol *out, uint32_t order) {
  size_t n_addr, n_type, n_name, n_mod;
  const char *addr = word(&p, end, &n_addr), *type = word(&p, end, &n_type);
  const char *name = word(&p, end, &n_name), *mod = word(&p, end, &n_mod);
  if (n_addr == 0 || n_addr > 16 || n_type != 1 || n_name == 0 || (type[0] != 't' && type[0] != 'T')) return 0;
  uint64_t a = 0;
  for (size_t i = 0; i < n_addr; i++) {
    int c = tolower((unsigned char)addr[i]);
    if (!isxdigit(c)) return 0;
    a = a << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
  }
  size_t total = n_name + (n_mod ? n_mod + 1 : 0) + strlen(kernel) + 2;
  char *full = malloc(total);
  if (!full) return -1;
  snprintf(full, total, "%.*s%s%.*s %s", (int)n_name, name, n_mod ? " " : "", (int)n_mod, mod, kernel);
  *out = (symbol){a, 0, full, (int)order};
  return 1;
}

static int by_start_then_order(const void *a, const void *b) {
  const symbol *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return (x->rank > y->rank) - (x->rank < y->rank);
}

/* A vmlinux image's function symbols, each name followed by the kernel's. */
static int image_symbols(symbol_table *out, char *image, size_t len, const char *kernel, const char *path) {
  if (elf_version(EV_CURRENT) == EV_NONE) return hpcdb_fail(HPCDB_EUNSUPPORTED, "%s: libelf is unusable", path);
  Elf *elf = elf_memory(image, len);
  if (!elf || elf_kind(elf) != ELF_K_ELF) {
    if (elf) elf_end(elf);
    return hpcdb_fail(HPCDB_ECORRUPT, "%s: an ELF image libelf cannot read: %s", path, elf_errmsg(-1));
  }
  int rc = symbols_of_elf(out, elf);
  elf_end(elf);
  for (uint32_t i = 0; rc == 0 && i < out->n; i++) {
    size_t total = strlen(out->syms[i].name) + strlen(kernel) + 2;
    char *full = malloc(total);
    if (!full) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory reading %s", path);
    else snprintf(full, total, "%s %s", out->syms[i].name, kernel);
    if (full) free(out->syms[i].name), out->syms[i].name = full;
  }
  if (rc < 0) symbols_free(out);
  return rc;
}

int kernel_symbols_load(symbol_table *out, const char *measurements, const char *name, int style) {
  memset(out, 0, sizeof *out);
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/kernel_symbols/%s", measurements, name) >= sizeof path) return 0;
  FILE *probe = fopen(path, "rb");
  if (!probe) return 0; /* no symbols kept for this kernel: its frames stay offsets */
  fclose(probe);
  const char *kernel = style == KERNEL_NAME_IN_FOLDER ? "[vmlinux]" : "<vmlinux>";
  char *text = NULL;
  size_t len;
  HPCDB_TRY(decompress_file(path, MAX_SYMBOLS_FILE, &text, &len));
  if (len >= 4 && !memcmp(text,
                          "\x7f"
                          "ELF",
                          4)) {
    int rc = image_symbols(out, text, len, kernel, path);
    free(text);
    return rc;
  }
  uint64_t cap = 0;
  int rc = 0;
  for (const char *p = text, *end = text + len; p < end && rc == 0;) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    symbol s;
    int got = out->n < UINT32_MAX - 1 ? parse_line(p, eol, kernel, &s, out->n) : 0;
    if (got < 0 || (got > 0 && VEC_RESERVE(&out->syms, &cap, (uint64_t)out->n + 1) < 0)) {
      if (got > 0) free(s.name);
      rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory reading %s", path);
    } else if (got > 0) {
      out->syms[out->n++] = s;
    }
    p = eol + 1;
  }
  free(text);
  if (rc < 0) {
    symbols_free(out);
    return rc;
  }
  qsort(out->syms, out->n, sizeof *out->syms, by_start_then_order);
  symbols_keep_first_per_start(out);
  uint32_t kept = out->n;
  for (uint32_t i = 0; i < kept; i++) /* up to the next one; the last to the end of the address space */
    out->syms[i].size = (i + 1 < kept ? out->syms[i + 1].start : UINT64_MAX) - out->syms[i].start;
  return 0;
}
