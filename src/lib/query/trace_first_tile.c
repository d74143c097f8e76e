/* SPDX-License-Identifier: BSD-3-Clause */
/* The size of the tile a viewer asks first. After building the index, a
 * viewer keeps one whole-run tile (hpcdb_trace_keep_first_tile,
 * trace_tile_kept.c) so that its first request is a read; the page asks
 * its timeline's own size, which depends on the browser's window, not on
 * the trace. The page tells that size with its whole-run requests and it
 * is remembered in the cache directory, beside the indexes
 * (`viewer-first-tile`: "HPCDBFT1", u32 width, height, depth,
 * little-endian); after the next index built, of any trace, that tile is
 * the one kept.
 * Without a record (or a damaged one) it keeps 2,000 x 1,000 at depth 3. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "common/bytes.h"
#include "common/error.h"
#include "query/trace_internal.h"

#define RECORD 20
#define MAX_WIDTH 8192
#define MAX_HEIGHT 4096
#define MAX_CELLS (4u << 20) /* as the viewer's own bound: the kept tile's cells take 24 bytes each */

/* The record's path, in the directory of t's cache file (NULL without one). */
static char *record_path(const hpcdb_trace_set *t) {
  const char *slash = t->cache_path ? strrchr(t->cache_path, '/') : NULL;
  if (!slash) return NULL;
  size_t n = (size_t)(slash - t->cache_path) + 1, len = n + sizeof "viewer-first-tile";
  char *p = malloc(len);
  if (p) memcpy(p, t->cache_path, n), memcpy(p + n, "viewer-first-tile", sizeof "viewer-first-tile");
  return p;
}

/* The record at path into size[3] (width, height, depth); 1 when it is one. */
static int read_record(const char *path, uint32_t size[3]) {
  uint8_t b[RECORD + 1];
  int fd = open(path, O_RDONLY | O_CLOEXEC), ok = 0;
  if (fd >= 0) {
    ssize_t n = read(fd, b, sizeof b);
    close(fd);
    for (int i = 0; i < 3; i++) size[i] = n == RECORD ? rd_le32(b + 8 + 4 * i) : 0;
    ok = n == RECORD && !memcmp(b, "HPCDBFT1", 8) && size[0] >= 1 && size[0] <= MAX_WIDTH && size[1] >= 1 &&
         size[1] <= MAX_HEIGHT && (uint64_t)size[0] * size[1] <= MAX_CELLS;
  }
  return ok;
}

void trace_first_tile_size(const hpcdb_trace_set *t, uint32_t *width, uint32_t *height, uint32_t *depth) {
  uint32_t size[3] = {2000, 1000, 3};
  char *path = record_path(t);
  if (path && !read_record(path, size)) size[0] = 2000, size[1] = 1000, size[2] = 3;
  free(path);
  *width = size[0], *height = size[1], *depth = size[2];
}

int hpcdb_trace_remember_first_tile(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter,
                                    const hpcdb_tile_request *req) {
  uint32_t n_sel = filter && filter->rows ? filter->n_rows : t->n_lines, now[3];
  if (!trace_tile_whole_run(t, filter, req) || req->count != t->n_lines || n_sel != t->n_lines || req->width < 1 ||
      req->width > MAX_WIDTH || req->height < 1 || req->height > MAX_HEIGHT ||
      (uint64_t)req->width * req->height > MAX_CELLS)
    return 0;
  char *path = record_path(t);
  if (!path) return 0;
  int rc = 0;
  if (!read_record(path, now) || now[0] != req->width || now[1] != req->height || now[2] != req->depth) {
    uint8_t b[RECORD];
    memcpy(b, "HPCDBFT1", 8);
    wr_le32(b + 8, req->width);
    wr_le32(b + 12, req->height);
    wr_le32(b + 16, req->depth);
    hpcdb_atomic_file f;
    if ((rc = atomic_file_open(&f, path)) == 0) {
      f.no_sync = 1; /* a record read checked: a file a crash cut short is the default size */
      rc = atomic_file_finish(&f, atomic_file_write(&f, b, RECORD));
    }
  }
  free(path);
  return rc;
}
