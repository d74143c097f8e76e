/* SPDX-License-Identifier: BSD-3-Clause */
/* One metric's .index and .data: positions in the metric's cnode order, and
 * one row of values per position (plain CUBEX.DATA or one zlib stream per
 * row in ZCUBEX.DATA). The byte order is the index's endian word's. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/bytes.h"
#include "common/error.h"
#include "cube/cube.h"

static const struct {
  const char *name;
  size_t size;
} dtypes[] = {
    {"DOUBLE", 8},
    {"MINDOUBLE", 8},
    {"MAXDOUBLE", 8},
    {"FLOAT", 8}, /* CubeLib stores FLOAT as a double (threaded-example1, dense-index-8-roots) */
    {"INT8", 1},
    {"UINT8", 1},
    {"CHAR", 1},
    {"INT16", 2},
    {"UINT16", 2},
    {"SHORT INT", 2},
    {"SIGNED SHORT INT", 2},
    {"UNSIGNED SHORT INT", 2},
    {"INT32", 4},
    {"UINT32", 4},
    {"INT", 4},
    {"SIGNED INT", 4},
    {"UNSIGNED INT", 4},
    {"INT64", 8},
    {"UINT64", 8},
    {"INTEGER", 8},
    {"SIGNED INTEGER", 8},
    {"UNSIGNED INTEGER", 8},
    {"COMPLEX", 16},
    {"RATE", 16},
    {"TAU_ATOMIC", 36},
    {"SCALE_FUNC", CUBE_SCALE_FUNC_SIZE},
};

/* n of "NDOUBLES(n)" / "HISTOGRAM(n)"; 0 when dtype is not that kind. */
static size_t counted(const char *dtype, const char *kind) {
  size_t k = strlen(kind);
  if (strncmp(dtype, kind, k) != 0 || dtype[k] != '(') return 0;
  char *end;
  unsigned long n = strtoul(dtype + k + 1, &end, 10);
  return *end == ')' && end[1] == '\0' && n > 0 && n < (1u << 20) ? (size_t)n : 0;
}

size_t cube_dtype_size(const char *dtype) {
  for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
    if (!strcmp(dtype, dtypes[i].name)) return dtypes[i].size;
  if (counted(dtype, "NDOUBLES")) return 8 * counted(dtype, "NDOUBLES");
  if (counted(dtype, "HISTOGRAM")) return 8 * (counted(dtype, "HISTOGRAM") + 2); /* min, max, then the bins */
  return 0;
}

int cube_dtype_parse(cube_dtype *t, const char *dtype) {
  memset(t, 0, sizeof *t);
  t->size = cube_dtype_size(dtype);
  if (!t->size) return 0;
  t->is_signed = !strncmp(dtype, "INT", 3) || !strncmp(dtype, "SIGNED", 6) || !strcmp(dtype, "SHORT INT") ||
                 !strcmp(dtype, "CHAR");
  if (!strcmp(dtype, "DOUBLE") || !strcmp(dtype, "MINDOUBLE") || !strcmp(dtype, "MAXDOUBLE") || !strcmp(dtype, "FLOAT"))
    t->kind = CUBE_DT_DOUBLE;
  else if (!strcmp(dtype, "COMPLEX")) t->kind = CUBE_DT_COMPLEX;
  else if (!strcmp(dtype, "RATE")) t->kind = CUBE_DT_RATE;
  else if (!strcmp(dtype, "TAU_ATOMIC")) t->kind = CUBE_DT_TAU;
  else if (!strcmp(dtype, "SCALE_FUNC")) t->kind = CUBE_DT_SCALE_FUNC;
  else if ((t->count = counted(dtype, "NDOUBLES"))) t->kind = CUBE_DT_NDOUBLES, t->first = 0;
  else if ((t->count = counted(dtype, "HISTOGRAM")))
    t->kind = CUBE_DT_HISTOGRAM, t->first = 2; /* min and max, then the bins */
  else t->kind = CUBE_DT_INTEGER;
  return 1;
}

double cube_decode(const cube_dtype *t, const uint8_t *p, int be) {
  switch (t->kind) {
  case CUBE_DT_DOUBLE:
  case CUBE_DT_COMPLEX: /* the real part */ return bits_to_f64(cube_rd(p, 8, be));
  case CUBE_DT_RATE: { /* numerator / denominator */
    double num = bits_to_f64(cube_rd(p, 8, be)), den = bits_to_f64(cube_rd(p + 8, 8, be));
    return den != 0 ? num / den : 0;
  }
  case CUBE_DT_TAU: /* N u32, min, max, sum, ... */ return bits_to_f64(cube_rd(p + 20, 8, be));
  case CUBE_DT_NDOUBLES:
  case CUBE_DT_HISTOGRAM: { /* the sum of the elements (of the bins) */
    double sum = 0;
    for (size_t i = t->first; i < t->first + t->count; i++) sum += bits_to_f64(cube_rd(p + 8 * i, 8, be));
    return sum;
  }
  case CUBE_DT_SCALE_FUNC: /* no single number: its components only */ return 0;
  default: return cube_integer_to_double(t, cube_decode_integer(t, p, be));
  }
}

uint64_t cube_decode_integer(const cube_dtype *t, const uint8_t *p, int be) {
  size_t n = t->size;
  uint64_t v = cube_rd(p, n, be);
  if (t->is_signed && n < 8 && (v >> (8 * n - 1)) & 1) v |= ~0ull << (8 * n); /* sign extension */
  return v;
}

double cube_integer_to_double(const cube_dtype *t, uint64_t v) {
  (void)t;
  return (double)(int64_t)v;
}

int cube_integer_exact(const cube_dtype *t, uint64_t v) {
  (void)t;
  uint64_t a = (int64_t)v < 0 ? (uint64_t)0 - v : v, dropped = 0;
  while (a >> 53) dropped |= a & 1, a >>= 1;
  return !dropped;
}

#define FAIL(section, off, rule, ...) hpcdb_fail_at(HPCDB_ECORRUPT, path, section, off, rule, __VA_ARGS__)

int cube_index_parse(cube_values *v, const uint8_t *ix, size_t len, uint32_t n_cnodes, const char *path) {
  memset(v, 0, sizeof *v);
  if (len < 18 || memcmp(ix, "CUBEX.INDEX", 11) != 0) return FAIL("index", 0, "magic", "not a CUBEX.INDEX file");
  if (cube_rd(ix + 11, 4, 0) == 1) v->big_endian = 0;
  else if (cube_rd(ix + 11, 4, 1) == 1) v->big_endian = 1;
  else return FAIL("index", 11, "endian", "the endian word is not 1 in either byte order");
  uint8_t format = ix[17];
  if (format == 3 || format == 0) { /* dense: every cnode, in order */
    v->n_rows = n_cnodes;
    v->row_pos = malloc(((size_t)n_cnodes + 1) * sizeof *v->row_pos);
    if (!v->row_pos) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    for (uint32_t k = 0; k < n_cnodes; k++) v->row_pos[k] = k;
    return 0;
  }
  if (format != 1) return FAIL("index", 17, "index-format", "index format %u (1 sparse, 3 dense)", format);
  if (len < 22) return FAIL("index", len, "truncated", "no entry count");
  uint32_t n = (uint32_t)cube_rd(ix + 18, 4, v->big_endian);
  if ((len - 22) / 4 < n) return FAIL("index", 18, "count", "%u entries in %zu bytes", n, len - 22);
  v->n_rows = n;
  v->row_pos = malloc(((size_t)n + 1) * sizeof *v->row_pos);
  if (!v->row_pos) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t k = 0; k < n; k++) {
    v->row_pos[k] = (uint32_t)cube_rd(ix + 22 + 4 * (size_t)k, 4, v->big_endian);
    if (v->row_pos[k] >= n_cnodes)
      return FAIL("index", 22 + 4 * (uint64_t)k, "index-range", "entry %u beyond the %u cnodes", v->row_pos[k],
                  n_cnodes);
  }
  return 0;
}

int cube_values_decode(cube_values *v, const uint8_t *ix, size_t ix_len, const uint8_t *data, size_t data_len,
                       size_t size, uint32_t n_locations, uint32_t n_cnodes, const char *path, const char *metric) {
  memset(v, 0, sizeof *v);
  int rc = cube_index_parse(v, ix, ix_len, n_cnodes, path);
  uint64_t row = (uint64_t)n_locations * size, total = 0;
  if (rc == 0 && !mul_ok(row, v->n_rows, &total))
    rc = FAIL("data", 0, "count-overflow", "%u rows of %llu bytes", v->n_rows, (unsigned long long)row);
  if (rc == 0 && total > SIZE_MAX) rc = hpcdb_fail(HPCDB_ENOMEM, "too many values");
  if (rc == 0 && data_len >= 10 && !memcmp(data, "CUBEX.DATA", 10)) { /* the rows as they are: no copy */
    if (data_len - 10 < total)
      rc = FAIL("data", 10, "data-size", "metric %s: %zu bytes of data for %llu", metric, data_len - 10,
                (unsigned long long)total);
    else v->data = data + 10;
  } else if (rc == 0 && data_len >= 19 && !memcmp(data, "ZCUBEX.DATA", 11)) {
    if (!(v->inflated = malloc(total ? (size_t)total : 1)))
      rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for metric %s", metric);
    v->data = v->inflated;
    uint64_t rows = cube_rd(data + 11, 8, v->big_endian);
    if (rc == 0 && (rows != v->n_rows || (data_len - 19) / 24 < rows)) {
      rc = FAIL("data", 11, "data-rows", "metric %s: %llu compressed rows for %u index entries", metric,
                (unsigned long long)rows, v->n_rows);
    } else {
      uint64_t at = 19 + 24 * rows;
      for (uint64_t k = 0; k < rows && rc == 0; k++) {
        uint64_t zsize = cube_rd(data + 19 + 24 * k + 16, 8, v->big_endian);
        uLongf out = (uLongf)row;
        if (!in_bounds(data_len, at, zsize) ||
            uncompress(v->inflated + k * row, &out, data + at, (uLong)zsize) != Z_OK || out != row)
          rc = FAIL("data", at, "zlib", "metric %s: row %llu does not inflate to %llu bytes", metric,
                    (unsigned long long)k, (unsigned long long)row);
        at += zsize;
      }
    }
  } else if (rc == 0) {
    rc = FAIL("data", 0, "magic", "metric %s: not CUBEX.DATA or ZCUBEX.DATA", metric);
  }
  if (rc < 0) cube_values_free(v);
  return rc;
}

void cube_values_free(cube_values *v) {
  free(v->row_pos);
  free(v->inflated);
  memset(v, 0, sizeof *v);
}
