/* SPDX-License-Identifier: BSD-3-Clause */
/* One cnode's row or one location's column of a metric (hpcdb_cube_cnode_values,
 * hpcdb_cube_location_values), read where they lie in a plain tar whose data
 * member is plain (CUBEX.DATA): the metric's index maps cnodes to rows once
 * (kept for the next call on the same metric), then only the bytes asked
 * for are read. The flavour the file does not store is derived in the order
 * of operations access.c's derive() uses on the whole matrix, so the values
 * are the matrix's bit for bit. Other files (ZCUBEX.DATA, a compressed
 * archive, a tree too deep for the row budget) go through the matrix, held
 * for the call only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/error.h"
#include "cube/access.h"
#include "hpcdb/common.h"
#include "hpcdb/cube.h"

#define FAIL(section, off, rule, ...) hpcdb_fail_at(HPCDB_ECORRUPT, c->path, section, off, rule, __VA_ARGS__)
#define ROW_STACK_BUDGET (64u << 20) /* bytes of rows held along one path of a subtree */
#define COLUMN_READ (1u << 20)       /* bytes of rows read at once for a column */

void cube_row_map_free(cube_row_map *r) {
  free(r->row_of);
  free(r->cnode_of);
  free(r->row);
  memset(r, 0, sizeof *r);
}

/* The rows of metric m from its index: 1 when mapped, 0 when the data is
 * not plain rows in a plain tar (the caller reads the matrix), or a status. */
static int map_rows(hpcdb_cube *c, uint32_t m, const cube_dtype *t) {
  cube_row_map *r = &c->rows;
  if (r->row_of && r->metric == m) return 1;
  cube_row_map_free(r);
  if (!c->members.n) return 0;
  uint32_t nc = c->a.n_cnodes;
  char ixname[32], dtname[32];
  snprintf(ixname, sizeof ixname, "%u.index", c->a.metrics[m].id);
  snprintf(dtname, sizeof dtname, "%u.data", c->a.metrics[m].id);
  const cube_indexed_member *im = cube_member_find(&c->members, ixname), *dm = cube_member_find(&c->members, dtname);
  uint64_t row_bytes;
  if (!mul_ok(c->a.n_locations, t->size, &row_bytes) || row_bytes > SIZE_MAX / 2)
    return FAIL("data", 0, "count-overflow", "%u locations of %zu bytes", c->a.n_locations, t->size);
  uint8_t magic[10];
  if (im && dm && (dm->size < 10 || !cube_member_read(&c->members, dm->offset, magic, 10)))
    return FAIL("data", 0, "magic", "no CUBEX.DATA or ZCUBEX.DATA header");
  if (im && dm && memcmp(magic, "CUBEX.DATA", 10) != 0) return 0;
  if (im && im->size > SIZE_MAX - 1)
    return hpcdb_fail(HPCDB_ENOMEM, "%s: a %llu-byte index", c->path, (unsigned long long)im->size);
  cube_member ixm = {im && dm ? malloc((size_t)im->size + 1) : NULL, im && dm ? (size_t)im->size : 0};
  cube_values ix = {0};
  r->row_of = malloc(((size_t)nc + 1) * sizeof *r->row_of);
  r->row = malloc((size_t)row_bytes + 1);
  int rc = r->row_of && r->row && (!(im && dm) || ixm.data) ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0 && ixm.data)
    rc = cube_member_read(&c->members, im->offset, ixm.data, ixm.len)
             ? cube_index_parse(&ix, ixm.data, ixm.len, nc, c->path)
             : FAIL("index", 0, "truncated", "the file ends in the index");
  uint64_t need;
  if (rc == 0 && dm && (!mul_ok(ix.n_rows, row_bytes, &need) || need > dm->size - 10))
    rc = FAIL("data", 10, "data-size", "metric %s: %llu bytes of data for %u rows of %llu", c->a.metrics[m].uniq,
              (unsigned long long)(dm->size - 10), ix.n_rows, (unsigned long long)row_bytes);
  if (rc == 0 && !(r->cnode_of = malloc(((size_t)ix.n_rows + 1) * sizeof *r->cnode_of)))
    rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0 && c->a.metrics[m].flavour == CUBE_INCLUSIVE)
    rc = cube_inclusive_order(nc, c->parent, c->kids_at, c->kids, c->order);
  else
    for (uint32_t k = 0; rc == 0 && k < nc; k++) c->order[k] = k;
  if (rc == 0) {
    memset(r->row_of, 0xff, (size_t)nc * sizeof *r->row_of);
    for (uint32_t k = 0; k < ix.n_rows; k++) { /* a cnode listed twice: the later row, as the matrix takes it */
      r->cnode_of[k] = c->order[ix.row_pos[k]];
      r->row_of[r->cnode_of[k]] = k;
    }
    r->metric = m;
    r->t = *t;
    r->big_endian = ix.big_endian;
    r->rows_at = dm ? dm->offset + 10 : 0;
    r->row_bytes = row_bytes;
    r->n_rows = ix.n_rows;
  }
  cube_values_free(&ix);
  free(ixm.data);
  if (rc < 0) cube_row_map_free(r);
  return rc < 0 ? rc : 1;
}

/* The stored row of a cnode (zeros where the data has none). */
static int read_row(hpcdb_cube *c, uint32_t cnode, double *dst) {
  const cube_row_map *r = &c->rows;
  uint32_t k = r->row_of[cnode];
  if (k == UINT32_MAX) {
    memset(dst, 0, (size_t)c->a.n_locations * sizeof *dst);
    return 0;
  }
  if (!cube_member_read(&c->members, r->rows_at + (uint64_t)k * r->row_bytes, r->row, (size_t)r->row_bytes))
    return FAIL("data", 10 + (uint64_t)k * r->row_bytes, "data-size", "the file ends in row %u of %u", k, r->n_rows);
  cube_decode_row(&r->t, r->row, c->a.n_locations, r->big_endian, dst);
  return 0;
}

/* acc combined with x as derive() / derive_integer() combine a child into its
 * parent (subtract: the exclusive value from the inclusive ones). */
static void combine_rows(const cube_dtype *t, int aggregate, int subtract, double *acc, const double *x, size_t n) {
  for (size_t l = 0; l < n; l++) {
    if (t->kind == CUBE_DT_INTEGER)
      st_u64(&acc[l], subtract ? ld_u64(&acc[l]) - ld_u64(&x[l]) : ld_u64(&acc[l]) + ld_u64(&x[l]));
    else if (subtract) acc[l] -= x[l];
    else if (aggregate == CUBE_MIN) acc[l] = x[l] < acc[l] ? x[l] : acc[l];
    else if (aggregate == CUBE_MAX) acc[l] = x[l] > acc[l] ? x[l] : acc[l];
    else acc[l] += x[l];
  }
}

/* A cnode's inclusive row from exclusive rows: its own, then each child's
 * inclusive row combined in, last child first (derive() walks the cnodes
 * backwards), depth first with one row per level. 0 when the path is deeper
 * than the budget allows (the caller reads the matrix). */
static int subtree_row(hpcdb_cube *c, uint32_t k, int aggregate, double *out) {
  uint32_t nl = c->a.n_locations, max_depth = (uint32_t)(ROW_STACK_BUDGET / ((uint64_t)nl * sizeof(double) + 1)) + 1;
  uint32_t cap = 16, d = 0, *node = malloc(cap * sizeof *node), *next = malloc(cap * sizeof *next);
  double *acc = malloc((size_t)cap * nl * sizeof *acc + 1);
  int rc = node && next && acc ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0) node[0] = k, next[0] = c->kids_at[k + 1], rc = read_row(c, k, acc);
  while (rc == 0) {
    uint32_t p = node[d];
    if (next[d] > c->kids_at[p]) { /* the next child (from the last): its own row, one level down */
      uint32_t kid = c->kids[--next[d]];
      if (d + 1 >= max_depth) {
        rc = 1;
        break;
      }
      if (d + 1 == cap) {
        uint32_t *n2 = realloc(node, 2 * cap * sizeof *node), *x2 = n2 ? realloc(next, 2 * cap * sizeof *next) : NULL;
        double *a2 = x2 ? realloc(acc, (size_t)2 * cap * nl * sizeof *acc + 1) : NULL;
        if (n2) node = n2;
        if (x2) next = x2;
        if (a2) acc = a2;
        if (!a2) {
          rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
          break;
        }
        cap *= 2;
      }
      d++;
      node[d] = kid, next[d] = c->kids_at[kid + 1];
      rc = read_row(c, kid, acc + (size_t)d * nl);
    } else if (d == 0) {
      memcpy(out, acc, (size_t)nl * sizeof *out);
      break;
    } else { /* a child done: into its parent */
      combine_rows(&c->rows.t, aggregate, 0, acc + (size_t)(d - 1) * nl, acc + (size_t)d * nl, nl);
      d--;
    }
  }
  free(node);
  free(next);
  free(acc);
  return rc == 1 ? 0 : rc < 0 ? rc : 1;
}

/* An integer metric's bits into doubles, once. */
static void convert_integers(const cube_dtype *t, double *v, size_t n) {
  for (size_t i = 0; t->kind == CUBE_DT_INTEGER && i < n; i++) v[i] = cube_integer_to_double(t, ld_u64(&v[i]));
}

/* Metric m as the matrix would give it: 1 to read rows (t filled), 2 for the
 * matrix itself, 0 when every value is 0 (metric_values' cases: the n
 * values of out are then zeroed). */
static int how_to_read(hpcdb_cube *c, uint32_t m, int inclusive, cube_dtype *t, double *out, size_t n) {
  const cube_metric *mt = &c->a.metrics[m];
  if (mt->derived || !cube_dtype_parse(t, mt->dtype) || t->kind == CUBE_DT_SCALE_FUNC ||
      (mt->stored_only && inclusive != (mt->flavour == CUBE_INCLUSIVE))) {
    memset(out, 0, n * sizeof *out);
    return 0;
  }
  int rc = map_rows(c, m, t);
  return rc < 0 ? rc : rc ? 1 : 2;
}

/* Row k or column l of the whole matrix, held for the call. */
static int from_matrix(hpcdb_cube *c, uint32_t m, int inclusive, uint32_t k, uint32_t l, double *out) {
  uint32_t nc = c->a.n_cnodes, nl = c->a.n_locations;
  uint64_t cells;
  if (!mul_ok(nc, nl, &cells) || cells > SIZE_MAX / sizeof(double) - 1)
    return hpcdb_fail(HPCDB_ENOMEM, "%s: %u cnodes x %u locations", c->path, nc, nl);
  double *mat = malloc(((size_t)cells + 1) * sizeof *mat);
  if (!mat) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u cnodes x %u locations", nc, nl);
  int rc = cube_metric_matrix(c, m, inclusive, 1, mat);
  if (rc == 0 && k != UINT32_MAX) memcpy(out, mat + (size_t)k * nl, (size_t)nl * sizeof *out);
  for (uint32_t j = 0; rc == 0 && k == UINT32_MAX && j < nc; j++) out[j] = mat[(size_t)j * nl + l];
  free(mat);
  return rc;
}

int hpcdb_cube_cnode_values(hpcdb_cube *c, uint32_t m, uint32_t k, int inclusive, double *out) {
  if (m >= c->a.n_metrics || k >= c->a.n_cnodes)
    return hpcdb_fail(HPCDB_EINVAL, "%s: no metric %u or cnode %u", c->path, m, k);
  uint32_t nl = c->a.n_locations;
  cube_dtype t;
  int how = how_to_read(c, m, inclusive, &t, out, nl);
  if (how <= 0) return how;
  if (how == 2) return from_matrix(c, m, inclusive, k, 0, out);
  const cube_metric *mt = &c->a.metrics[m];
  int stored_inclusive = mt->flavour == CUBE_INCLUSIVE, rc = 0;
  if (inclusive == stored_inclusive) {
    HPCDB_TRY(read_row(c, k, out));
  } else if (stored_inclusive) { /* exclusive: minus each child's inclusive row, first child first */
    double *kid = malloc((size_t)nl * sizeof *kid + 1);
    if (!kid) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    rc = read_row(c, k, out);
    for (uint32_t i = c->kids_at[k]; rc == 0 && i < c->kids_at[k + 1]; i++)
      if ((rc = read_row(c, c->kids[i], kid)) == 0) combine_rows(&t, mt->aggregate, 1, out, kid, nl);
    free(kid);
    HPCDB_TRY(rc);
  } else {
    rc = subtree_row(c, k, mt->aggregate, out);
    if (rc <= 0) return rc < 0 ? rc : from_matrix(c, m, inclusive, k, 0, out);
  }
  convert_integers(&t, out, nl);
  return 0;
}

/* Location l's stored value at every cnode (zeros where the data has none),
 * the rows read COLUMN_READ bytes at a time. */
static int read_column(hpcdb_cube *c, uint32_t l, double *out) {
  const cube_row_map *r = &c->rows;
  uint32_t nc = c->a.n_cnodes,
           per = r->row_bytes && r->row_bytes < COLUMN_READ ? (uint32_t)(COLUMN_READ / r->row_bytes) : 1;
  memset(out, 0, (size_t)nc * sizeof *out);
  uint8_t *buf = malloc((size_t)per * r->row_bytes + 1);
  if (!buf) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int rc = 0;
  for (uint32_t k = 0; rc == 0 && k < r->n_rows; k += per) {
    uint32_t n = r->n_rows - k < per ? r->n_rows - k : per;
    if (!cube_member_read(&c->members, r->rows_at + (uint64_t)k * r->row_bytes, buf, (size_t)n * r->row_bytes)) {
      rc = FAIL("data", 10 + (uint64_t)k * r->row_bytes, "data-size", "the file ends in rows %u..%u of %u", k, k + n,
                r->n_rows);
      break;
    }
    for (uint32_t i = 0; i < n; i++)
      cube_decode_row(&r->t, buf + (size_t)i * r->row_bytes + (size_t)l * r->t.size, 1, r->big_endian,
                      &out[r->cnode_of[k + i]]);
  }
  free(buf);
  return rc;
}

int hpcdb_cube_location_values(hpcdb_cube *c, uint32_t m, uint32_t l, int inclusive, double *out) {
  if (m >= c->a.n_metrics || l >= c->a.n_locations)
    return hpcdb_fail(HPCDB_EINVAL, "%s: no metric %u or location %u", c->path, m, l);
  uint32_t nc = c->a.n_cnodes;
  cube_dtype t;
  int how = how_to_read(c, m, inclusive, &t, out, nc);
  if (how <= 0) return how;
  if (how == 2) return from_matrix(c, m, inclusive, UINT32_MAX, l, out);
  const cube_metric *mt = &c->a.metrics[m];
  int stored_inclusive = mt->flavour == CUBE_INCLUSIVE;
  HPCDB_TRY(read_column(c, l, out));
  if (inclusive != stored_inclusive && stored_inclusive) /* as derive(): each node off its parent, first first */
    for (uint32_t k = 0; k < nc; k++) {
      if (c->parent[k] != UINT32_MAX) combine_rows(&t, mt->aggregate, 1, &out[c->parent[k]], &out[k], 1);
    }
  else if (inclusive != stored_inclusive) /* children into parents, last first */
    for (uint32_t k = nc; k-- > 0;)
      if (c->parent[k] != UINT32_MAX) combine_rows(&t, mt->aggregate, 0, &out[c->parent[k]], &out[k], 1);
  convert_integers(&t, out, nc);
  return 0;
}
