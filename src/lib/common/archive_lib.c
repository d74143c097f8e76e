/* libarchive, opened on first use. Linking it would make every process that
 * loads hpcdb pay for it and for what it links (libxml2, ICU, nettle, acl,
 * lz4): about 7 ms of dynamic loading at every start on the PVM machine of
 * BENCHMARKS.md (an empty program: 15.0 ms with hpcdb's libraries, 8.3 ms
 * without libarchive), while a plain .cubex is read through its member
 * index and most commands never call it: only compressed or damaged Cube
 * archives, Cube writes, validate's fallback and compressed kernel symbol
 * files do. */
#include "common/archive_lib.h"

#include <dlfcn.h>
#include <pthread.h>

#include "common/error.h"

static archive_lib lib;
static const archive_lib *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Resolves one symbol into *slot (a function pointer's storage: dlsym
 * returns an object pointer, which POSIX lets us store this way). */
static int resolve(void *handle, const char *name, void *slot) {
  void *f = dlsym(handle, name);
  if (!f) return 0;
  *(void **)slot = f;
  return 1;
}

static void load(void) {
  void *handle = dlopen(HPCDB_ARCHIVE_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!handle) return;
  int ok = resolve(handle, "archive_read_new", &lib.read_new) &&
           resolve(handle, "archive_read_support_filter_all", &lib.read_support_filter_all) &&
           resolve(handle, "archive_read_support_format_raw", &lib.read_support_format_raw) &&
           resolve(handle, "archive_read_support_format_tar", &lib.read_support_format_tar) &&
           resolve(handle, "archive_read_open_filename", &lib.read_open_filename) &&
           resolve(handle, "archive_read_open", &lib.read_open) &&
           resolve(handle, "archive_read_next_header", &lib.read_next_header) &&
           resolve(handle, "archive_read_data", &lib.read_data) &&
           resolve(handle, "archive_read_free", &lib.read_free) &&
           resolve(handle, "archive_error_string", &lib.error_string) &&
           resolve(handle, "archive_set_error", &lib.set_error) &&
           resolve(handle, "archive_write_new", &lib.write_new) &&
           resolve(handle, "archive_write_set_format_pax_restricted", &lib.write_set_format_pax_restricted) &&
           resolve(handle, "archive_write_set_bytes_per_block", &lib.write_set_bytes_per_block) &&
           resolve(handle, "archive_write_set_bytes_in_last_block", &lib.write_set_bytes_in_last_block) &&
           resolve(handle, "archive_write_open2", &lib.write_open2) &&
           resolve(handle, "archive_write_header", &lib.write_header) &&
           resolve(handle, "archive_write_data", &lib.write_data) &&
           resolve(handle, "archive_write_close", &lib.write_close) &&
           resolve(handle, "archive_write_free", &lib.write_free) &&
           resolve(handle, "archive_entry_new", &lib.entry_new) &&
           resolve(handle, "archive_entry_free", &lib.entry_free) &&
           resolve(handle, "archive_entry_pathname", &lib.entry_pathname) &&
           resolve(handle, "archive_entry_size", &lib.entry_size) &&
           resolve(handle, "archive_entry_filetype", &lib.entry_filetype) &&
           resolve(handle, "archive_entry_set_pathname", &lib.entry_set_pathname) &&
           resolve(handle, "archive_entry_set_size", &lib.entry_set_size) &&
           resolve(handle, "archive_entry_set_filetype", &lib.entry_set_filetype) &&
           resolve(handle, "archive_entry_set_perm", &lib.entry_set_perm) &&
           resolve(handle, "archive_entry_set_mtime", &lib.entry_set_mtime);
  if (!ok) {
    dlclose(handle);
    return;
  }
  loaded = &lib; /* stays open for the process's life, like a linked library */
}

const archive_lib *archive_lib_open(const char *path) {
  pthread_once(&once, load);
  if (!loaded) hpcdb_fail(HPCDB_EIO, "%s: libarchive (%s) cannot be opened", path, HPCDB_ARCHIVE_SONAME);
  return loaded;
}

const archive_lib *archive_lib_loaded(void) { return loaded; }
