/* SPDX-License-Identifier: BSD-3-Clause */
/* Whole-run tiles kept beside the index in the cache: the tile of the whole
 * run (every selected row, no context filter) is what a viewer asks first,
 * and it does not change while trace.db does not. Each one computed is
 * written to `trace-HASH-WxH-DEPTH.tile` beside the index (the three most
 * recent are kept); after the index is built, a viewer has the one it
 * asks first (trace_first_tile.c) in the rows' identity order computed and
 * kept (hpcdb_trace_keep_first_tile). A request for the same size, depth
 * and rows is answered from it: read, not computed. A file that does not match (other
 * trace.db or meta.db, other request, damaged) is ignored and replaced.
 *
 * Layout (little-endian): "HPCDBTTL", u32 version, u32 count (rows), the
 * two file keys (6 x u64 each), u64 t0, t1, u32 width, height, depth, then
 * the scale (u32 coarse_rows, level_min, level_max; u64 events_min,
 * events_max, bucket_ns), count x u32 rows, count x u8 levels padded to 8,
 * height x width cells {u32 ctx, n_ctx; u64 ctx_ns, total_ns}, u64
 * checksum of everything before it. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "query/trace_internal.h"

#define VERSION 1
#define HEAD 176
#define CELL 24
#define CHUNK 4096 /* cells per read or write */

/* The path of the kept tile of this width, height and depth: the index's,
 * ".idx" replaced (NULL without one). */
static char *kept_path(const hpcdb_trace_set *t, const hpcdb_tile_request *req, uint32_t h) {
  size_t n = t->cache_path ? strlen(t->cache_path) : 0, len = n + 48;
  char *p = n > 4 ? malloc(len) : NULL;
  if (p) snprintf(p, len, "%.*s-%ux%u-%x.tile", (int)(n - 4), t->cache_path, req->width, h, req->depth);
  return p;
}

/* Removes this index's kept tiles but the KEEP most recent: a viewer's
 * resized window asks other sizes, and the cache must not grow with them. */
static void prune(const hpcdb_trace_set *t) {
  enum { KEEP = 3 };
  const char *slash = strrchr(t->cache_path, '/');
  size_t dlen = slash ? (size_t)(slash - t->cache_path) : 0, plen = strlen(t->cache_path) - dlen - 5; /* "trace-HASH" */
  char dir[PATH_MAX], path[PATH_MAX];
  snprintf(dir, sizeof dir, "%.*s", (int)(slash ? dlen : 1), slash ? t->cache_path : ".");
  const char *prefix = slash ? slash + 1 : t->cache_path;
  for (;;) { /* the oldest goes while there are more than KEEP */
    DIR *d = opendir(dir);
    struct dirent *e;
    int count = 0;
    time_t oldest_t = 0;
    char oldest[PATH_MAX] = "";
    while (d && (e = readdir(d))) {
      size_t n = strlen(e->d_name);
      struct stat st;
      if (n < plen + 5 || strncmp(e->d_name, prefix, plen) || e->d_name[plen] != '-' ||
          strcmp(e->d_name + n - 5, ".tile"))
        continue;
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      if (stat(path, &st) != 0) continue;
      if (count++ == 0 || st.st_mtime < oldest_t) oldest_t = st.st_mtime, snprintf(oldest, sizeof oldest, "%s", path);
    }
    if (d) closedir(d);
    if (count <= KEEP || unlink(oldest) != 0) return;
  }
}

int trace_tile_whole_run(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const hpcdb_tile_request *req) {
  uint32_t n_sel = filter && filter->rows ? filter->n_rows : t->n_lines;
  return !(filter && filter->ctx_keep) && req->first == 0 && req->count == n_sel && req->count != 0 &&
         req->t0 == t->t_min && req->t1 == t->t_max + 1;
}

/* The header and rows of a request whose tile is kept: what the file must
 * start with. NULL when the request is not of the whole run. */
static uint8_t *head_of(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const hpcdb_tile_request *req,
                        uint32_t h, const hpcdb_tile_scale *sc, const uint8_t *levels, uint64_t *len) {
  if (!trace_tile_whole_run(t, filter, req)) return NULL;
  uint64_t n = HEAD + 4 * (uint64_t)req->count + ((uint64_t)req->count + 7) / 8 * 8;
  uint8_t *b = calloc(1, n);
  if (!b) return NULL;
  trace_put_head(b, "HPCDBTTL", VERSION, req->count, t);
  wr_le64(b + 112, req->t0);
  wr_le64(b + 120, req->t1);
  wr_le32(b + 128, req->width);
  wr_le32(b + 132, h);
  wr_le32(b + 136, req->depth);
  if (sc) {
    wr_le32(b + 140, sc->coarse_rows);
    wr_le32(b + 144, sc->level_min);
    wr_le32(b + 148, sc->level_max);
    wr_le64(b + 152, sc->events_min);
    wr_le64(b + 160, sc->events_max);
    wr_le64(b + 168, sc->bucket_ns);
  }
  for (uint32_t i = 0; i < req->count; i++) wr_le32(b + HEAD + 4 * i, trace_sel_row(filter, i));
  if (levels) memcpy(b + HEAD + 4 * (uint64_t)req->count, levels, req->count);
  *len = n;
  return b;
}

static void cell_out(uint8_t *p, const hpcdb_tile_cell *c) {
  wr_le32(p, c->ctx);
  wr_le32(p + 4, c->n_ctx);
  wr_le64(p + 8, c->ctx_ns);
  wr_le64(p + 16, c->total_ns);
}

/* A cell read back, checked as the tile's own would be. */
static int cell_in(const hpcdb_trace_set *t, const uint8_t *p, hpcdb_tile_cell *c) {
  *c = (hpcdb_tile_cell){rd_le32(p), rd_le32(p + 4), rd_le64(p + 8), rd_le64(p + 16)};
  int known = c->ctx < t->exp->n_contexts || c->ctx == HPCDB_TRACE_GREY || c->ctx == HPCDB_TRACE_EMPTY;
  return known && c->ctx_ns <= c->total_ns && c->n_ctx <= t->exp->n_contexts + 1;
}

int trace_tile_kept(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const hpcdb_tile_request *req,
                    uint32_t h, hpcdb_tile_cell *cells) {
  uint64_t len, cells_n = (uint64_t)req->width * h;
  uint8_t *want = t->cache_path && t->pyr.in_file ? head_of(t, filter, req, h, NULL, NULL, &len) : NULL;
  char *path = want ? kept_path(t, req, h) : NULL;
  uint8_t *got = path ? malloc(len) : NULL, *buf = got ? malloc(CELL * CHUNK) : NULL;
  int fd = buf ? open(path, O_RDONLY | O_CLOEXEC) : -1;
  struct stat st;
  int ok = fd >= 0 && fstat(fd, &st) == 0 && (uint64_t)st.st_size == len + CELL * cells_n + 8 &&
           read_at(fd, got, len, 0, path) == 0 && !memcmp(got, want, 140) &&
           !memcmp(got + HEAD, want + HEAD, 4 * (uint64_t)req->count);
  trace_hash x;
  trace_hash_init(&x);
  if (ok) trace_hash_more(&x, got, len);
  for (uint64_t c0 = 0; ok && c0 < cells_n; c0 += CHUNK) {
    uint64_t n = cells_n - c0 < CHUNK ? cells_n - c0 : CHUNK;
    ok = read_at(fd, buf, CELL * n, len + CELL * c0, path) == 0;
    if (ok) trace_hash_more(&x, buf, CELL * n);
    for (uint64_t i = 0; ok && i < n; i++) ok = cell_in(t, buf + CELL * i, &cells[c0 + i]);
  }
  uint8_t sum[8];
  ok = ok && read_at(fd, sum, 8, len + CELL * cells_n, path) == 0 && rd_le64(sum) == trace_hash_end(&x);
  const uint8_t *levels = ok ? got + HEAD + 4 * (uint64_t)req->count : NULL; /* got is NULL when nothing was read */
  for (uint32_t i = 0; ok && i < req->count; i++) ok = levels[i] < TRACE_MAX_LEVELS || levels[i] == HPCDB_TILE_FINE;
  if (ok && req->row_level) memcpy(req->row_level, levels, req->count);
  if (ok && req->scale)
    *req->scale = (hpcdb_tile_scale){rd_le32(got + 140), rd_le32(got + 144), rd_le32(got + 148),
                                     rd_le64(got + 152), rd_le64(got + 160), rd_le64(got + 168)};
  if (fd >= 0) close(fd);
  hpcdb_clear_error(); /* a kept tile that cannot be read is computed */
  free(buf);
  free(got);
  free(path);
  free(want);
  return ok;
}

void trace_tile_keep(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const hpcdb_tile_request *req,
                     uint32_t h, const hpcdb_tile_scale *sc, const uint8_t *levels, const hpcdb_tile_cell *cells) {
  uint64_t len, cells_n = (uint64_t)req->width * h;
  uint8_t *head = t->cache_path && t->pyr.in_file ? head_of(t, filter, req, h, sc, levels, &len) : NULL;
  char *path = head ? kept_path(t, req, h) : NULL;
  uint8_t *buf = path ? malloc(CELL * CHUNK) : NULL, sum[8];
  hpcdb_atomic_file f;
  int rc = buf ? atomic_file_open(&f, path) : -1;
  if (rc == 0) {
    f.no_sync = 1; /* checksummed: a file a crash cut short is computed again */
    trace_hash x;
    trace_hash_init(&x);
    trace_hash_more(&x, head, len);
    rc = atomic_file_write(&f, head, len);
    for (uint64_t c0 = 0; rc == 0 && c0 < cells_n; c0 += CHUNK) {
      uint64_t n = cells_n - c0 < CHUNK ? cells_n - c0 : CHUNK;
      for (uint64_t i = 0; i < n; i++) cell_out(buf + CELL * i, &cells[c0 + i]);
      trace_hash_more(&x, buf, CELL * n);
      rc = atomic_file_write(&f, buf, CELL * n);
    }
    wr_le64(sum, trace_hash_end(&x));
    if (rc == 0) rc = atomic_file_write(&f, sum, 8);
    if (atomic_file_finish(&f, rc) == 0) prune(t);
  }
  hpcdb_clear_error(); /* a tile that cannot be kept is no error */
  free(buf);
  free(path);
  free(head);
}

void hpcdb_trace_keep_first_tile(const hpcdb_trace_set *t) {
  uint32_t width, height, depth;
  trace_first_tile_size(t, &width, &height, &depth);
  uint32_t n = t->n_lines, h = n < height ? n : height;
  if (t->from_cache || !t->cache_path || n == 0 || t->t_max + 1 - t->t_min < width) return;
  uint32_t *rows = malloc(n * sizeof *rows);
  hpcdb_tile_cell *cells = malloc((size_t)width * h * sizeof *cells);
  for (uint32_t i = 0; rows && i < n; i++) rows[i] = i;
  uint32_t out_h;
  hpcdb_trace_filter filter = {rows, n, NULL, NULL, NULL};
  hpcdb_tile_request req = {0, n, t->t_min, t->t_max + 1, width, h, depth, NULL, NULL};
  if (rows && cells && hpcdb_trace_rows_by_identity(t, t->exp, rows, n) == 0)
    hpcdb_trace_tile(t, &filter, &req, cells, &out_h); /* kept by the tile itself */
  hpcdb_clear_error();
  free(rows);
  free(cells);
}
