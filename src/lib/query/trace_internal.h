/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace set's insides, shared by the trace_*.c files of the query layer. */
#ifndef HPCDB_QUERY_TRACE_INTERNAL_H
#define HPCDB_QUERY_TRACE_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "common/bytes.h"
#include "common/mapped_file.h"
#include "hpcdb/trace_query.h"

/* The pyramid (trace_pyramid.c): per line, levels of buckets of
 * consecutive elements, bucket j of level L holding elements [j*E_L,
 * (j+1)*E_L) with E_L = 64 * 4^L (the line's last bucket may be shorter;
 * level L exists when L == 0 or the line has more than E_(L-1) elements, so
 * the top level is one bucket). Each bucket's histogram is the time each
 * context (model index, in the order first met) covers through the bucket's elements,
 * each from its timestamp to the next element's (the line's last lasting
 * none). */
#define TRACE_LOG_E0 6
#define TRACE_LOG_FANOUT 2
#define TRACE_MAX_LEVELS 14
static inline uint32_t trace_level_log(uint32_t level) { return TRACE_LOG_E0 + TRACE_LOG_FANOUT * level; }
static inline uint64_t trace_level_buckets(uint64_t n, uint32_t level) {
  return n ? ((n - 1) >> trace_level_log(level)) + 1 : 1;
}

/* One trace line: its elements either in place in trace.db (raw, 12 bytes
 * each, little-endian) or in the model's arrays (ts, ctx). The directory
 * splits [lo, hi] into 2^log_buckets time buckets: dir[b] is the first
 * element whose time bucket is >= b, dir[2^log_buckets] = n. slot[L]: the
 * first of this line's nb_L + 1 slots of level L in the pyramid. */
typedef struct trace_line {
  uint32_t profile;
  uint32_t log_buckets;
  uint32_t n_levels;
  uint64_t n;
  uint64_t raw_off; /* in place: offset of the first element in trace.db */
  const uint8_t *raw;
  const uint64_t *ts;
  const uint32_t *ctx;
  uint64_t lo, hi;  /* first and last timestamp (0, 0 when empty) */
  uint64_t dir_off; /* first entry of this line's directory in the set's dir */
  uint64_t slot[TRACE_MAX_LEVELS];
} trace_line;

/* The pyramid's bytes (little-endian; built in memory or mapped from the
 * cache file, read only through the accessors, which check bounds): per
 * slot, off (u64: the bucket's first entry, TRACE_WALK set when the bucket
 * keeps no histogram and is read through its children or elements; the
 * line's last slot of a level: the end) and ts (u64: the bucket's first
 * element's timestamp; last slot: the line's last timestamp); per entry
 * (8 bytes), ctx (u32) and ns (u32). While the index is built, each line's
 * entries go at its end to the sink: the cache file's temporary, where they
 * stay, or a temporary file read into memory after the pass. */
#define TRACE_WALK (1ull << 63)
enum { TRACE_PYR_OFF, TRACE_PYR_TS, TRACE_PYR_ENT }; /* the pyramid's three arrays */
typedef struct trace_pyramid {
  const uint8_t *off, *ts, *ent; /* in memory (NULL when in_file) */
  int in_file;                   /* read from the cache file with pread, at file_at[array] */
  uint64_t file_at[3];
  uint64_t n_slots, n_entries;
  uint8_t *owned; /* built in memory: one allocation holding off and ts */
  uint8_t *owned_entries;
  /* The sink: a line's entries at the next free place of fd from byte base
   * (reserved atomically: two threads write); tmp: the temporary file (NULL
   * when fd is the cache file's temporary); fd valid while sink_open. */
  int sink_open, sink_fd;
  FILE *sink_tmp;
  uint64_t sink_base;
  _Atomic uint64_t sink_next; /* entries placed */
  int sink_summed;            /* the sink is the cache file: each line's entries and slots written and summed */
  _Atomic uint64_t sink_sum;  /* trace_words_sum of what the lines wrote */
} trace_pyramid;

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
  trace_pyramid pyr;
  hpcdb_mapped_file cache_map; /* the cache file, when the pyramid is read from it */
  uint32_t *idx_of_id;         /* context id -> model index (HPCDB_NONE: unknown) */
  uint32_t n_ids;
  uint32_t *depth;       /* per model context: 0 for entry points (and the global context) */
  uint32_t *frame_of;    /* per model context: its innermost procedure frame (itself when one), HPCDB_NONE */
  uint32_t *frame_depth; /* per procedure frame: its depth in frames (entry points 0) */
  uint64_t n_events, t_min, t_max;
  int from_cache;
  char *cache_path;
  struct trace_cache_writer *writer; /* while the index is built into the cache */
};

static inline uint64_t line_ts(const trace_line *l, uint64_t k) { return l->raw ? rd_le64(l->raw + 12 * k) : l->ts[k]; }
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
 * order, known context) and builds the directory and the pyramid in one
 * pass; to_cache: into the cache file where one can be written (the
 * pyramid then read from it), else in memory. */
int trace_index_build(hpcdb_trace_set *t, const hpcdb_trace_options *o, int to_cache);
void trace_sort_lines(hpcdb_trace_set *t);
/* trace_pyramid.c. An accumulator of time per slot: the query's keys (model
 * context indexes after the depth) numbered in their order from 0, then
 * grey_slot for the filtered-out contexts. ns per slot; the slots with time
 * are in touched (one spare entry: adds are branch-free) or, where there
 * are at most 64 slots (small), those of whole buckets are bits of mask: no
 * store and no test per entry (a slot may be in both). trace_acc_settle
 * moves mask into touched. */
typedef struct trace_acc {
  uint64_t *ns;
  uint32_t *touched;
  uint32_t n_touched;
  uint32_t grey_slot;    /* the last slot */
  uint32_t idle_slot;    /* context 0's (not running; HPCDB_NONE: no key is 0) */
  int small;             /* at most 64 slots */
  uint64_t mask;         /* small: bit s, slot s has time */
  uint32_t *slot_of_id;  /* per context id: its slot for this query (HPCDB_NONE: not in the tree) */
  uint32_t *slot_of_ctx; /* per model context: its slot (its key at the depth after the filter, or grey) */
  uint32_t *key_of_slot; /* per slot: its key (grey_slot: n_contexts) */
  uint32_t *slot_of_key; /* per key 0..n_contexts (the last: grey): its slot (HPCDB_NONE: no context has it) */
} trace_acc;
static inline void trace_acc_add(trace_acc *a, uint32_t slot, uint64_t ns) {
  a->touched[a->n_touched] = slot;
  a->n_touched += a->ns[slot] == 0;
  a->ns[slot] += ns;
}
/* The slots marked in mask appended to touched (each slot once). */
static inline void trace_acc_settle(trace_acc *a) {
  uint64_t m = a->mask;
  if (!m) return;
  for (uint32_t i = 0; i < a->n_touched; i++) m &= ~(1ull << (a->touched[i] & 63)); /* small: slots < 64 */
  for (; m; m &= m - 1) a->touched[a->n_touched++] = (uint32_t)__builtin_ctzll(m);
  a->mask = 0;
}
/* An accumulator for a query (slot_of_id built from keys); free with
 * trace_acc_free. */
int trace_acc_init(const hpcdb_trace_set *t, trace_acc *a, const uint32_t *keys);
void trace_acc_free(trace_acc *a);
/* trace_pyr_read.c: a reader of the pyramid, one per row a query walks at
 * once. Per level and array a window of consecutive 8-byte items: in the
 * cache file's mapping (a thread with few readers; the window let go as the
 * reader moves on), or read with pread from the cache file into a buffer
 * of bounded size (a thread with many: the pyramid's pages never enter the
 * process's resident set, whatever the page cache's folio size), or
 * pointing into the pyramid in memory. */
typedef struct trace_pyr_window {
  const uint8_t *items; /* item `first` at items[0] */
  uint64_t first, n;
  uint8_t *buf;
  uint32_t buf_items; /* what buf holds */
  uint32_t size;      /* items of the last read: doubles while reads go on from the window, up to the cap */
} trace_pyr_window;
typedef struct trace_pyr_reader {
  const hpcdb_trace_set *t;
  uint32_t main_level, cap_main, cap_other; /* items per copied window: main_level's, the others' */
  int mapped;                               /* windows in the cache file's mapping */
  uint64_t mapped_bytes;                    /* what its windows spanned since it last let go */
  int rc;                                   /* the first failed read (0: none) */
  trace_pyr_window w[TRACE_MAX_LEVELS][3];
} trace_pyr_reader;
/* Bytes of copied windows a query may hold per thread, over all its readers. */
#define TRACE_PYR_BUDGET (16u << 20)
/* A reader for a thread holding `readers` readers at once, its windows on
 * main_level (HPCDB_TILE_FINE: 0) the largest. */
void trace_pyr_reader_init(trace_pyr_reader *r, const hpcdb_trace_set *t, uint32_t main_level, uint32_t readers);
/* The same for a reader already used (or zeroed), its buffers kept and
 * its mapped windows let go: a query walking row after row allocates once. */
void trace_pyr_reader_restart(trace_pyr_reader *r, const hpcdb_trace_set *t, uint32_t main_level, uint32_t readers);
void trace_pyr_reader_free(trace_pyr_reader *r);
/* Item i of the level's array refilled into its window; NULL when it
 * cannot be read (r->rc says why). */
const uint8_t *trace_pyr_fill(trace_pyr_reader *r, uint32_t level, int array, uint64_t i);
/* Item i (its 8 bytes) of the level's array, or NULL (r->rc). Callers keep
 * i inside the array. */
static inline const uint8_t *trace_pyr_item(trace_pyr_reader *r, uint32_t level, int array, uint64_t i) {
  const trace_pyr_window *w = &r->w[level][array];
  return i - w->first < w->n ? w->items + 8 * (i - w->first) : trace_pyr_fill(r, level, array, i);
}
/* Items [i, end) as far as one window holds them: the first's bytes and
 * their count in *n (>= 1), or NULL (r->rc). */
static inline const uint8_t *trace_pyr_run(trace_pyr_reader *r, uint32_t level, int array, uint64_t i, uint64_t end,
                                           uint64_t *n) {
  const uint8_t *p = trace_pyr_item(r, level, array, i);
  const trace_pyr_window *w = &r->w[level][array];
  uint64_t left = w->first + w->n - i;
  *n = end - i < left ? end - i : left;
  return p;
}
/* The timestamp of slot j of l's level (UINT64_MAX past the pyramid or
 * when unreadable: r->rc). */
static inline uint64_t trace_slot_ts(trace_pyr_reader *r, const trace_line *l, uint32_t level, uint64_t j) {
  uint64_t s = l->slot[level] + j;
  const uint8_t *p = s < r->t->pyr.n_slots ? trace_pyr_item(r, level, TRACE_PYR_TS, s) : NULL;
  return p ? rd_le64(p) : UINT64_MAX;
}
/* Adds bucket j of level `level` of line l (its histogram, or its
 * children's, or at level 0 its elements); a value out of bounds makes it
 * return HPCDB_ECORRUPT (a damaged cache). */
int trace_add_bucket(trace_pyr_reader *r, const trace_line *l, uint32_t level, uint64_t j, trace_acc *a);
/* Adds the time of l's elements from element k on clipped to [a, b), using
 * whole buckets where they fit, up to the element in effect at b; *done = 1
 * when b or the line's end was reached. Returns the element it stopped at. */
uint64_t trace_sum_span(trace_pyr_reader *r, const trace_line *l, uint64_t k, uint64_t a, uint64_t b, trace_acc *ac,
                        int *done, int *rc);
/* What the index pass keeps per thread to build the pyramid of the lines it
 * reads: level 0 from the elements, the levels above from level 0. The
 * current line's entries are in ent (grown; the line's slots count from its
 * first entry), at its end placed in the sink (the slots moved to where). */
typedef struct trace_pyr_build {
  uint64_t *ns;
  uint32_t *touched;
  uint32_t n_touched;
  uint8_t *ent;
  uint64_t n_out, cap;
} trace_pyr_build;
int trace_pyr_begin(const hpcdb_trace_set *t, trace_pyr_build *a);
void trace_pyr_free(trace_pyr_build *a);
/* Level 0's bucket j of l, whose first element is at first_ts, is complete
 * (its time is in a->ns / touched). */
int trace_pyr_flush(hpcdb_trace_set *t, const trace_line *l, trace_pyr_build *a, uint64_t j, uint64_t first_ts);
/* After the line's last element: level 0's last bucket (its first element
 * at last_ts), then the levels above. */
int trace_pyr_end_line(hpcdb_trace_set *t, const trace_line *l, trace_pyr_build *a, uint64_t last_ts);
/* Sets each line's levels and slots from its n; the number of slots. */
uint64_t trace_pyr_slots(hpcdb_trace_set *t);
/* The same, and allocates off / ts for building. */
int trace_pyr_lay_out(hpcdb_trace_set *t);
/* The sink as a temporary file (the index without a cache file). */
int trace_pyr_sink_temp(hpcdb_trace_set *t);
/* The sink's entries into memory; the sink is closed (the cache file's
 * temporary is the cache's to remove). */
int trace_pyr_load_sink(hpcdb_trace_set *t);
void trace_pyr_release(hpcdb_trace_set *t);
/* The time each context covers in [t0, t1) on line l, added to ac. */
int trace_window_sum(trace_pyr_reader *r, const trace_line *l, uint64_t t0, uint64_t t1, trace_acc *ac);
/* trace_checksum.c: the index cache file's checksum. words_sum: the sum
 * over n_words 8-byte words at p, the first at word first_word of the file;
 * file_checksum: over the first n_words of a mapped file, on two threads. */
uint64_t trace_words_sum(const uint8_t *p, uint64_t n_words, uint64_t first_word);
uint64_t trace_file_checksum(const hpcdb_mapped_file *m, uint64_t n_words);
/* trace_checksum.c: the kept tiles' checksum: four FNV-1a lanes over 8-byte
 * words, word i in lane i % 4, fed in parts of any length (a word cut
 * between parts is completed from the next). */
typedef struct trace_hash {
  uint64_t h[4], words;
  uint8_t part[8];
  uint32_t n_part;
} trace_hash;
void trace_hash_init(trace_hash *x);
void trace_hash_more(trace_hash *x, const uint8_t *p, uint64_t n);
uint64_t trace_hash_end(trace_hash *x);
/* A cache file's first 112 bytes: magic (8), u32 version, u32 count, the
 * identities of trace.db and meta.db (6 x u64 each). */
void trace_put_head(uint8_t *p, const char *magic, uint32_t version, uint32_t count, const hpcdb_trace_set *t);
/* The index from / to the cache. load: 1 when taken from it. begin: after
 * the lay-out, the cache file's temporary becomes the sink (0, or negative:
 * no cache file). finish: after the pass (rc its result), the rest of the
 * file written and renamed into place, the pyramid read from it; where that
 * fails, the index in memory. */
int trace_cache_load(hpcdb_trace_set *t, const hpcdb_trace_options *o);
int trace_cache_begin(hpcdb_trace_set *t, const hpcdb_trace_options *o);
int trace_cache_finish(hpcdb_trace_set *t, int rc);
/* trace_tile_kept.c: whole-run tiles kept in the cache. kept: 1 when the
 * request's tile (h cell rows) was read into cells (and its levels and
 * scale into the request's outs). keep: writes a computed one. */
int trace_tile_kept(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const hpcdb_tile_request *req,
                    uint32_t h, hpcdb_tile_cell *cells);
void trace_tile_keep(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const hpcdb_tile_request *req,
                     uint32_t h, const hpcdb_tile_scale *sc, const uint8_t *levels, const hpcdb_tile_cell *cells);
/* Whether req is of the whole run over every selected row, without a context filter. */
int trace_tile_whole_run(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const hpcdb_tile_request *req);
/* trace_first_tile.c: the width, height (before the rows bound it) and depth
 * of the tile a viewer asks first, as remembered (hpcdb_trace_remember_first_tile). */
void trace_first_tile_size(const hpcdb_trace_set *t, uint32_t *width, uint32_t *height, uint32_t *depth);
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
/* The same for the pages reads of elements [k0, k1] (UINT64_MAX: none) may
 * have mapped: with the whole folio around each end (one madvise: each
 * costs the other thread a TLB flush). */
void trace_release_near(const hpcdb_trace_set *t, const trace_line *l, uint64_t k0, uint64_t k1);
/* The selected rows [first, first+count) of a filter, checked; row i of the
 * selection is rows[first + i] (or first + i without a row list). */
int trace_check_rows(const hpcdb_trace_set *t, const hpcdb_trace_filter *f, uint32_t first, uint32_t count);
/* HPCDB_ECANCELED when the filter's cancel hook says stop, else 0. */
int trace_check_cancel(const hpcdb_trace_filter *f);
static inline uint32_t trace_sel_row(const hpcdb_trace_filter *f, uint32_t i) { return f && f->rows ? f->rows[i] : i; }

#endif
