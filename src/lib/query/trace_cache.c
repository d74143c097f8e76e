/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace index in the user's cache directory ($XDG_CACHE_HOME/hpcdb, else
 * ~/.cache/hpcdb), never in the database. One file per trace.db, named by a
 * hash of its real path, holding the identities (size, mtime, ctime, inode)
 * of trace.db and meta.db it was built from: any difference, a damaged or
 * foreign file, or a line that does not match trace.db's own headers, and
 * the index is built again. Written through a temporary renamed into place.
 * The directory is read into memory; the pyramid stays in the file and is
 * read through bounded windows (trace_pyr_read.c), its values checked
 * where they are used (trace_pyramid.c).
 *
 * Layout (little-endian): "HPCDBTIX", u32 version, u32 nLines, the two keys
 * (6 x u64 each), u64 nDir, u32 pathLen, u32 0, u64 nSlots, u64 nEntries,
 * the path padded to 8, nLines x {u32 profile, u32 logBuckets, u64 n,
 * rawOff, lo, hi, dirOff}, nDir x u32 padded to 8, the pyramid (nSlots x
 * u64 offsets, nSlots x u64 timestamps, nEntries x {u32 context, u32
 * time}), u64 checksum of everything before it (trace_checksum.c: a sum
 * over the 8-byte words, each mixed with its place, built while the file is
 * written and checked on two threads at every open). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "query/trace_internal.h"

#define VERSION 6
#define HEAD 144
#define LINE 48

static uint64_t fnv1a(const uint8_t *p, uint64_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint64_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

/* The cache file's path for trace.db (NULL when there is no cache directory). */
static char *cache_file(const hpcdb_trace_set *t, const hpcdb_trace_options *o, char **real) {
  char dir[PATH_MAX], rp[PATH_MAX];
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (!realpath(t->trace_path, rp)) return NULL;
  if (o && o->cache_dir) snprintf(dir, sizeof dir, "%s", o->cache_dir);
  else if (xdg && *xdg) {
    mkdir(xdg, 0700);
    snprintf(dir, sizeof dir, "%s/hpcdb", xdg);
  } else if (home && *home) {
    snprintf(dir, sizeof dir, "%s/.cache", home);
    mkdir(dir, 0700);
    snprintf(dir, sizeof dir, "%s/.cache/hpcdb", home);
  } else return NULL;
  if (mkdir(dir, 0700) != 0 && errno != EEXIST) return NULL;
  size_t n = strlen(dir) + 40;
  char *p = malloc(n);
  *real = strdup(rp);
  if (!p || !*real) {
    free(p);
    free(*real);
    return NULL;
  }
  snprintf(p, n, "%s/trace-%016llx.idx", dir, (unsigned long long)fnv1a((const uint8_t *)rp, strlen(rp)));
  return p;
}

static void put_key(uint8_t *p, const trace_file_key *k) {
  const uint64_t v[6] = {k->size, k->mtime_s, k->mtime_ns, k->ino, k->ctime_s, k->ctime_ns};
  for (int i = 0; i < 6; i++) wr_le64(p + 8 * i, v[i]);
}

void trace_put_head(uint8_t *p, const char *magic, uint32_t version, uint32_t count, const hpcdb_trace_set *t) {
  memcpy(p, magic, 8);
  wr_le32(p + 8, version);
  wr_le32(p + 12, count);
  put_key(p + 16, &t->trace_key);
  put_key(p + 64, &t->meta_key);
}

static uint64_t head_len(const hpcdb_trace_set *t, uint64_t plen) {
  return HEAD + (plen + 7) / 8 * 8 + (uint64_t)t->n_lines * LINE + (t->n_dir * 4 + 7) / 8 * 8;
}

/* The header, path, lines and directory (everything before the pyramid). */
static uint8_t *serialise_head(const hpcdb_trace_set *t, const char *real, uint64_t *len) {
  uint64_t plen = strlen(real), ppad = (plen + 7) / 8 * 8, n = head_len(t, plen);
  uint8_t *b = calloc(1, n);
  if (!b) return NULL;
  trace_put_head(b, "HPCDBTIX", VERSION, t->n_lines, t);
  wr_le64(b + 112, t->n_dir);
  wr_le32(b + 120, (uint32_t)plen);
  wr_le64(b + 128, t->pyr.n_slots);
  wr_le64(b + 136, t->pyr.n_entries);
  memcpy(b + HEAD, real, plen);
  uint8_t *p = b + HEAD + ppad;
  for (uint32_t i = 0; i < t->n_lines; i++, p += LINE) {
    const trace_line *l = &t->lines[i];
    wr_le32(p, l->profile);
    wr_le32(p + 4, l->log_buckets);
    wr_le64(p + 8, l->n);
    wr_le64(p + 16, l->raw_off);
    wr_le64(p + 24, l->lo);
    wr_le64(p + 32, l->hi);
    wr_le64(p + 40, l->dir_off);
  }
  for (uint64_t i = 0; i < t->n_dir; i++, p += 4) wr_le32(p, t->dir[i]);
  *len = n;
  return b;
}

/* The pyramid from the cache file at its offset `at`: read with pread when
 * the file is mapped (its fd kept open), else in the copy in memory. The
 * pages the open read leave this process. */
static void map_pyramid(hpcdb_trace_set *t, hpcdb_mapped_file *m, uint64_t at, uint64_t n_slots, uint64_t n_entries) {
  trace_pyr_release(t);
  t->cache_map = *m;
  const uint64_t file_at[3] = {at, at + 8 * n_slots, at + 16 * n_slots};
  t->pyr.in_file = m->is_mapped && m->fd >= 0;
  for (int a = 0; a < 3; a++) t->pyr.file_at[a] = file_at[a];
  if (!t->pyr.in_file) {
    t->pyr.off = m->data + file_at[TRACE_PYR_OFF];
    t->pyr.ts = m->data + file_at[TRACE_PYR_TS];
    t->pyr.ent = m->data + file_at[TRACE_PYR_ENT];
  }
  t->pyr.n_slots = n_slots;
  t->pyr.n_entries = n_entries;
  mapped_file_release(m, 0, m->len);
}

/* The cache file being written by the index pass: its temporary holds the
 * offsets and timestamps from byte len on, the histograms from byte len +
 * 16 * nSlots on, each line's written by the thread that built it. */
struct trace_cache_writer {
  hpcdb_atomic_file f;
  char *path, *real;
  uint64_t len; /* the header, path, lines and directory */
};

static void writer_free(struct trace_cache_writer *w) {
  free(w->path);
  free(w->real);
  free(w);
}

int trace_cache_begin(hpcdb_trace_set *t, const hpcdb_trace_options *o) {
  struct trace_cache_writer *w = calloc(1, sizeof *w);
  if (!w || !(w->path = cache_file(t, o, &w->real)) || atomic_file_open(&w->f, w->path) < 0) {
    if (w) writer_free(w);
    hpcdb_clear_error(); /* no cache file: the index in memory */
    return -1;
  }
  w->f.no_sync = 1; /* checked on every open: a file a crash cut short is built again */
  w->len = head_len(t, strlen(w->real));
  t->writer = w;
  t->pyr.sink_fd = fileno(w->f.fp);
  t->pyr.sink_base = w->len + 16 * t->pyr.n_slots;
  t->pyr.sink_open = 1;
  t->pyr.sink_summed = 1;
  return 0;
}

/* The temporary made whole: header and directory, then the checksum of
 * everything (the pyramid's share added by the pass as it wrote it). */
static int complete(hpcdb_trace_set *t, struct trace_cache_writer *w, uint64_t total) {
  const trace_pyramid *y = &t->pyr;
  uint64_t n = 0;
  uint8_t *head = serialise_head(t, w->real, &n), sum[8];
  int rc =
      head && n == w->len ? write_at(y->sink_fd, head, n, 0, w->f.temp) : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0) {
    wr_le64(sum, atomic_load(&y->sink_sum) + trace_words_sum(head, n / 8, 0));
    rc = write_at(y->sink_fd, sum, 8, total, w->f.temp);
  }
  free(head);
  return rc;
}

int trace_cache_finish(hpcdb_trace_set *t, int rc) {
  struct trace_cache_writer *w = t->writer;
  trace_pyramid *y = &t->pyr;
  uint64_t total = w->len + 16 * y->n_slots + 8 * y->n_entries;
  t->writer = NULL;
  int made = rc == 0 && complete(t, w, total) == 0;
  if (rc == 0 && !made) rc = trace_pyr_load_sink(t); /* a cache that cannot be written: the index in memory */
  y->sink_open = 0;                                  /* the commit or the abort closes it */
  hpcdb_mapped_file m;
  if (made && atomic_file_commit(&w->f) == 0 && mapped_file_open(&m, w->path) == 0) {
    if (m.len == total + 8) { /* and the checksum */
      map_pyramid(t, &m, w->len, y->n_slots, y->n_entries);
      t->cache_path = w->path;
      w->path = NULL;
    } else {
      mapped_file_close(&m);
    }
  } else if (!made) {
    atomic_file_abort(&w->f);
  }
  if (made && !t->cache_path && rc == 0) /* renamed but unreadable: its histograms are lost */
    rc = hpcdb_fail(HPCDB_EIO, "the trace index's cache file %s could not be read back", w->path);
  if (rc == 0) hpcdb_clear_error();
  writer_free(w);
  return rc;
}

/* Takes the index from the mapped file when it is this set's, line by line
 * checked against trace.db; 1 when taken (the set keeps the mapping), 0
 * when not. */
static int adopt(hpcdb_trace_set *t, hpcdb_mapped_file *m, const char *real) {
  const uint8_t *b = m->data;
  uint64_t n = m->len;
  uint8_t want[96];
  put_key(want, &t->trace_key);
  put_key(want + 48, &t->meta_key);
  if (n < HEAD + 8 || memcmp(b, "HPCDBTIX", 8) || rd_le32(b + 8) != VERSION || rd_le32(b + 12) != t->n_lines ||
      memcmp(b + 16, want, 96))
    return 0;
  uint64_t n_dir = rd_le64(b + 112), plen = rd_le32(b + 120), ppad = (plen + 7) / 8 * 8, need;
  uint64_t n_slots = rd_le64(b + 128), n_entries = rd_le64(b + 136);
  if (plen != strlen(real) || n_dir > n / 4 || n_slots > n / 16 || n_entries > n / 8 ||
      !mul_ok(t->n_lines, LINE, &need))
    return 0;
  uint64_t dpad = (n_dir * 4 + 7) / 8 * 8, at = HEAD + ppad + need + dpad;
  if (at > n || 16 * n_slots + 8 * n_entries + 8 != n - at || memcmp(b + HEAD, real, plen) ||
      rd_le64(b + n - 8) != trace_file_checksum(m, (n - 8) / 8))
    return 0;
  trace_sort_lines(t);
  const uint8_t *p = b + HEAD + ppad, *d = p + need;
  for (uint32_t i = 0; i < t->n_lines; i++, p += LINE) {
    trace_line *l = &t->lines[i];
    uint32_t lg = rd_le32(p + 4);
    uint64_t off = rd_le64(p + 40), nb = (uint64_t)1 << (lg & 31);
    if (rd_le32(p) != l->profile || rd_le64(p + 8) != l->n || rd_le64(p + 16) != l->raw_off || lg > 24 || off > n_dir ||
        nb + 1 > n_dir - off)
      return 0;
    l->log_buckets = lg;
    l->lo = rd_le64(p + 24);
    l->hi = rd_le64(p + 32);
    l->dir_off = off;
    int ends_match = !l->n || (line_ts(l, 0) == l->lo && line_ts(l, l->n - 1) == l->hi);
    if (l->n) trace_release_near(t, l, 0, l->n - 1); /* the folios those reads mapped */
    if (!ends_match) return 0;
    for (uint64_t k = 0; k <= nb; k++) {
      uint32_t v = rd_le32(d + 4 * (off + k));
      if (v > l->n || (k && v < rd_le32(d + 4 * (off + k - 1))) || (k == nb && v != l->n)) return 0;
    }
  }
  if (trace_pyr_slots(t) != n_slots) return 0;
  t->dir = malloc((n_dir ? n_dir : 1) * sizeof *t->dir);
  if (!t->dir) return 0; /* freed by close or the rebuild */
  for (uint64_t k = 0; k < n_dir; k++) t->dir[k] = rd_le32(d + 4 * k);
  t->n_dir = n_dir;
  map_pyramid(t, m, at, n_slots, n_entries);
  return 1;
}

int trace_cache_load(hpcdb_trace_set *t, const hpcdb_trace_options *o) {
  char *real = NULL, *path = cache_file(t, o, &real);
  hpcdb_mapped_file m;
  int taken = path && mapped_file_open(&m, path) == 0;
  hpcdb_clear_error();
  if (taken && !(taken = m.data && adopt(t, &m, real))) mapped_file_close(&m);
  if (taken) t->cache_path = path;
  else free(path);
  free(real);
  return taken;
}
