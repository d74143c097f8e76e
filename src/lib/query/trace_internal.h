/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace set's insides, shared by the trace_*.c files of the query layer. */
#ifndef HPCDB_QUERY_TRACE_INTERNAL_H
#define HPCDB_QUERY_TRACE_INTERNAL_H

#include <stdint.h>

#include "common/bytes.h"
#include "common/mapped_file.h"
#include "hpcdb/trace_query.h"

/* One trace line: its elements either in place in trace.db (raw, 12 bytes
 * each, little-endian) or in the model's arrays (ts, ctx). The directory
 * (the index) splits [lo, hi] into 2^log_buckets buckets: dir[b] is the first
 * element whose bucket is >= b, dir[2^log_buckets] = n. */
typedef struct trace_line {
  uint32_t profile;
  uint32_t log_buckets;
  uint64_t n;
  uint64_t raw_off; /* in place: offset of the first element in trace.db */
  const uint8_t *raw;
  const uint64_t *ts;
  const uint32_t *ctx;
  uint64_t lo, hi; /* first and last timestamp (0, 0 when empty) */
  uint64_t dir_off; /* first entry of this line's directory in the set's dir */
  uint64_t blk_off; /* first of this line's n_blocks + 1 entries in the set's blk */
} trace_line;

/* The coarse level: a block is TRACE_BLOCK_BUCKETS buckets; its histogram
 * holds, per context (model index, ascending), the time of the block's
 * elements [dir[j*B], dir[(j+1)*B]) (each from its timestamp to the next
 * element's, the line's last lasting none). blk[j] is the offset of block
 * j's first entry in h_ctx / h_ns (blk[n_blocks] the end); TRACE_BLOCK_WALK
 * set: a block of too many contexts, whose elements are read instead. */
#define TRACE_LOG_BLOCK 6
#define TRACE_BLOCK_BUCKETS (1u << TRACE_LOG_BLOCK)
#define TRACE_BLOCK_MAX_CTX 64
#define TRACE_BLOCK_WALK (1ull << 63)
static inline uint64_t line_blocks(const trace_line *l) {
  return l->log_buckets >= TRACE_LOG_BLOCK ? (uint64_t)1 << (l->log_buckets - TRACE_LOG_BLOCK) : 0;
}

/* What identifies a file's version: a rewrite in place changes one of these. */
typedef struct trace_file_key {
  uint64_t size, mtime_s, mtime_ns, ino, ctime_s, ctime_ns;
} trace_file_key;

struct hpcdb_trace_set {
  const hpcdb_experiment *exp;
  hpcdb_source *owner;   /* opened from a source: the set's reference to it, else NULL */
  hpcdb_mapped_file map; /* trace.db, when read in place */
  int fd;                /* trace.db, to notice a change after opening; -1 */
  char *trace_path, *meta_path;
  trace_file_key trace_key, meta_key;
  trace_line *lines; /* sorted by profile: line i is row i */
  uint32_t n_lines;
  uint32_t *dir;
  uint64_t n_dir;
  uint64_t *blk, n_blk;
  uint32_t *h_ctx;
  uint64_t *h_ns, n_hist;
  uint32_t *idx_of_id; /* context id -> model index (HPCDB_NONE: unknown) */
  uint32_t n_ids;
  uint32_t *depth;     /* per model context: 0 for entry points (and the global context) */
  uint64_t n_events, t_min, t_max;
  int from_cache;
  char *cache_path;
};

static inline uint64_t line_ts(const trace_line *l, uint64_t k) {
  return l->raw ? rd_le64(l->raw + 12 * k) : l->ts[k];
}
static inline uint32_t line_ctx(const trace_line *l, uint64_t k) {
  return l->raw ? rd_le32(l->raw + 12 * k + 8) : l->ctx[k];
}
/* The model index of a context id, or HPCDB_NONE. */
static inline uint32_t trace_ctx_index(const hpcdb_trace_set *t, uint32_t id) {
  return id < t->n_ids ? t->idx_of_id[id] : HPCDB_NONE;
}

/* trace_v4.c: trace.db's lines (in file order), checked against the file. */
int trace_v4_lines(hpcdb_trace_set *t, const char *path);
/* trace_key.c: the identity of the file at path; 0 or HPCDB_EIO. */
int trace_file_key_of(trace_file_key *k, int fd, const char *path);
/* HPCDB_ECORRUPT when trace.db is no longer the file that was opened. */
int trace_check_unchanged(const hpcdb_trace_set *t);
/* trace_index.c: sorts the lines by profile, checks every element (time
 * order, known context) and builds the directory in one pass. */
int trace_index_build(hpcdb_trace_set *t, const hpcdb_trace_options *o);
void trace_sort_lines(hpcdb_trace_set *t);
/* trace_blocks.c: the histograms of the blocks of the lines one index pass
 * reads (a pass runs on each half of the lines at once, each with its own
 * accumulator). ns[slot] is the time of each context (model index; slot
 * n_contexts: an unknown id, until the pass stops) in the current block,
 * touched[] the slots with time (one spare entry: the pass writes it
 * branch-free); finished blocks go to out_ctx / out_ns. */
typedef struct trace_blocks_acc {
  uint64_t *ns;
  uint32_t *touched;
  uint32_t n_touched;
  uint64_t block;
  uint32_t *out_ctx;
  uint64_t *out_ns, n_out, cap;
} trace_blocks_acc;
int trace_blocks_begin(const hpcdb_trace_set *t, trace_blocks_acc *a);
/* Completes the line's blocks before `block` (blk: the line's entries). */
int trace_blocks_flush_to(trace_blocks_acc *a, uint64_t *blk, uint64_t block);
/* After the line's last element: its remaining blocks and the end offset. */
int trace_blocks_end_line(trace_blocks_acc *a, uint64_t *blk, uint64_t n_blocks);
void trace_blocks_free(trace_blocks_acc *a);
/* Adds to ns[] (per key slot) the time line l spends in [t0, t1), through
 * the blocks wholly inside the window and the elements elsewhere. */
int trace_window_sum(const hpcdb_trace_set *t, const trace_line *l, uint64_t t0, uint64_t t1, const uint32_t *keys,
                     uint64_t *ns, uint32_t grey_slot);
/* trace_cache.c: the index from / to the cache. load: 1 when taken from it. */
int trace_cache_load(hpcdb_trace_set *t, const hpcdb_trace_options *o);
void trace_cache_store(hpcdb_trace_set *t, const hpcdb_trace_options *o);
/* trace_ctxmap.c: context id -> index and depths. */
int trace_ctxmap_build(hpcdb_trace_set *t);
/* A key per model context for one query: the context at depth (or
 * HPCDB_TRACE_LEAF) after the filter; a new array of n_contexts (free() it). */
int trace_keys(const hpcdb_trace_set *t, uint32_t depth, const uint8_t *ctx_keep, uint32_t **keys);
/* trace_locate.c: index of the last element of l at or before ts, or
 * UINT64_MAX when ts is before the first (or l is empty). */
uint64_t trace_locate(const hpcdb_trace_set *t, const trace_line *l, uint64_t ts);
/* Lets the pages of elements [k0, k1) of l go from this process's resident
 * set after a query read them (they stay in the page cache): memory does
 * not grow with the part of trace.db a query reads. */
void trace_release(const hpcdb_trace_set *t, const trace_line *l, uint64_t k0, uint64_t k1);
/* The selected rows [first, first+count) of a filter, checked; row i of the
 * selection is rows[first + i] (or first + i without a row list). */
int trace_check_rows(const hpcdb_trace_set *t, const hpcdb_trace_filter *f, uint32_t first, uint32_t count);
/* HPCDB_ECANCELED when the filter's cancel hook says stop, else 0. */
int trace_check_cancel(const hpcdb_trace_filter *f);
static inline uint32_t trace_sel_row(const hpcdb_trace_filter *f, uint32_t i) {
  return f && f->rows ? f->rows[i] : i;
}

#endif
