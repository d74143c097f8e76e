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

static uint32_t cnode_of(const hpcdb_experiment *exp, const cube_tree *t, uint32_t id) {
  if (t->cnode_of_id) return id < t->n_ids ? t->cnode_of_id[id] : UINT32_MAX;
  uint32_t ctx = hpcdb_find_context(exp, id);
  return ctx == HPCDB_NONE ? UINT32_MAX : t->cnode_of_ctx[ctx];
}

/* Values are first spread into a column per location (a profile's writes
 * stay within one column), then a tile of columns is transposed into the
 * rows; writing the rows directly, one location at a time, missed the cache
 * and the TLB on every value. */
static void fill_rows(cube_metric_rows *r, const hpcdb_experiment *exp, const cube_tree *t,
                      const cube_metric_plan *plan) {
  uint32_t n = t->n, nl = t->n_locations;
  for (uint32_t l0 = 0; l0 < nl; l0 += r->tile) {
    uint32_t w = nl - l0 < r->tile ? nl - l0 : r->tile;
    memset(r->cols, 0, (size_t)w * n * sizeof *r->cols);
    for (uint32_t j = 0; j < w; j++) {
      const hpcdb_profile *p = &exp->profiles[t->locations[l0 + j]];
      double *col = r->cols + (size_t)j * n;
      for (uint32_t k = 0; k < p->n_ctxs; k++) {
        uint32_t cnode = cnode_of(exp, t, p->ctx_ids[k]);
        if (cnode == UINT32_MAX) continue; /* not in the tree: see plan */
        int entry = exp->contexts[t->ctx[cnode]].kind == HPCDB_CTX_ENTRY && plan->entry_id >= 0;
        col[r->pos[cnode]] = value_at(p, k, entry ? (uint16_t)plan->entry_id : plan->stored_id);
      }
    }
    for (uint32_t c = 0; c < n; c++) {
      double *row = r->rows + (size_t)c * nl + l0;
      for (uint32_t j = 0; j < w; j++) row[j] = r->cols[(size_t)j * n + c];
    }
  }
}

int cube_metric_rows_fill(cube_metric_rows *r, const hpcdb_experiment *exp, const cube_tree *t,
                          const cube_metric_plan *plan) {
  uint32_t n = t->n, nl = t->n_locations;
  uint64_t cells;
  if (!mul_ok(n, nl, &cells) || cells > SIZE_MAX / 8)
    return hpcdb_fail(HPCDB_ENOMEM, "%u cnodes x %u locations are too many for one metric", n, nl);
  if (!r->rows) { /* the first metric: the same buffers serve every metric */
    r->n = n;
    r->n_locations = nl;
    r->order = malloc(((size_t)n + 1) * sizeof *r->order);
    r->pos = malloc(((size_t)n + 1) * sizeof *r->pos);
    r->listed = malloc(((size_t)n + 1) * sizeof *r->listed);
    r->rows = malloc(((size_t)cells + 1) * sizeof *r->rows);
    r->tile = cube_tile_width(n, nl);
    r->cols = malloc(((size_t)r->tile * n + 1) * sizeof *r->cols);
    if (!r->order || !r->pos || !r->listed || !r->rows || !r->cols)
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u cnodes x %u locations", n, nl);
  }
  if (plan->inclusive) HPCDB_TRY(cube_inclusive_order(n, t->parent, t->kids_at, t->kids, r->order));
  else for (uint32_t c = 0; c < n; c++) r->order[c] = c;
  for (uint32_t k = 0; k < n; k++) r->pos[r->order[k]] = k;
  fill_rows(r, exp, t, plan);
  r->integer = plan->integer;
  r->n_listed = 0;
  for (uint32_t k = 0; k < n; k++) {
    const double *row = r->rows + (size_t)k * nl;
    uint32_t l = 0;
    while (l < nl && row[l] == 0) l++;
    if (l < nl) r->listed[r->n_listed++] = k;
  }
  return 0;
}

void cube_metric_rows_free(cube_metric_rows *r) {
  free(r->rows);
  free(r->listed);
  free(r->order);
  free(r->pos);
  free(r->cols);
  memset(r, 0, sizeof *r);
}

int cube_write_index(cube_buf *index, const cube_metric_rows *r) {
  cube_buf_lit(index, "CUBEX.INDEX");
  put_le(index, 1, 4); /* the endian word */
  put_le(index, 0, 2); /* version */
  put_le(index, 1, 1); /* sparse */
  put_le(index, r->n_listed, 4);
  for (uint32_t k = 0; k < r->n_listed; k++) put_le(index, r->listed[k], 4);
  return index->failed ? hpcdb_fail(HPCDB_ENOMEM, "out of memory for an index") : 0;
}

uint64_t cube_data_size(const cube_metric_rows *r) {
  return sizeof "CUBEX.DATA" - 1 + (uint64_t)r->n_listed * r->n_locations * 8;
}

/* A value the plan found integral, as the 64-bit integer's bits (a negative
 * value of an unsigned metric wraps, as CubeLib's arithmetic does). */
static uint64_t integer_bits(double v) {
  return v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v;
}

/* Row k of the listed positions as little-endian doubles (or 64-bit
 * integers): on a little-endian host a row of doubles is the row itself,
 * otherwise converted into buf. */
static const void *row_bytes(const cube_metric_rows *r, uint32_t k, uint8_t *buf) {
  const double *row = r->rows + (size_t)r->listed[k] * r->n_locations;
  if (r->integer) {
    for (uint32_t l = 0; l < r->n_locations; l++) wr_le64(buf + 8 * (size_t)l, integer_bits(row[l]));
    return buf;
  }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  (void)buf;
  return row;
#else
  for (uint32_t l = 0; l < r->n_locations; l++) wr_le64(buf + 8 * (size_t)l, f64_to_bits(row[l]));
  return buf;
#endif
}

int cube_write_data(const cube_metric_rows *r, cube_sink_fn sink, void *user) {
  size_t size = (size_t)r->n_locations * 8;
  uint8_t *buf = malloc(size + 1);
  if (!buf) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int rc = sink(user, "CUBEX.DATA", sizeof "CUBEX.DATA" - 1);
  for (uint32_t k = 0; k < r->n_listed && rc == 0; k++) rc = sink(user, row_bytes(r, k, buf), size);
  free(buf);
  return rc;
}

int cube_write_data_compressed(cube_buf *data, const cube_metric_rows *r) {
  size_t size = (size_t)r->n_locations * 8;
  uLong zcap = compressBound((uLong)size);
  uint8_t *buf = malloc(size + 1), *z = malloc(zcap + 1);
  cube_buf streams = {0};
  int rc = buf && z ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  cube_buf_lit(data, "ZCUBEX.DATA");
  put_le(data, r->n_listed, 8);
  for (uint32_t k = 0; k < r->n_listed && rc == 0; k++) {
    uLongf zlen = zcap;
    if (compress2(z, &zlen, row_bytes(r, k, buf), (uLong)size, Z_DEFAULT_COMPRESSION) != Z_OK) {
      rc = hpcdb_fail(HPCDB_EIO, "zlib could not compress a row");
      break;
    }
    put_le(data, (uint64_t)k * size, 8); /* where the row starts, uncompressed */
    put_le(data, streams.len, 8);        /* where its stream starts */
    put_le(data, zlen, 8);
    cube_buf_put(&streams, z, zlen);
  }
  if (rc == 0) cube_buf_put(data, streams.data, streams.len);
  if (rc == 0 && (data->failed || streams.failed)) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for metric data");
  cube_buf_free(&streams);
  free(z);
  free(buf);
  return rc;
}
