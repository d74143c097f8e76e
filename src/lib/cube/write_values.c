/* SPDX-License-Identifier: BSD-3-Clause */
/* One metric's .index and .data in Score-P's layout: a sparse index (format
 * 1) of the positions, in the metric's cnode order, of the cnodes with a
 * non-zero value at some location, and one row of little-endian doubles per
 * listed position; with compression, one zlib stream per row (ZCUBEX.DATA
 * with 8-byte fields, as CubeLib writes it). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/big_alloc.h"
#include "common/bytes.h"
#include "common/error.h"
#include "common/worker.h"
#include "cube/cube_write.h"
#include "model/model_build.h"

static void put_le(cube_buf *b, uint64_t v, size_t n) {
  uint8_t x[8];
  for (size_t i = 0; i < n; i++) x[i] = (uint8_t)(v >> (8 * i));
  cube_buf_put(b, x, n);
}

/* Where position k of a profile holds prop id `id`, or -1: a binary search
 * down to a few entries, then a scan (a context holds a handful of ids). */
static inline int64_t find_id(const hpcdb_profile *p, uint32_t k, uint16_t id) {
  uint64_t lo = p->ctx_starts[k], end = p->ctx_starts[k + 1], hi = end; /* the first id >= id is in [lo, hi] */
  while (hi - lo > 8) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (p->metric_ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  for (; lo < end; lo++)
    if (p->metric_ids[lo] >= id) return p->metric_ids[lo] == id ? (int64_t)lo : -1;
  return -1;
}

static uint32_t cnode_of(const hpcdb_experiment *exp, const cube_tree *t, uint32_t id) {
  if (t->cnode_of_id) return id < t->n_ids ? t->cnode_of_id[id] : UINT32_MAX;
  uint32_t ctx = hpcdb_find_context(exp, id);
  return ctx == HPCDB_NONE ? UINT32_MAX : t->cnode_of_ctx[ctx];
}

/* A cnode's slot for one metric: its row position, flagged when it is an
 * entry point whose value is the plan's entry_id; SLOT_NONE when the id is
 * not in the tree (see plan). */
#define SLOT_NONE UINT32_MAX
#define SLOT_ENTRY 0x80000000u

static uint32_t cnode_slot(const cube_metric_rows *r, const hpcdb_experiment *exp, const cube_tree *t,
                           const cube_metric_plan *plan, uint32_t cnode) {
  if (cnode == UINT32_MAX) return SLOT_NONE;
  int entry = plan->entry_id >= 0 && exp->contexts[t->ctx[cnode]].kind == HPCDB_CTX_ENTRY;
  return r->pos[cnode] | (entry ? SLOT_ENTRY : 0);
}

static inline uint32_t slot_of(const cube_metric_rows *r, const hpcdb_experiment *exp, const cube_tree *t,
                               const cube_metric_plan *plan, uint32_t id) {
  if (r->slot) return id < t->n_ids ? r->slot[id] : SLOT_NONE;
  return cnode_slot(r, exp, t, plan, cnode_of(exp, t, id));
}

/* Values go first into a tile of TILE locations laid out cnode by cnode
 * (a profile's stores run through the tile in cnode order, each cnode's
 * TILE values share one cache line), then each cnode's piece is copied into
 * its row; writing the rows directly, one location at a time, missed the
 * cache and the TLB on every value. */
enum { TILE = 8 };

/* The locations [begin, end) (begin a multiple of TILE), with a tile and
 * non-zero flags of their own: two parts fill on two threads. */
typedef struct fill_part {
  cube_metric_rows *r;
  const hpcdb_experiment *exp;
  const cube_tree *t;
  const cube_metric_plan *plan;
  uint32_t begin, end;
  double *tile;
  uint8_t *nonzero;
} fill_part;

/* How many contexts ahead a profile's values are fetched. A metric's pass
 * takes one value per context from the line that holds the context's values
 * of every metric, so it reads a line per context, and waiting for those
 * lines was 28% of the fill's perf samples. Fetching 16 contexts ahead
 * saved 3% of the fill's CPU time, 64 ahead 19% (v4-1024; 32 and 128 ahead
 * within 2% of 64). */
enum { PREFETCH_CONTEXTS = 64 };

static void *fill_rows(void *arg) {
  const fill_part *f = arg;
  cube_metric_rows *r = f->r;
  const hpcdb_experiment *exp = f->exp;
  const cube_tree *t = f->t;
  uint32_t n = t->n, nl = t->n_locations;
  uint16_t ids[2] = {f->plan->stored_id, (uint16_t)f->plan->entry_id};
  uint8_t integer = f->plan->integer;
  memset(f->nonzero, 0, n);
  for (uint32_t l0 = f->begin; l0 < f->end; l0 += TILE) {
    uint32_t w = f->end - l0 < TILE ? f->end - l0 : TILE;
    double *tile = f->tile;
    memset(tile, 0, (size_t)n * w * sizeof *tile);
    for (uint32_t j = 0; j < w; j++) {
      const hpcdb_profile *p = &exp->profiles[t->locations[l0 + j]];
      const uint64_t *ints = integer ? model_integers(exp, t->locations[l0 + j]) : NULL;
      for (uint32_t k = 0; k < p->n_ctxs; k++) {
        if (k + PREFETCH_CONTEXTS < p->n_ctxs) __builtin_prefetch(p->values + p->ctx_starts[k + PREFETCH_CONTEXTS]);
        uint32_t s = slot_of(r, exp, t, f->plan, p->ctx_ids[k]);
        if (s == SLOT_NONE) continue;
        int64_t v = find_id(p, k, ids[s >> 31]);
        if (v < 0) continue;
        double x = p->values[v];
        uint32_t c = s & ~SLOT_ENTRY;
        tile[(size_t)c * w + j] = x;
        if (integer) { /* the row holds the integer's bits (row_bytes), exact beyond a double's 53 */
          uint64_t u = 0;
          model_integer_value(ints, x, (uint64_t)v, integer, &u);
          memcpy(&tile[(size_t)c * w + j], &u, sizeof u);
        }
        f->nonzero[c] |= x != 0;
      }
    }
    for (uint32_t c = 0; c < n; c++) memcpy(r->rows + (size_t)c * nl + l0, tile + (size_t)c * w, w * sizeof *tile);
  }
  return NULL;
}

/* Below this many cells one thread fills the rows. */
#define FILL_THREADS_MIN_CELLS (1u << 20)

int cube_metric_rows_fill(cube_metric_rows *r, const hpcdb_experiment *exp, const cube_tree *t,
                          const cube_metric_plan *plan) {
  uint32_t n = t->n, nl = t->n_locations;
  uint64_t cells;
  if (!mul_ok(n, nl, &cells) || cells > SIZE_MAX / 8 || n >= SLOT_ENTRY)
    return hpcdb_fail(HPCDB_ENOMEM, "%u cnodes x %u locations are too many for one metric", n, nl);
  if (!r->rows) { /* the first metric: the same buffers serve every metric */
    r->n = n;
    r->n_locations = nl;
    r->order = malloc(((size_t)n + 1) * sizeof *r->order);
    r->pos = malloc(((size_t)n + 1) * sizeof *r->pos);
    r->listed = malloc(((size_t)n + 1) * sizeof *r->listed);
    r->nonzero = malloc(2 * (size_t)n + 1);
    r->slot = t->cnode_of_id ? malloc(((size_t)t->n_ids + 1) * sizeof *r->slot) : NULL;
    /* the tiles share the rows' mapping (and its huge pages): on their own
     * they were hundreds of 4 KiB faults, each costly in a VM */
    size_t rows_part = (((size_t)cells + 1) * sizeof *r->rows + 4095) & ~(size_t)4095;
    r->rows_bytes = rows_part + (2 * (size_t)n * TILE + 1) * sizeof *r->tiles;
    r->rows = big_alloc(r->rows_bytes);
    r->tiles = r->rows ? (double *)((uint8_t *)r->rows + rows_part) : NULL;
    if (!r->order || !r->pos || !r->listed || !r->nonzero || (t->cnode_of_id && !r->slot) || !r->rows)
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u cnodes x %u locations", n, nl);
  }
  if (plan->inclusive) HPCDB_TRY(cube_inclusive_order(n, t->parent, t->kids_at, t->kids, r->order));
  else
    for (uint32_t c = 0; c < n; c++) r->order[c] = c;
  for (uint32_t k = 0; k < n; k++) r->pos[r->order[k]] = k;
  if (r->slot)
    for (uint32_t id = 0; id < t->n_ids; id++) r->slot[id] = cnode_slot(r, exp, t, plan, t->cnode_of_id[id]);
  uint32_t half = cells >= FILL_THREADS_MIN_CELLS ? nl / 2 / TILE * TILE : 0;
  fill_part parts[2] = {{r, exp, t, plan, half, nl, r->tiles, r->nonzero},
                        {r, exp, t, plan, 0, half, r->tiles + (size_t)n * TILE, r->nonzero + n}};
  worker_thread helper;
  int two = worker_start(&helper, half > 0, fill_rows, &parts[1]);
  if (half > 0 && !two) parts[0].begin = 0;
  fill_rows(&parts[0]);
  if (two) {
    worker_join(&helper);
    for (uint32_t c = 0; c < n; c++) r->nonzero[c] |= r->nonzero[n + c];
  }
  r->integer = plan->integer;
  r->n_listed = 0;
  for (uint32_t k = 0; k < n; k++)
    if (r->nonzero[k]) r->listed[r->n_listed++] = k;
  return 0;
}

void cube_metric_rows_free(cube_metric_rows *r) {
  big_free(r->rows, r->rows_bytes); /* and the tiles */
  free(r->listed);
  free(r->order);
  free(r->pos);
  free(r->nonzero);
  free(r->slot);
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

/* Row k of the listed positions as little-endian doubles (or 64-bit
 * integers): on a little-endian host a row of doubles is the row itself,
 * otherwise converted into buf. */
static const void *row_bytes(const cube_metric_rows *r, uint32_t k, uint8_t *buf) {
  const double *row = r->rows + (size_t)r->listed[k] * r->n_locations;
  if (r->integer) {
    for (uint32_t l = 0; l < r->n_locations; l++) { /* the integers' bits, as fill_rows put them */
      uint64_t u;
      memcpy(&u, &row[l], sizeof u);
      wr_le64(buf + 8 * (size_t)l, u);
    }
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
