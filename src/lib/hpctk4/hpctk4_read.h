/* SPDX-License-Identifier: BSD-3-Clause */
/* The v4.0 readers, internal: a mapped file with its checked common header,
 * and one parser per file kind that fills the model. Every function returns
 * 0 or a negative hpcdb_status with a message naming path, section, offset
 * and rule. */
#ifndef HPCDB_HPCTK4_READ_H
#define HPCDB_HPCTK4_READ_H

#include <stdint.h>

#include "common/cursor.h"
#include "common/mapped_file.h"
#include "hpcdb/model.h"
#include "model/format.h"

/* The module's face to the library (format.c), and its reader with options:
 * only the summary-only flag is honoured (the thread profiles stay unread). */
extern const format_desc hpctk4_format;
int hpctk4_read_opts(hpcdb_experiment **out, const char *path, const hpcdb_read_options *options);

#define HPCTK4_MAX_SECTIONS 8

/* One *.db file: bytes and the header's sections (size, offset). */
typedef struct hpctk4_file {
  const char *path;
  const uint8_t *data;
  uint64_t len;
  uint8_t major, minor;
  unsigned n_sections;
  uint64_t sec_size[HPCTK4_MAX_SECTIONS];
  uint64_t sec_off[HPCTK4_MAX_SECTIONS];
} hpctk4_file;

/* Checks magic "HPCTOOLKIT", the 4-byte format id, major version 4, the
 * 8-byte footer, and that each of the n_sections sections lies in the file. */
int hpctk4_open_bytes(hpctk4_file *f, const uint8_t *data, uint64_t len, const char *path, const char format[4],
                      const char footer[8], unsigned n_sections);

/* Sequential reads of a file's large arrays (values, indices) through a
 * small reused buffer filled by pread: on a large file this costs less than
 * faulting in the mapped pages, and keeps them out of the resident set.
 * Without a buffer or an fd, or when pread fails, it hands out the mapped
 * bytes instead. */
enum { HPCTK4_CHUNK_BYTES = 128 * 1024 };
typedef struct hpctk4_chunks {
  int fd;
  const uint8_t *data; /* the same file, mapped */
  uint64_t len;
  uint8_t *buf;   /* HPCTK4_CHUNK_BYTES, or NULL */
  uint64_t at, n; /* the buffer holds the file's bytes [at, at + n) */
} hpctk4_chunks;
void hpctk4_chunks_init(hpctk4_chunks *r, int fd, const uint8_t *data, uint64_t len, uint8_t *buf);
const uint8_t *hpctk4_chunks_fill(hpctk4_chunks *r, uint64_t off, uint64_t n);
/* The n <= HPCTK4_CHUNK_BYTES bytes at off, which the caller checked are
 * inside the file; valid until the next call. */
static inline const uint8_t *hpctk4_chunk(hpctk4_chunks *r, uint64_t off, uint64_t n) {
  if (off >= r->at && off - r->at <= r->n && n <= r->n - (off - r->at)) return r->buf + (off - r->at);
  return hpctk4_chunks_fill(r, off, n);
}

/* A cursor over the whole file, its section name set for messages. */
void hpctk4_cursor(const hpctk4_file *f, hpcdb_cursor *c, const char *section);

/* Parsers of one file each, from bytes (the fuzz targets call these). The
 * profile and trace parsers need the meta.db already read into exp. */
int hpctk4_parse_meta(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path);
int hpctk4_parse_profile(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path);
/* The same with the file also open as fd, for pread of the value arrays. */
int hpctk4_parse_profile_fd(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, int fd, const char *path);
/* The same, with HPCDB_READ_SUMMARY_ONLY in flags: when the file has a
 * summary profile, the other profiles are added without their values. */
int hpctk4_parse_profile_opts(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, int fd, const char *path,
                              unsigned flags);
/* The value block of the Profile Info entry at info, decoded and checked as
 * the parsers decode it, into out's CSR arrays (new allocations; its other
 * fields are not touched). fd: the file open for pread, or -1. */
int hpctk4_decode_profile(const hpctk4_file *f, int fd, uint64_t info, hpcdb_profile *out);
int hpctk4_parse_cct_header(const uint8_t *data, uint64_t len, const char *path, uint32_t *n_ctxs);
int hpctk4_parse_trace(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path);
/* trace.db's lines, checked, for a reader that keeps them where they are: its
 * Context Trace Headers an aligned array inside their section, each line's
 * profile index below n_profiles and its elements [start, end) a whole number
 * of 12-byte elements inside the file. fn gets every line in order (n_lines
 * first, with index 0); a negative return stops the walk with it. The run's
 * recorded time range goes to *min and *max (each may be NULL). */
typedef int (*hpctk4_trace_line_fn)(void *user, uint32_t index, uint32_t n_lines, uint32_t profile, uint64_t start,
                                    uint64_t end);
int hpctk4_trace_lines(const uint8_t *data, uint64_t len, const char *path, uint32_t n_profiles, uint64_t *min,
                       uint64_t *max, hpctk4_trace_line_fn fn, void *user);

#endif
