/* One metric's .index and .data in Score-P's layout: a sparse index (format
 * 1) of the positions, in the metric's cnode order, of the cnodes with a
 * non-zero value at some location, and one row of little-endian doubles per
 * listed position; with compression, one zlib stream per row (ZCUBEX.DATA
 * with 8-byte fields, as CubeLib writes it). */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/bytes.h"
#include "common/error.h"
#include "cube/cube_write.h"

static void put_le(cube_buf *b, uint64_t v, size_t n) {
  uint8_t x[8];
  for (size_t i = 0; i < n; i++) x[i] = (uint8_t)(v >> (8 * i));
  cube_buf_put(b, x, n);
}

/* The value of prop id `id` at position k of a profile, 0 when absent. */
static double value_at(const hpcdb_profile *p, uint32_t k, uint16_t id) {
  uint64_t lo = p->ctx_starts[k], hi = p->ctx_starts[k + 1];
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (p->metric_ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < p->ctx_starts[k + 1] && p->metric_ids[lo] == id ? p->values[lo] : 0;
}

/* rows[pos × L + l]: the metric's values by position in its cnode order. */
static void fill_rows(double *rows, const hpcdb_experiment *exp, const cube_tree *t, const uint32_t *pos_of_cnode,
                      const cube_metric_plan *plan) {
  uint32_t nl = t->n_locations;
  for (uint32_t l = 0; l < nl; l++) {
    const hpcdb_profile *p = &exp->profiles[t->locations[l]];
    for (uint32_t k = 0; k < p->n_ctxs; k++) {
      uint32_t ctx = hpcdb_find_context(exp, p->ctx_ids[k]);
      if (ctx == HPCDB_NONE || t->cnode_of_ctx[ctx] == UINT32_MAX) continue; /* not in the tree: see plan */
      int entry = exp->contexts[ctx].kind == HPCDB_CTX_ENTRY && plan->entry_id >= 0;
      rows[(size_t)pos_of_cnode[t->cnode_of_ctx[ctx]] * nl + l] =
          value_at(p, k, entry ? (uint16_t)plan->entry_id : plan->stored_id);
    }
  }
}

static int write_data(cube_buf *data, const double *rows, const uint32_t *listed, uint32_t n_listed, uint32_t nl,
                      int compress) {
  size_t row_bytes = (size_t)nl * 8;
  uint8_t *row = malloc(row_bytes + 1);
  if (!row) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  cube_buf streams = {0};
  if (compress) {
    cube_buf_lit(data, "ZCUBEX.DATA");
    put_le(data, n_listed, 8);
  } else {
    cube_buf_lit(data, "CUBEX.DATA");
  }
  uLong zcap = compressBound((uLong)row_bytes);
  uint8_t *z = compress ? malloc(zcap + 1) : NULL;
  int rc = compress && !z ? hpcdb_fail(HPCDB_ENOMEM, "out of memory") : 0;
  for (uint32_t k = 0; k < n_listed && rc == 0; k++) {
    for (uint32_t l = 0; l < nl; l++) wr_le64(row + 8 * (size_t)l, f64_to_bits(rows[(size_t)listed[k] * nl + l]));
    if (!compress) {
      cube_buf_put(data, row, row_bytes);
      continue;
    }
    uLongf zlen = zcap;
    if (compress2(z, &zlen, row, (uLong)row_bytes, Z_DEFAULT_COMPRESSION) != Z_OK) {
      rc = hpcdb_fail(HPCDB_EIO, "zlib could not compress a row");
      break;
    }
    put_le(data, (uint64_t)k * row_bytes, 8); /* where the row starts, uncompressed */
    put_le(data, streams.len, 8);             /* where its stream starts */
    put_le(data, zlen, 8);
    cube_buf_put(&streams, z, zlen);
  }
  if (rc == 0 && compress) cube_buf_put(data, streams.data, streams.len);
  if (rc == 0 && (data->failed || streams.failed)) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for metric data");
  cube_buf_free(&streams);
  free(z);
  free(row);
  return rc;
}

int cube_write_values(cube_buf *index, cube_buf *data, const hpcdb_experiment *exp, const cube_tree *t,
                      const cube_metric_plan *plan, int compress) {
  uint32_t n = t->n, nl = t->n_locations;
  uint64_t cells;
  if (!mul_ok(n, nl, &cells) || cells > SIZE_MAX / 8)
    return hpcdb_fail(HPCDB_ENOMEM, "%u cnodes x %u locations are too many for one metric", n, nl);
  uint32_t *order = malloc(((size_t)n + 1) * sizeof *order), *pos = malloc(((size_t)n + 1) * sizeof *pos);
  uint32_t *listed = malloc(((size_t)n + 1) * sizeof *listed);
  double *rows = calloc((size_t)cells + 1, sizeof *rows);
  int rc = order && pos && listed && rows ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u cnodes x %u locations", n, nl);
  if (rc == 0 && plan->inclusive) rc = cube_inclusive_order(n, t->parent, t->kids_at, t->kids, order);
  else if (rc == 0) for (uint32_t c = 0; c < n; c++) order[c] = c;
  if (rc == 0) {
    for (uint32_t k = 0; k < n; k++) pos[order[k]] = k;
    fill_rows(rows, exp, t, pos, plan);
  }
  uint32_t n_listed = 0;
  for (uint32_t k = 0; rc == 0 && k < n; k++) {
    int any = 0;
    for (uint32_t l = 0; l < nl && !any; l++) any = rows[(size_t)k * nl + l] != 0;
    if (any) listed[n_listed++] = k;
  }
  if (rc == 0) {
    cube_buf_lit(index, "CUBEX.INDEX");
    put_le(index, 1, 4); /* the endian word */
    put_le(index, 0, 2); /* version */
    put_le(index, 1, 1); /* sparse */
    put_le(index, n_listed, 4);
    for (uint32_t k = 0; k < n_listed; k++) put_le(index, listed[k], 4);
    rc = index->failed ? hpcdb_fail(HPCDB_ENOMEM, "out of memory for an index") : write_data(data, rows, listed, n_listed, nl, compress);
  }
  free(order);
  free(pos);
  free(listed);
  free(rows);
  return rc;
}
