/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace index in the user's cache directory ($XDG_CACHE_HOME/hpcdb, else
 * ~/.cache/hpcdb), never in the database. One file per trace.db, named by a
 * hash of its real path, holding the identities (size, mtime, ctime, inode)
 * of trace.db and meta.db it was built from: any difference, a damaged or
 * foreign file, or a line that does not match trace.db's own headers, and
 * the index is built again. Written through a temporary renamed into place.
 *
 * Layout (little-endian): "HPCDBTIX", u32 version, u32 nLines, the two keys
 * (6 x u64 each), u64 nDir, u32 pathLen, u32 0, u64 nBlk, u64 nHist, the
 * path padded to 8, nLines x {u32 profile, u32 logBuckets, u64 n, rawOff,
 * lo, hi, dirOff, blkOff}, nDir x u32, nBlk x u64, nHist x u32 (contexts),
 * nHist x u64 (times), u64 FNV-1a of everything before it. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "query/trace_internal.h"

#define VERSION 2
#define HEAD 144
#define LINE 56

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
  }
  else if (home && *home) {
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

/* The cache file's bytes for this set: header, path, lines, directory. */
static uint8_t *serialise(const hpcdb_trace_set *t, const char *real, uint64_t *len) {
  uint64_t plen = strlen(real), ppad = (plen + 7) / 8 * 8;
  uint64_t n = HEAD + ppad + (uint64_t)t->n_lines * LINE + t->n_dir * 4 + t->n_blk * 8 + t->n_hist * 12 + 8;
  uint8_t *b = calloc(1, n);
  if (!b) return NULL;
  memcpy(b, "HPCDBTIX", 8);
  wr_le32(b + 8, VERSION);
  wr_le32(b + 12, t->n_lines);
  put_key(b + 16, &t->trace_key);
  put_key(b + 64, &t->meta_key);
  wr_le64(b + 112, t->n_dir);
  wr_le32(b + 120, (uint32_t)plen);
  wr_le64(b + 128, t->n_blk);
  wr_le64(b + 136, t->n_hist);
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
    wr_le64(p + 48, l->blk_off);
  }
  for (uint64_t i = 0; i < t->n_dir; i++, p += 4) wr_le32(p, t->dir[i]);
  for (uint64_t i = 0; i < t->n_blk; i++, p += 8) wr_le64(p, t->blk[i]);
  for (uint64_t i = 0; i < t->n_hist; i++, p += 4) wr_le32(p, t->h_ctx[i]);
  for (uint64_t i = 0; i < t->n_hist; i++, p += 8) wr_le64(p, t->h_ns[i]);
  wr_le64(p, fnv1a(b, n - 8));
  *len = n;
  return b;
}

void trace_cache_store(hpcdb_trace_set *t, const hpcdb_trace_options *o) {
  char *real = NULL, *path = cache_file(t, o, &real);
  uint64_t len = 0;
  uint8_t *bytes = path ? serialise(t, real, &len) : NULL;
  if (bytes && atomic_file_write_whole(path, bytes, len, 0) == 0) {
    t->cache_path = path;
    path = NULL;
  }
  hpcdb_clear_error(); /* a cache that cannot be written is no error: the index is in memory */
  free(bytes);
  free(path);
  free(real);
}

/* Takes the index from bytes when they are this set's, line by line checked
 * against trace.db; 1 when taken, 0 when not. */
static int adopt(hpcdb_trace_set *t, const uint8_t *b, uint64_t n, const char *real) {
  uint8_t want[96];
  put_key(want, &t->trace_key);
  put_key(want + 48, &t->meta_key);
  if (n < HEAD + 8 || memcmp(b, "HPCDBTIX", 8) || rd_le32(b + 8) != VERSION || rd_le32(b + 12) != t->n_lines ||
      memcmp(b + 16, want, 96) || rd_le64(b + n - 8) != fnv1a(b, n - 8))
    return 0;
  uint64_t n_dir = rd_le64(b + 112), plen = rd_le32(b + 120), ppad = (plen + 7) / 8 * 8, need;
  uint64_t n_blk = rd_le64(b + 128), n_hist = rd_le64(b + 136);
  if (plen != strlen(real) || n_dir > n / 4 || n_blk > n / 8 || n_hist > n / 12 || !mul_ok(t->n_lines, LINE, &need) ||
      HEAD + ppad + need + n_dir * 4 + n_blk * 8 + n_hist * 12 + 8 != n || memcmp(b + HEAD, real, plen))
    return 0;
  trace_sort_lines(t);
  const uint8_t *p = b + HEAD + ppad, *d = p + (uint64_t)t->n_lines * LINE, *bk = d + 4 * n_dir, *hc = bk + 8 * n_blk,
                *hn = hc + 4 * n_hist;
  for (uint32_t i = 0; i < t->n_lines; i++, p += LINE) {
    trace_line *l = &t->lines[i];
    uint32_t lg = rd_le32(p + 4);
    uint64_t off = rd_le64(p + 40), nb = (uint64_t)1 << (lg & 31);
    if (rd_le32(p) != l->profile || rd_le64(p + 8) != l->n || rd_le64(p + 16) != l->raw_off || lg > 24 ||
        off > n_dir || nb + 1 > n_dir - off)
      return 0;
    l->log_buckets = lg;
    l->lo = rd_le64(p + 24);
    l->hi = rd_le64(p + 32);
    l->dir_off = off;
    l->blk_off = rd_le64(p + 48);
    if (l->n && (line_ts(l, 0) != l->lo || line_ts(l, l->n - 1) != l->hi)) return 0;
    for (uint64_t k = 0; k <= nb; k++) {
      uint32_t v = rd_le32(d + 4 * (off + k));
      if (v > l->n || (k && v < rd_le32(d + 4 * (off + k - 1))) || (k == nb && v != l->n)) return 0;
    }
    uint64_t nbl = line_blocks(l), prev = 0;
    if (l->blk_off > n_blk || nbl + 1 > n_blk - l->blk_off) return 0;
    for (uint64_t j = 0; j <= nbl; j++) { /* block offsets ascend inside the histograms */
      uint64_t v = rd_le64(bk + 8 * (l->blk_off + j)) & ~TRACE_BLOCK_WALK;
      if (v > n_hist || v < prev) return 0;
      prev = v;
    }
  }
  for (uint64_t h = 0; h < n_hist; h++)
    if (rd_le32(hc + 4 * h) >= t->exp->n_contexts) return 0;
  t->dir = malloc((n_dir ? n_dir : 1) * sizeof *t->dir);
  t->blk = malloc((n_blk ? n_blk : 1) * sizeof *t->blk);
  t->h_ctx = malloc((n_hist ? n_hist : 1) * sizeof *t->h_ctx);
  t->h_ns = malloc((n_hist ? n_hist : 1) * sizeof *t->h_ns);
  if (!t->dir || !t->blk || !t->h_ctx || !t->h_ns) return 0; /* freed by close or the rebuild */
  for (uint64_t k = 0; k < n_dir; k++) t->dir[k] = rd_le32(d + 4 * k);
  for (uint64_t k = 0; k < n_blk; k++) t->blk[k] = rd_le64(bk + 8 * k);
  for (uint64_t k = 0; k < n_hist; k++) t->h_ctx[k] = rd_le32(hc + 4 * k), t->h_ns[k] = rd_le64(hn + 8 * k);
  t->n_dir = n_dir;
  t->n_blk = n_blk;
  t->n_hist = n_hist;
  return 1;
}

int trace_cache_load(hpcdb_trace_set *t, const hpcdb_trace_options *o) {
  char *real = NULL, *path = cache_file(t, o, &real);
  FILE *fp = path ? fopen(path, "rb") : NULL;
  struct stat st;
  int taken = 0;
  if (fp && fstat(fileno(fp), &st) == 0 && st.st_size > 0) {
    uint8_t *b = malloc((size_t)st.st_size);
    if (b && fread(b, 1, (size_t)st.st_size, fp) == (size_t)st.st_size) taken = adopt(t, b, (uint64_t)st.st_size, real);
    free(b);
  }
  if (fp) fclose(fp);
  if (taken) t->cache_path = path;
  else free(path);
  free(real);
  return taken;
}
