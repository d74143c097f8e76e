/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: the trace query over trace.db bytes read in place. The bytes
 * become a database directory's trace.db (the model: contexts with ids
 * 1..255, id k under id k/2, and 32 profiles, so generated traces'
 * contexts exist); the set is opened twice (the index built, then read back
 * from its cache), and tiles, statistics, calling paths and filters run on
 * it. Every answer must come back without a fault. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/trace_query.h"

static hpcdb_experiment *model(void) {
  hpcdb_experiment *exp;
  if (hpcdb_experiment_new(&exp) != 0) return NULL;
  uint32_t index[256] = {0}, kind, gpu;
  hpcdb_add_kind_name(exp, "THREAD", &kind);
  hpcdb_add_kind_name(exp, "GPUSTREAM", &gpu); /* every 4th profile: for the GPU idleness */
  for (uint32_t id = 1; id < 256; id++) {
    hpcdb_context c = {0};
    c.id = id;
    c.kind = id == 1 ? HPCDB_CTX_ENTRY : HPCDB_CTX_NORMAL;
    c.relation = HPCDB_REL_CALL;
    c.function = c.file = c.module = HPCDB_NONE;
    if (hpcdb_add_context(exp, &c, id == 1 ? 0 : index[id / 2], &index[id]) != 0) break;
  }
  for (uint32_t p = 0; p < 32; p++) {
    hpcdb_id ids[1] = {{(uint16_t)(p % 4 == 3 ? gpu : kind), 0, p, p}};
    hpcdb_add_profile(exp, 0, p != 0, ids, p != 0, NULL);
  }
  return exp;
}

static void queries(hpcdb_trace_set *t, const hpcdb_experiment *exp) {
  hpcdb_trace_info i;
  hpcdb_trace_get_info(t, &i);
  uint64_t t0 = i.t_min, t1 = i.t_max + 8;
  hpcdb_tile_cell cells[7 * 3];
  uint32_t h, ctx, path[16], n;
  for (uint32_t depth = 0; depth < 3; depth++) {
    hpcdb_tile_request r = {0, i.n_rows, t0, t1, 7, 3, depth == 2 ? HPCDB_TRACE_LEAF : depth, NULL, NULL};
    hpcdb_trace_tile(t, NULL, &r, cells, &h);
  }
  hpcdb_trace_share *sh = NULL;
  uint64_t total;
  if (hpcdb_trace_stats(t, NULL, t0, t1, 1, &sh, &n, &total) == 0) free(sh);
  for (uint32_t row = 0; row < i.n_rows && row < 8; row++) {
    hpcdb_trace_path_at(t, row, t0 + (t1 - t0) / 2, &ctx, path, 16, &n);
    hpcdb_trace_path_at(t, row, i.t_max, &ctx, path, 16, &n);
  }
  uint8_t waits[256] = {0}; /* the model has at most 256 contexts */
  for (uint32_t k = 0; k < 256; k += 3) waits[k] = 1;
  hpcdb_trace_gpu_idle *g;
  if (hpcdb_trace_gpu_idleness(t, NULL, waits, t0, t1, &g, &n) == 0) free(g);
  uint32_t *rows;
  if (hpcdb_trace_rows_matching(t, exp, "THREAD=1-9", &rows, &n) == 0) {
    hpcdb_trace_rows_by_identity(t, exp, rows, n);
    free(rows);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char dir[] = "/tmp/hpcdb-fuzz-trace-XXXXXX", path[128], cache[128];
  if (!mkdtemp(dir)) return 0;
  snprintf(path, sizeof path, "%s/trace.db", dir);
  snprintf(cache, sizeof cache, "%s/cache", dir);
  FILE *f = fopen(path, "wb");
  hpcdb_experiment *exp = model();
  if (f && fwrite(data, 1, size, f) == size && fclose(f) == 0 && exp) {
    f = NULL;
    hpcdb_trace_options o = {.cache_dir = cache};
    for (int pass = 0; pass < 2; pass++) { /* built, then from the cache */
      hpcdb_trace_set *t;
      if (hpcdb_trace_open(&t, exp, dir, &o) != 0) break;
      queries(t, exp);
      hpcdb_trace_close(t);
    }
  }
  if (f) fclose(f);
  hpcdb_experiment_free(exp);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) return 0;
  return 0;
}
