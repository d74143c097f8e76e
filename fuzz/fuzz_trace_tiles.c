/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: the trace query's requests (hpcdb_trace_tile, _stats,
 * _path_at) with fuzzer-chosen rows, window, size, depth and filters, over a
 * real database's trace.db read in place (fuzz_trace_query fuzzes the
 * trace.db bytes under fixed requests). The input is eight little-endian
 * words (access_u32: first row, row count, window start and end as fractions
 * of the trace's time span, width, height, depth, flags) and a directory
 * image of meta.db, profile.db and trace.db; the database is read lazily,
 * its traces opened without the cache, and a tile, the path at a time and
 * the window's statistics are computed, with a filter of some rows and
 * contexts when the flags say so. */
#include <stdlib.h>

#include "access_ids.h"
#include "cmd_image.h"
#include "hpcdb/hpcdb.h"
#include "hpcdb/trace_query.h"

#define TRACE_IDS_SIZE 32
#define MAX_WIDTH 512
#define MAX_HEIGHT 64

static uint64_t within(const hpcdb_trace_info *in, uint32_t fraction) {
  return in->t_min + (uint64_t)((double)(in->t_max - in->t_min) * fraction / 4294967296.0);
}

static void query(const hpcdb_trace_set *t, const hpcdb_experiment *exp, const uint8_t *ids) {
  hpcdb_trace_info in;
  hpcdb_trace_get_info(t, &in);
  uint32_t flags = access_u32(ids, 7);
  uint32_t rows[4], n_rows = 0;
  uint8_t *keep = NULL;
  hpcdb_trace_filter f = {0};
  if (flags & 1) { /* a few rows, in a fuzzer-chosen order (possibly past the end) */
    for (uint32_t k = 0; k < 4; k++) rows[n_rows++] = access_pick(access_u32(ids, k) >> 8, in.n_rows, flags & 2);
    f.rows = rows;
    f.n_rows = n_rows;
  }
  if ((flags & 4) && hpcdb_trace_contexts_matching(exp, flags & 8 ? "*loop*" : "main", &keep) == 0) f.ctx_keep = keep;
  uint32_t selected = f.rows ? f.n_rows : in.n_rows;
  hpcdb_tile_request req = {access_pick(access_u32(ids, 0), selected, flags & 16),
                            access_pick(access_u32(ids, 1), selected + 1, flags & 16),
                            within(&in, access_u32(ids, 2)),
                            within(&in, access_u32(ids, 3)),
                            access_u32(ids, 4) % (MAX_WIDTH + 1),
                            access_u32(ids, 5) % (MAX_HEIGHT + 1),
                            flags & 32 ? HPCDB_TRACE_LEAF : access_u32(ids, 6) % 16,
                            NULL,
                            NULL};
  if (flags & 64) req.t1 = access_u32(ids, 3); /* a raw end: before the start, or in the trace's first ns */
  hpcdb_tile_cell *cells = calloc((size_t)MAX_WIDTH * MAX_HEIGHT, sizeof *cells);
  uint32_t h = 0;
  if (cells && hpcdb_trace_tile(t, &f, &req, cells, &h) == 0) {
    if (h > req.height || h > req.count) abort(); /* h = min(height, count) */
    for (uint64_t k = 0; k < (uint64_t)h * req.width; k++)
      if (cells[k].ctx_ns > cells[k].total_ns) abort(); /* the dominant context's share is at most all */
  }
  free(cells);
  uint32_t ctx, path[64], n_path;
  hpcdb_trace_path_at(t, access_pick(access_u32(ids, 0), in.n_rows, flags & 2), req.t0, &ctx, path, 64, &n_path);
  hpcdb_trace_share *shares = NULL;
  uint32_t n = 0;
  uint64_t total = 0;
  if (hpcdb_trace_stats(t, &f, req.t0, req.t1, req.depth, &shares, &n, &total) == 0) {
    uint64_t sum = 0;
    for (uint32_t k = 0; k < n; k++) {
      if (k && shares[k].ns > shares[k - 1].ns) abort(); /* largest first */
      sum += shares[k].ns;
    }
    if (sum != total) abort();
  }
  free(shares);
  free(keep);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char dir[4096], input[4096];
  if (size < TRACE_IDS_SIZE) return 0;
  if (cmd_image_unpack(data + TRACE_IDS_SIZE, size - TRACE_IDS_SIZE, dir, sizeof dir, input, sizeof input) < 0)
    return 0;
  hpcdb_experiment *exp = NULL;
  hpcdb_db *db = NULL;
  if (hpcdb_hpctk4_read_lazy(&exp, &db, dir) == 0) {
    hpcdb_trace_options o = {.flags = HPCDB_TRACE_NO_CACHE};
    hpcdb_trace_set *t = NULL;
    if (hpcdb_trace_open(&t, exp, dir, &o) == 0) {
      query(t, exp, data);
      hpcdb_trace_close(t);
    }
    hpcdb_db_close(db);
    hpcdb_experiment_free(exp);
  }
  cmd_image_remove(dir);
  return 0;
}
