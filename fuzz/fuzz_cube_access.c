/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: the Cube member access (hpcdb_cube_open, _metric_values,
 * _metric_integers, _cnode_values, _location_values). The input is ids
 * (access_ids.h: metric, cnode, flags) and a directory image of one .cubex
 * file; one metric's values are read, inclusive or exclusive, into a matrix
 * of the size the file declares, then the cnode's row and one location's
 * column read on their own, which must be the matrix's bit for bit. */
#include <stdlib.h>
#include <string.h>

#include "access_ids.h"
#include "cmd_image.h"
#include "hpcdb/cube.h"
#include "hpcdb/hpcdb.h"

#define MAX_CELLS (1u << 22) /* a larger matrix is not allocated: the target's limit, not the file's */

static void read_by_ids(hpcdb_cube *c, const uint8_t *ids) {
  uint32_t flags = access_u32(ids, 2);
  uint32_t n_metrics = hpcdb_cube_n_metrics(c), n_cnodes = hpcdb_cube_n_cnodes(c), n_locs = hpcdb_cube_n_locations(c);
  uint32_t metric = access_pick(access_u32(ids, 0), n_metrics, flags & 1);
  uint32_t k = access_pick(access_u32(ids, 1), n_cnodes, flags & 2);
  int inclusive = (flags & 4) != 0;
  const char *name = hpcdb_cube_metric_name(c, metric);
  if ((metric < n_metrics) != (name != NULL)) abort(); /* a name exactly for the metrics that exist */
  if ((k < n_cnodes) != (hpcdb_cube_cnode_id(c, k) != UINT32_MAX)) abort();
  uint64_t cells = (uint64_t)n_cnodes * n_locs;
  if (cells > MAX_CELLS) return;
  double *v = malloc((cells ? cells : 1) * sizeof *v);
  uint64_t *u = malloc((cells ? cells : 1) * sizeof *u);
  double *row = malloc(((size_t)n_locs + 1) * sizeof *row), *col = malloc(((size_t)n_cnodes + 1) * sizeof *col);
  if (v && u && row && col) {
    int whole = hpcdb_cube_metric_values(c, metric, inclusive, v);
    if (metric >= n_metrics && whole == 0) abort(); /* a metric that does not exist is an error */
    if (hpcdb_cube_metric_integer(c, metric)) hpcdb_cube_metric_integers(c, metric, inclusive, u);
    else if (hpcdb_cube_metric_integers(c, metric, inclusive, u) == 0) abort(); /* EINVAL when not integer */
    int one_row = hpcdb_cube_cnode_values(c, metric, k, inclusive, row);
    if ((metric >= n_metrics || k >= n_cnodes) && one_row == 0) abort();
    if (whole == 0 && one_row == 0 && memcmp(row, v + (size_t)k * n_locs, (size_t)n_locs * sizeof *row)) abort();
    uint32_t l = n_locs ? k % n_locs : 0;
    if (n_locs && hpcdb_cube_location_values(c, metric, l, inclusive, col) == 0 && whole == 0)
      for (uint32_t j = 0; j < n_cnodes; j++)
        if (memcmp(&col[j], &v[(size_t)j * n_locs + l], sizeof *col)) abort();
  }
  free(v);
  free(u);
  free(row);
  free(col);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char dir[4096], input[4096];
  if (size < ACCESS_IDS_SIZE) return 0;
  if (cmd_image_unpack(data + ACCESS_IDS_SIZE, size - ACCESS_IDS_SIZE, dir, sizeof dir, input, sizeof input) < 0)
    return 0;
  hpcdb_cube *c = NULL;
  if (hpcdb_cube_open(&c, input) == 0) {
    read_by_ids(c, data);
    hpcdb_cube_close(c);
  }
  cmd_image_remove(dir);
  return 0;
}
