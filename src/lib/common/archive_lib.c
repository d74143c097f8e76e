/* SPDX-License-Identifier: BSD-3-Clause */
/* libarchive, opened on first use. Linking it would make every process that
 * loads hpcdb pay for it and for what it links (libxml2, ICU, nettle, acl,
 * lz4): about 7 ms of dynamic loading at every start on the PVM machine of
 * BENCHMARKS.md (an empty program: 15.0 ms with hpcdb's libraries, 8.3 ms
 * without libarchive), while a plain .cubex is read through its member
 * index and most commands never call it: only compressed or damaged Cube
 * archives, Cube writes, validate's fallback and compressed kernel symbol
 * files do. */
#include "common/archive_lib.h"

#include <stdio.h>
#include <pthread.h>
#include <stddef.h>

#include "common/error.h"
#include "common/lazy_lib.h"

static archive_lib lib;
static const archive_lib *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* libarchive's archive_NAME into lib.NAME */
#define SYM(name) \
  { "archive_" #name, offsetof(archive_lib, name) }
static const lazy_sym syms[] = {
    SYM(read_new),
    SYM(read_support_filter_all),
    SYM(read_support_format_raw),
    SYM(read_support_format_tar),
    SYM(read_open_filename),
    SYM(read_open),
    SYM(read_next_header),
    SYM(read_data),
    SYM(read_free),
    SYM(error_string),
    SYM(set_error),
    SYM(write_new),
    SYM(write_set_format_pax_restricted),
    SYM(write_set_bytes_per_block),
    SYM(write_set_bytes_in_last_block),
    SYM(write_open2),
    SYM(write_header),
    SYM(write_data),
    SYM(write_close),
    SYM(write_free),
    SYM(entry_new),
    SYM(entry_free),
    SYM(entry_pathname),
    SYM(entry_size),
    SYM(entry_filetype),
    SYM(entry_set_pathname),
    SYM(entry_set_size),
    SYM(entry_set_filetype),
    SYM(entry_set_perm),
    SYM(entry_set_mtime),
};

static char why[512];

static void load(void) {
  if (lazy_lib_open(HPCDB_ARCHIVE_SONAME, syms, sizeof syms / sizeof *syms, &lib)) loaded = &lib;
  else snprintf(why, sizeof why, "%s", lazy_lib_error());
}

const archive_lib *archive_lib_open(const char *path) {
  pthread_once(&once, load);
  if (!loaded) hpcdb_fail(HPCDB_EIO, "%s: libarchive (%s) cannot be opened: %s", path, HPCDB_ARCHIVE_SONAME, why);
  return loaded;
}

const archive_lib *archive_lib_loaded(void) { return loaded; }
