/* SPDX-License-Identifier: BSD-3-Clause */
/* libarchive, opened on first use (archive_lib.c says why it is not
 * linked): the functions hpcdb calls, under libarchive's names with an
 * archive_lib_ prefix, each typed as libarchive's own declaration. */
#ifndef HPCDB_COMMON_ARCHIVE_LIB_H
#define HPCDB_COMMON_ARCHIVE_LIB_H

#include <archive.h>
#include <archive_entry.h>

typedef struct archive_lib {
  __typeof__(archive_read_new) *read_new;
  __typeof__(archive_read_support_filter_all) *read_support_filter_all;
  __typeof__(archive_read_support_format_raw) *read_support_format_raw;
  __typeof__(archive_read_support_format_tar) *read_support_format_tar;
  __typeof__(archive_read_open_filename) *read_open_filename;
  __typeof__(archive_read_open) *read_open;
  __typeof__(archive_read_next_header) *read_next_header;
  __typeof__(archive_read_data) *read_data;
  __typeof__(archive_read_free) *read_free;
  __typeof__(archive_error_string) *error_string;
  __typeof__(archive_set_error) *set_error;
  __typeof__(archive_write_new) *write_new;
  __typeof__(archive_write_set_format_pax_restricted) *write_set_format_pax_restricted;
  __typeof__(archive_write_set_bytes_per_block) *write_set_bytes_per_block;
  __typeof__(archive_write_set_bytes_in_last_block) *write_set_bytes_in_last_block;
  __typeof__(archive_write_open2) *write_open2;
  __typeof__(archive_write_header) *write_header;
  __typeof__(archive_write_data) *write_data;
  __typeof__(archive_write_close) *write_close;
  __typeof__(archive_write_free) *write_free;
  __typeof__(archive_entry_new) *entry_new;
  __typeof__(archive_entry_free) *entry_free;
  __typeof__(archive_entry_pathname) *entry_pathname;
  __typeof__(archive_entry_size) *entry_size;
  __typeof__(archive_entry_filetype) *entry_filetype;
  __typeof__(archive_entry_set_pathname) *entry_set_pathname;
  __typeof__(archive_entry_set_size) *entry_set_size;
  __typeof__(archive_entry_set_filetype) *entry_set_filetype;
  __typeof__(archive_entry_set_perm) *entry_set_perm;
  __typeof__(archive_entry_set_mtime) *entry_set_mtime;
} archive_lib;

/* The library's functions; NULL when it cannot be opened or lacks one
 * (the message set, as hpcdb_fail sets it, naming path). */
const archive_lib *archive_lib_open(const char *path);
/* The same once archive_lib_open has given them (NULL before): for code
 * that holds a struct archive, which only they make. */
const archive_lib *archive_lib_loaded(void);

#endif
