/* SPDX-License-Identifier: BSD-3-Clause */
/* Kernel frames: hpcrun names the kernel's load module "<vmlinux...>" and
 * copies /proc/kallsyms (plain or xz-compressed) to
 * MEASUREMENTS/kernel_symbols/vmlinux...; hpcprof (its kernel-symbols
 * finalizer) takes the text symbols (type t or T) of that file as functions
 * named "NAME [MODULE] <vmlinux>", each reaching up to the next text symbol
 * (the first of several at one address keeps it). */
#include "analysis/kernel_symbols.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/archive_lib.h"
#include "common/error.h"
#include "common/vec.h"

#define MAX_SYMBOLS_FILE (1ull << 30) /* kallsyms is tens of MB at most */

int kernel_module_name(const char *path, char *name, size_t size) {
  size_t n = strlen(path);
  if (n < 3 || path[0] != '<' || path[n - 1] != '>' || strchr(path, '/') || n - 2 >= size) return 0;
  memcpy(name, path + 1, n - 2);
  name[n - 2] = '\0';
  return 1;
}

/* The whole file, decompressed by libarchive (xz, or any filter it knows). */
static int read_compressed(const char *path, char **out, size_t *len) {
  *out = NULL;
  *len = 0;
  const archive_lib *al = archive_lib_open(path);
  if (!al) return HPCDB_EIO;
  struct archive *a = al->read_new();
  if (!a) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  al->read_support_filter_all(a);
  al->read_support_format_raw(a);
  struct archive_entry *e;
  int rc = 0;
  if (al->read_open_filename(a, path, 1 << 16) != ARCHIVE_OK || al->read_next_header(a, &e) != ARCHIVE_OK) {
    rc = hpcdb_fail(HPCDB_EIO, "%s: %s", path, al->error_string(a) ? al->error_string(a) : "unreadable");
    al->read_free(a);
    return rc;
  }
  uint64_t cap = 0;
  char *buf = NULL;
  for (;;) {
    if (VEC_RESERVE(&buf, &cap, *len + (1 << 16) + 1) < 0) {
      rc = HPCDB_ENOMEM;
      break;
    }
    la_ssize_t got = al->read_data(a, buf + *len, 1 << 16);
    if (got < 0) {
      rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: %s", path, al->error_string(a));
      break;
    }
    if (got == 0) break;
    *len += (size_t)got;
    if (*len > MAX_SYMBOLS_FILE) {
      rc = hpcdb_fail(HPCDB_EUNSUPPORTED, "%s: a symbols file above 1 GiB", path);
      break;
    }
  }
  al->read_free(a);
  if (rc < 0) {
    free(buf);
    *len = 0;
    return rc;
  }
  buf[*len] = '\0';
  *out = buf;
  return 0;
}

/* The whole file: as it is, unless it starts with a compressor's magic. */
static int read_all(const char *path, char **out, size_t *len) {
  *out = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return hpcdb_fail(HPCDB_EIO, "%s: cannot open", path);
  uint8_t magic[6] = {0};
  size_t got = fread(magic, 1, sizeof magic, f);
  static const uint8_t xz[6] = {0xfd, '7', 'z', 'X', 'Z', 0}, gz[2] = {0x1f, 0x8b}, bz[3] = {'B', 'Z', 'h'};
  if ((got == 6 && !memcmp(magic, xz, 6)) || (got >= 2 && !memcmp(magic, gz, 2)) || (got >= 3 && !memcmp(magic, bz, 3))) {
    fclose(f);
    return read_compressed(path, out, len);
  }
  uint64_t cap = 0;
  char *buf = NULL;
  rewind(f);
  int rc = 0;
  for (;;) {
    if (VEC_RESERVE(&buf, &cap, *len + (1 << 16) + 1) < 0) {
      rc = HPCDB_ENOMEM;
      break;
    }
    size_t n = fread(buf + *len, 1, 1 << 16, f);
    *len += n;
    if (n == 0) break;
    if (*len > MAX_SYMBOLS_FILE) {
      rc = hpcdb_fail(HPCDB_EUNSUPPORTED, "%s: a symbols file above 1 GiB", path);
      break;
    }
  }
  if (rc == 0 && ferror(f)) rc = hpcdb_fail(HPCDB_EIO, "%s: read error", path);
  fclose(f);
  if (rc < 0) {
    free(buf);
    *len = 0;
    return rc;
  }
  buf[*len] = '\0';
  *out = buf;
  return 0;
}

static const char *word(const char **p, const char *end, size_t *n) {
  while (*p < end && (**p == ' ' || **p == '\t')) (*p)++;
  const char *w = *p;
  while (*p < end && **p != ' ' && **p != '\t') (*p)++;
  *n = (size_t)(*p - w);
  return w;
}

/* One "ADDRESS TYPE NAME [MODULE]" line; 0 when it is no text symbol. */
static int parse_line(const char *p, const char *end, symbol *out, uint32_t order) {
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
  size_t total = n_name + (n_mod ? n_mod + 1 : 0) + sizeof " <vmlinux>";
  char *full = malloc(total);
  if (!full) return -1;
  snprintf(full, total, "%.*s%s%.*s <vmlinux>", (int)n_name, name, n_mod ? " " : "", (int)n_mod, mod);
  *out = (symbol){a, 0, full, (int)order};
  return 1;
}

static int by_start_then_order(const void *a, const void *b) {
  const symbol *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return (x->rank > y->rank) - (x->rank < y->rank);
}

int kernel_symbols_load(symbol_table *out, const char *measurements, const char *name) {
  memset(out, 0, sizeof *out);
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/kernel_symbols/%s", measurements, name) >= sizeof path) return 0;
  FILE *probe = fopen(path, "rb");
  if (!probe) return 0; /* no symbols kept for this kernel: its frames stay offsets */
  fclose(probe);
  char *text = NULL;
  size_t len;
  HPCDB_TRY(read_all(path, &text, &len));
  uint64_t cap = 0;
  int rc = 0;
  for (const char *p = text, *end = text + len; p < end && rc == 0;) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    symbol s;
    int got = out->n < UINT32_MAX - 1 ? parse_line(p, eol, &s, out->n) : 0;
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
