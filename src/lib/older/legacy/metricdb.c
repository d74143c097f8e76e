/* SPDX-License-Identifier: BSD-3-Clause */
/* *.metric-db: a 24-byte identification ("HPCPROF-metricdb__", version
 * "00.10", 'b' for big-endian), u32 number of context rows, u32 number of
 * metric columns, then rows x columns big-endian doubles (row r is context
 * id r + 1). Layout checked against the sample files and Hatchet's reader. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/cursor.h"
#include "common/error.h"
#include "model/model_build.h"
#include "older/legacy/legacy.h"

#define SECTION "metric-db"

int legacy_metricdb_header_parse(legacy_metricdb_header *h, const uint8_t *data, uint64_t len, const char *path,
                                 uint64_t *trailing) {
  hpcdb_cursor c;
  cursor_init(&c, data, len, path);
  c.section = SECTION;
  memset(h, 0, sizeof *h);
  const uint8_t *ident = cursor_take(&c, LEGACY_METRICDB_IDENT, "identification");
  if (!ident) return HPCDB_ETRUNCATED;
  if (memcmp(ident, LEGACY_METRICDB_MAGIC, 18) != 0)
    return hpcdb_fail_at(HPCDB_ENOTFORMAT, path, SECTION, 0, "magic", "does not start with %s", LEGACY_METRICDB_MAGIC);
  memcpy(h->version, ident + 18, 5);
  if (ident[23] != 'b')
    return hpcdb_fail_at(HPCDB_EUNSUPPORTED, path, SECTION, 23, "endianness",
                         "byte order '%c' (only 'b', big-endian, is known)",
                         ident[23] >= 0x20 && ident[23] < 0x7f ? ident[23] : '?');
  HPCDB_TRY(cursor_be32(&c, &h->n_nodes, "number of contexts"));
  HPCDB_TRY(cursor_be32(&c, &h->n_metrics, "number of metrics"));
  h->data_offset = c.pos;
  uint64_t cells = (uint64_t)h->n_nodes * h->n_metrics; /* both < 2^32: no overflow */
  if (cells > (len - c.pos) / 8)
    return hpcdb_fail_at(HPCDB_ETRUNCATED, path, SECTION, c.pos, "size",
                         "%u contexts x %u metrics need %llu bytes of values, the file has %llu", h->n_nodes,
                         h->n_metrics, (unsigned long long)(cells * 8), (unsigned long long)(len - c.pos));
  *trailing = len - c.pos - cells * 8;
  return 0;
}

void legacy_csr_free(hpcdb_profile *c) {
  free(c->ctx_ids);
  free(c->ctx_starts);
  free(c->metric_ids);
  free(c->values);
  memset(c, 0, sizeof *c);
}

/* Non-zero cells, counted first so the arrays are allocated exactly. */
static int count_nonzero(const uint8_t *data, const legacy_metricdb_header *h, const char *path, uint64_t *n_values,
                         uint32_t *n_ctxs, const uint16_t *column_ids, uint32_t n_columns) {
  const uint8_t *p = data + h->data_offset;
  *n_values = 0;
  *n_ctxs = 0;
  for (uint32_t r = 0; r < h->n_nodes; r++) {
    uint32_t here = 0;
    for (uint32_t m = 0; m < h->n_metrics; m++, p += 8) {
      double v = rd_be_f64(p);
      if (!isfinite(v))
        return hpcdb_fail_at(HPCDB_ECORRUPT, path, SECTION, (uint64_t)(p - data), "value-finite",
                             "context %u, metric %u: %g", r + 1, m, v);
      if (v != 0 && m < n_columns && column_ids[m] != LEGACY_DROP) here++;
    }
    *n_values += here;
    *n_ctxs += here != 0;
  }
  return 0;
}

typedef struct kept_column {
  uint16_t id; /* model metric id */
  uint32_t column;
} kept_column;

static int by_model_id(const void *a, const void *b) {
  uint16_t x = ((const kept_column *)a)->id, y = ((const kept_column *)b)->id;
  return (x > y) - (x < y);
}

int legacy_metricdb_values(hpcdb_profile *out, const uint8_t *data, uint64_t len, const char *path,
                           const legacy_metricdb_header *h, const uint16_t *column_ids, uint32_t n_columns) {
  memset(out, 0, sizeof *out);
  uint64_t cells = (uint64_t)h->n_nodes * h->n_metrics;           /* both < 2^32: no overflow */
  if (h->data_offset > len || cells > (len - h->data_offset) / 8) /* whatever header the caller passes */
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, SECTION, h->data_offset, "size",
                         "%u contexts x %u metrics do not fit in the file", h->n_nodes, h->n_metrics);
  if (n_columns > LEGACY_DROP) return hpcdb_fail(HPCDB_EINVAL, "%s: more than 65535 metric columns", path);
  if (h->n_nodes == UINT32_MAX)
    return hpcdb_fail_at(HPCDB_EUNSUPPORTED, path, SECTION, 24, "size", "context ids past 2^32 - 1");
  uint64_t n_values = 0;
  uint32_t n_ctxs = 0;
  /* rows of no metrics hold nothing (and may claim 4 billion rows in 32 bytes) */
  if (h->n_metrics) HPCDB_TRY(count_nonzero(data, h, path, &n_values, &n_ctxs, column_ids, n_columns));
  /* the kept columns in order of their model ids: rows come out sorted */
  uint32_t usable = h->n_metrics < n_columns ? h->n_metrics : n_columns; /* not what the file claims */
  kept_column *order = malloc(((size_t)usable + 1) * sizeof *order);
  uint32_t n_kept = 0;
  int rc = model_csr_alloc(out, n_ctxs, n_values);
  if (!order || rc < 0) {
    free(order);
    legacy_csr_free(out);
    return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory for %llu values", path, (unsigned long long)n_values);
  }
  for (uint32_t m = 0; m < usable; m++)
    if (column_ids[m] != LEGACY_DROP) order[n_kept++] = (kept_column){column_ids[m], m};
  qsort(order, n_kept, sizeof *order, by_model_id);
  const uint8_t *rows = data + h->data_offset;
  uint64_t v = 0;
  uint32_t k = 0;
  for (uint32_t r = 0; h->n_metrics && r < h->n_nodes; r++) {
    const uint8_t *row = rows + (uint64_t)r * h->n_metrics * 8;
    uint64_t start = v;
    for (uint32_t i = 0; i < n_kept; i++) {
      double x = rd_be_f64(row + (uint64_t)order[i].column * 8);
      if (x == 0) continue;
      out->metric_ids[v] = order[i].id;
      out->values[v++] = x;
    }
    if (v == start) continue;
    out->ctx_ids[k] = r + 1;
    out->ctx_starts[k++] = start;
  }
  free(order);
  out->ctx_starts[k] = v;
  model_csr_trim(out, k, v);
  return 0;
}
