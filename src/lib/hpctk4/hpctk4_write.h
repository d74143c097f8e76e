/* SPDX-License-Identifier: BSD-3-Clause */
/* The v4.0 database writer, internal: one file per output file, sharing an
 * in-memory byte buffer addressed by file offsets and a de-duplicating string
 * table. Every function returns 0 or a negative hpcdb_status. */
#ifndef HPCDB_HPCTK4_WRITE_H
#define HPCDB_HPCTK4_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "common/atomic_dir.h"
#include "common/hashmap.h"
#include "hpcdb/hpctk4_write.h"
#include "hpcdb/model.h"

/* A growable byte buffer whose offsets are file offsets (the buffer starts at
 * file offset 0). Space is handed out zeroed; fields are then filled with
 * the byte writers of common/bytes.h at data + offset (never keep pointers across allocations). */
typedef struct hpctk4_wbuf {
  uint8_t *data;
  uint64_t len, cap;
} hpctk4_wbuf;

/* Zero bytes up to a multiple of align, then n zeroed bytes; *off gets their offset. */
int hpctk4_wbuf_alloc(hpctk4_wbuf *b, uint64_t n, uint64_t align, uint64_t *off);
int hpctk4_wbuf_align(hpctk4_wbuf *b, uint64_t align);
void hpctk4_wbuf_free(hpctk4_wbuf *b);

/* A string table inside one section: equal strings share one copy. */
typedef struct hpctk4_strtab {
  hpctk4_wbuf *buf;
  hpcdb_u64map seen; /* hash of the bytes -> offset of a copy */
} hpctk4_strtab;

/* Appends s (NUL-terminated; NULL is written as "") unless an equal string
 * was already put in this table; *off gets the file offset of its copy. */
int hpctk4_strtab_put(hpctk4_strtab *t, const char *s, uint64_t *off);
void hpctk4_strtab_free(hpctk4_strtab *t);

/* Common file header: magic, format, version 4.0, n_sections zeroed pairs. */
#define HPCTK4_HEADER_SIZE(n_sections) (16u + 16u * (n_sections))
void hpctk4_write_header(uint8_t *p, const char format[4]);
void hpctk4_set_section(uint8_t *header, unsigned index, uint64_t size, uint64_t offset);

/* The four files. Each writes path through atomic_file (nothing at path on failure). */
int hpctk4_write_meta(const hpcdb_experiment *exp, const char *path);
int hpctk4_write_profile(const hpcdb_experiment *exp, const char *path);
/* chunk_values bounds the values held in memory at once (0: the default). */
int hpctk4_write_cct(const hpcdb_experiment *exp, const char *path, uint64_t chunk_values);
/* The same file made by up to threads threads. */
int hpctk4_write_cct_threads(const hpcdb_experiment *exp, const char *path, uint64_t chunk_values, unsigned threads);
int hpctk4_write_trace(const hpcdb_experiment *exp, const char *path);
/* metrics/default.yaml: the metric taxonomy hpcviewer reads. */
int hpctk4_write_metrics_yaml(const hpcdb_experiment *exp, const char *path);

/* What the context tree section points into: the array offsets of modules,
 * files and functions, and the string offsets of the entry points' names (in
 * the order of the global context's children). */
typedef struct hpctk4_meta_refs {
  uint64_t modules, files, functions;
  const uint64_t *entry_names;
} hpctk4_meta_refs;
/* Appends the Context Tree section; *off and *size get its place. */
int hpctk4_meta_context_tree(hpctk4_wbuf *b, const hpcdb_experiment *exp, const hpctk4_meta_refs *refs, uint64_t *off,
                             uint64_t *size);
/* The pretty name written for an entry point: its name, else the canonical one. */
const char *hpctk4_entry_name(const hpcdb_context *c);

/* Checks the model rules the files depend on (summary first, metric ids of the
 * right kind, entry points at the top); fails with a message naming the rule. */
int hpctk4_check_writable(const hpcdb_experiment *exp);

/* values per chunk: 16 MiB of 16-byte entries and about as much encoded */
#define HPCTK4_CCT_DEFAULT_CHUNK ((uint64_t)1 << 20)

/* cct.db from any source of per-profile values: count adds each context's
 * number of (non-summary) values into count[ctx]; gather appends profile i's
 * values of contexts [c0, c1) at chunk[fill[ctx - c0]++], with buf as room
 * of its own to read into. gather is called for each chunk of contexts with
 * the profiles in turn, for different chunks from up to threads threads at
 * once (each with its buf). Summary profiles contribute nothing. */
typedef hpcdb_value_ref hpctk4_cct_entry;

typedef struct hpctk4_read_buf {
  uint8_t *data;
  uint64_t cap;
} hpctk4_read_buf;

typedef struct hpctk4_cct_source {
  uint32_t n_profiles;
  void *ctx;
  int (*count)(void *ctx, uint64_t *count);
  int (*gather)(void *ctx, uint32_t profile, uint32_t c0, uint32_t c1, uint64_t *fill, hpctk4_cct_entry *chunk,
                hpctk4_read_buf *buf);
  /* Optional: each context that has values, with them (in profile order), in
   * context order, one call at a time. */
  int (*visit)(void *ctx, uint32_t c, const hpctk4_cct_entry *e, uint64_t n);
} hpctk4_cct_source;

/* chunk_values bounds the values all threads hold at once (0: the default). */
int hpctk4_write_cct_from(const hpctk4_cct_source *src, uint32_t n_ctxs, const char *path, uint64_t chunk_values,
                          unsigned threads);
/* nCtxs: one past the largest context id of the tree and the values (or the
 * source's recorded count when larger). */
int hpctk4_cct_context_count(const hpcdb_experiment *exp, uint32_t *n_ctxs);

/* How profile.db and cct.db get written: from the experiment's values (the
 * default), or from values streamed earlier (stream.c). With threads > 1,
 * meta.db, trace.db and metrics/ are written on a thread of their own
 * meanwhile. */
typedef struct hpctk4_value_writers {
  int (*profile)(void *ctx, const hpcdb_experiment *exp, const char *path);
  int (*cct)(void *ctx, const hpcdb_experiment *exp, const char *path);
  void *ctx;
  unsigned threads;
} hpctk4_value_writers;

/* Checks that a database may be written to dir (dir's parent is created if
 * needed; an existing database is replaced only with HPCDB_WRITE_FORCE, a
 * directory holding anything else never) and opens the temporary directory
 * beside it that the database is written into (atomic_dir.h). */
int hpctk4_open_dir(hpcdb_atomic_dir *d, const char *dir, unsigned flags);
/* exp's files written into temp, a fresh directory (d->temp), the value
 * files by w (NULL: the default). */
int hpctk4_write_into(const hpcdb_experiment *exp, const char *temp, unsigned flags, const hpctk4_value_writers *w);
/* hpcdb_hpctk4_stream_finish without the rename: the whole database is left
 * in held->temp, for the caller to commit or abort (atomic_dir.h). */
int hpctk4_stream_finish_held(hpcdb_hpctk4_stream *s, const hpcdb_experiment *exp, hpcdb_atomic_dir *held);

/* ---- pieces for writers that place blocks themselves (the distributed analysis) ---- */

/* A profile's value block in profile.db: its size, and its encoding (values,
 * zeros to a 4-byte boundary, context index; the block starts at a 4-byte
 * boundary); encode returns the offset of the index within the block.
 * size is UINT64_MAX when the block would not fit 64 bits. */
uint64_t hpctk4_value_block_size(const hpcdb_profile *p);
uint64_t hpctk4_value_block_encode(const hpcdb_profile *p, uint8_t *out);

/* Where a profile's value block is. */
typedef struct hpctk4_block_place {
  uint64_t n_values, p_values, p_idx;
  uint32_t n_ctxs;
} hpctk4_block_place;
/* profile.db's end from file offset base (8-aligned, after every value block):
 * the Profile Info and Identifier Tuple sections and the footer into *out
 * (offset 0 = base), and the file header (48 bytes) into head. */
int hpctk4_profile_tail(const hpcdb_experiment *exp, const hpctk4_block_place *places, uint64_t base, hpctk4_wbuf *out,
                        uint8_t head[48]);

/* cct.db's header and Context Info section header (48 bytes: {CI} entries
 * start at 48, blocks after them). */
#define HPCTK4_CCT_HEAD 48u
#define HPCTK4_CCT_CI 32u
void hpctk4_cct_header(uint8_t head[HPCTK4_CCT_HEAD], uint32_t n_ctxs);
/* Encodes the blocks of n consecutive contexts, count[k] values each, gathered
 * in e in context order (a context's values in profile order), into out from
 * offset 0 (each block at a 4-byte boundary: place it at one), and their {CI}
 * entries (offsets relative to out) into infos (HPCTK4_CCT_CI × n bytes). */
int hpctk4_cct_encode(const hpctk4_cct_entry *e, const uint64_t *count, uint32_t n, hpctk4_wbuf *out, uint8_t *infos);

/* What trace.db's header needs of one trace line. */
typedef struct hpctk4_trace_desc {
  uint32_t profile;
  uint64_t kept;        /* elements written (runs of "not running" merged) */
  uint64_t first, last; /* the first and last timestamps; ignored when n is 0 */
  uint64_t n;
} hpctk4_trace_desc;
void hpctk4_trace_describe(const hpcdb_trace *t, hpctk4_trace_desc *d);
/* trace.db's header and Context Trace Headers section for traces described by
 * d (lines placed one after another, each at an 8-byte boundary); *lines
 * gets the offset of the first line. */
int hpctk4_trace_head(hpctk4_wbuf *b, const hpctk4_trace_desc *d, uint32_t n, uint64_t trace_min, uint64_t trace_max,
                      uint64_t *lines);
/* A trace line's elements (12 bytes each) into out (room for kept × 12). */
void hpctk4_trace_encode(const hpcdb_trace *t, uint8_t *out);

#endif
