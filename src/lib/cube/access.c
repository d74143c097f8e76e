/* SPDX-License-Identifier: BSD-3-Clause */
/* Direct access to a Cube file's values, one metric at a time, without
 * building the model: the anchor is parsed once, and a plain tar's member
 * offsets are found once (member_index.c); each request reads the metric's
 * members (from their offsets, or by scanning a compressed archive) and
 * decodes the data row by row straight into the caller's cnode x location
 * matrix (memory: that matrix plus one row; doubles in a plain tar are read
 * by the kernel straight into their rows). The other flavour is derived in
 * place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <zlib.h>

#include "common/archive_lib.h"
#include "common/bytes.h"
#include "common/error.h"
#include "cube/access.h"
#include "cube/cube.h"
#include "hpcdb/common.h"
#include "hpcdb/cube.h"
#include "hpcdb/model.h"

#define FAIL(section, off, rule, ...) hpcdb_fail_at(HPCDB_ECORRUPT, c->path, section, off, rule, __VA_ARGS__)

int hpcdb_cube_open(hpcdb_cube **out, const char *path) {
  *out = NULL;
  hpcdb_cube *c = calloc(1, sizeof *c);
  if (!c || !(c->path = strdup(path))) {
    free(c);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  c->members.fd = -1;
  int rc = cube_member_index_build(&c->members, path);
  if (rc == 0) rc = cube_read_anchor(&c->a, path, &c->members);
  if (rc < 0) {
    cube_member_index_free(&c->members);
    free(c->path);
    free(c);
    return rc;
  }
  uint32_t n = c->a.n_cnodes;
  c->parent = malloc(((size_t)n + 1) * sizeof *c->parent);
  c->kids_at = calloc((size_t)n + 2, sizeof *c->kids_at);
  c->kids = malloc(((size_t)n + 1) * sizeof *c->kids);
  c->order = malloc(((size_t)n + 1) * sizeof *c->order);
  c->filled = malloc((size_t)n + 1);
  uint32_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
  if (!c->parent || !c->kids_at || !c->kids || !c->order || !c->filled || !fill) {
    free(fill);
    hpcdb_cube_close(c);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u cnodes", n);
  }
  for (uint32_t k = 0; k < n; k++) {
    c->parent[k] = c->a.cnodes[k].parent;
    if (c->parent[k] != UINT32_MAX) c->kids_at[c->parent[k] + 1]++;
  }
  for (uint32_t k = 0; k < n; k++) c->kids_at[k + 1] += c->kids_at[k];
  memcpy(fill, c->kids_at, (size_t)n * sizeof *fill);
  for (uint32_t k = 0; k < n; k++)
    if (c->parent[k] != UINT32_MAX) c->kids[fill[c->parent[k]]++] = k;
  free(fill);
  *out = c;
  return 0;
}

void hpcdb_cube_close(hpcdb_cube *c) {
  if (!c) return;
  cube_anchor_free(&c->a);
  cube_member_index_free(&c->members);
  cube_row_map_free(&c->rows);
  free(c->parent);
  free(c->kids_at);
  free(c->kids);
  free(c->order);
  free(c->filled);
  free(c->path);
  free(c);
}

uint32_t hpcdb_cube_n_metrics(const hpcdb_cube *c) { return c->a.n_metrics; }
uint32_t hpcdb_cube_n_cnodes(const hpcdb_cube *c) { return c->a.n_cnodes; }
uint32_t hpcdb_cube_n_locations(const hpcdb_cube *c) { return c->a.n_locations; }
const char *hpcdb_cube_metric_name(const hpcdb_cube *c, uint32_t m) {
  return m < c->a.n_metrics ? c->a.metrics[m].uniq : NULL;
}
uint32_t hpcdb_cube_cnode_id(const hpcdb_cube *c, uint32_t k) {
  return k < c->a.n_cnodes ? c->a.cnodes[k].id : UINT32_MAX;
}

/* Where a data member's bytes come from: the archive's current member, or
 * the file at [at, end) through the member index. */
typedef struct source {
  struct archive *ar;
  const cube_member_index *members;
  uint64_t at, end;
} source;

/* Exactly n bytes of the member; 0 when it ends first. */
static int read_exact(source *s, uint8_t *buf, size_t n) {
  const archive_lib *al = archive_lib_loaded();
  if (!s->ar) {
    if (n > s->end - s->at || !cube_member_read(s->members, s->at, buf, n)) return 0;
    s->at += n;
    return 1;
  }
  size_t got = 0;
  while (got < n) {
    la_ssize_t r = al->read_data(s->ar, buf + got, n - got);
    if (r <= 0) return 0;
    got += (size_t)r;
  }
  return 1;
}

void cube_decode_row(const cube_dtype *t, const uint8_t *row, uint32_t nl, int be, double *dst) {
  if (t->kind == CUBE_DT_DOUBLE && be == cube_native_big_endian()) /* the bytes are the doubles */
    memcpy(dst, row, (size_t)nl * sizeof *dst);
  else if (t->kind == CUBE_DT_DOUBLE)
    for (uint32_t l = 0; l < nl; l++) dst[l] = be ? rd_be_f64(row + 8 * (size_t)l) : rd_le_f64(row + 8 * (size_t)l);
  else if (t->kind == CUBE_DT_INTEGER)
    for (uint32_t l = 0; l < nl; l++) st_u64(dst + l, cube_decode_integer(t, row + (size_t)l * t->size, be));
  else
    for (uint32_t l = 0; l < nl; l++) dst[l] = cube_decode(t, row + (size_t)l * t->size, be);
}

/* One decoded row into the matrix at the row's cnode. */
static void put_row(hpcdb_cube *c, const cube_dtype *t, const uint8_t *row, uint32_t cnode, int be, double *out) {
  c->filled[cnode] = 1;
  cube_decode_row(t, row, c->a.n_locations, be, out + (size_t)cnode * c->a.n_locations);
}

/* Doubles in the host's byte order in a plain tar: each row read by the
 * kernel straight into its place in the matrix (preadv, ROWS_PER_READ rows a
 * call): no copy, no mapping. The rows are known to be in the member. */
#define ROWS_PER_READ 256
static int read_rows_in_place(hpcdb_cube *c, source *s, const cube_values *ix, size_t row_bytes, double *out) {
  struct iovec iov[ROWS_PER_READ];
  uint32_t nl = c->a.n_locations;
  for (uint32_t k = 0; k < ix->n_rows;) {
    int n = 0;
    uint64_t at = s->at;
    for (; n < ROWS_PER_READ && k < ix->n_rows; n++, k++) {
      uint32_t cnode = c->order[ix->row_pos[k]];
      c->filled[cnode] = 1;
      iov[n] = (struct iovec){out + (size_t)cnode * nl, row_bytes};
    }
    s->at += (uint64_t)n * row_bytes;
    if (!cube_member_readv(s->members, at, iov, n))
      return FAIL("data", 10 + (uint64_t)(k - (uint32_t)n) * row_bytes, "data-size", "the file ends in row %u of %u",
                  k - (uint32_t)n, ix->n_rows);
  }
  return 0;
}

static int stream_plain(hpcdb_cube *c, source *ar, const cube_values *ix, const cube_dtype *t, uint8_t *row,
                        size_t row_bytes, double *out) {
  if (!ar->ar && row_bytes && t->kind == CUBE_DT_DOUBLE && ix->big_endian == cube_native_big_endian() &&
      (ar->end - ar->at) / row_bytes >= ix->n_rows)
    return read_rows_in_place(c, ar, ix, row_bytes, out);
  for (uint32_t k = 0; k < ix->n_rows; k++) {
    if (!read_exact(ar, row, row_bytes))
      return FAIL("data", 10 + (uint64_t)k * row_bytes, "data-size", "the data ends in row %u of %u", k, ix->n_rows);
    put_row(c, t, row, c->order[ix->row_pos[k]], ix->big_endian, out);
  }
  return 0;
}

static int stream_zlib(hpcdb_cube *c, source *ar, const cube_values *ix, const cube_dtype *t, uint8_t *row,
                       size_t row_bytes, double *out) {
  uint8_t head[24];
  if (!read_exact(ar, head, 9)) return FAIL("data", 11, "data-rows", "no row count");
  uint64_t rows = 0;
  for (int i = 0; i < 8; i++) rows |= (uint64_t)head[1 + (ix->big_endian ? 7 - i : i)] << (8 * i);
  if (head[0] != 'A' || rows != ix->n_rows)
    return FAIL("data", 11, "data-rows", "%llu compressed rows for %u index entries", (unsigned long long)rows,
                ix->n_rows);
  uint64_t *zsize = malloc(((size_t)rows + 1) * sizeof *zsize);
  uLong cap = compressBound((uLong)row_bytes) + 64;
  uint8_t *z = malloc(cap);
  int rc = zsize && z ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint64_t k = 0; k < rows && rc == 0; k++) {
    if (!read_exact(ar, head, 24))
      rc = FAIL("data", 19 + 24 * k, "data-rows", "the row headers end at row %llu", (unsigned long long)k);
    else zsize[k] = ix->big_endian ? rd_be64(head + 16) : rd_le64(head + 16);
  }
  uint64_t at = 19 + 24 * rows;
  for (uint64_t k = 0; k < rows && rc == 0; k++) {
    uLongf n = (uLongf)row_bytes;
    if (zsize[k] > cap || !read_exact(ar, z, (size_t)zsize[k]) || uncompress(row, &n, z, (uLong)zsize[k]) != Z_OK ||
        n != row_bytes)
      rc = FAIL("data", at, "zlib", "row %llu does not inflate to %zu bytes", (unsigned long long)k, row_bytes);
    else put_row(c, t, row, c->order[ix->row_pos[k]], ix->big_endian, out);
    at += zsize[k];
  }
  free(zsize);
  free(z);
  return rc;
}

/* The data member, its index already known. */
static int stream_data(hpcdb_cube *c, source *ar, const cube_values *ix, const cube_dtype *t, double *out) {
  uint64_t row_bytes64;
  if (!mul_ok(c->a.n_locations, t->size, &row_bytes64) || row_bytes64 > SIZE_MAX / 2)
    return FAIL("data", 0, "count-overflow", "%u locations of %zu bytes", c->a.n_locations, t->size);
  size_t row_bytes = (size_t)row_bytes64;
  uint8_t *row = malloc(row_bytes + 16), magic[10];
  if (!row) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int rc;
  if (!read_exact(ar, magic, 10)) rc = FAIL("data", 0, "magic", "no CUBEX.DATA or ZCUBEX.DATA header");
  else if (!memcmp(magic, "CUBEX.DATA", 10)) rc = stream_plain(c, ar, ix, t, row, row_bytes, out);
  else if (!memcmp(magic, "ZCUBEX.DAT", 10)) rc = stream_zlib(c, ar, ix, t, row, row_bytes, out);
  else rc = FAIL("data", 0, "magic", "not CUBEX.DATA or ZCUBEX.DATA");
  free(row);
  return rc;
}

/* The stored flavour through the member index: the index member read whole,
 * the data read where it lies in the file. */
static int read_indexed(hpcdb_cube *c, const cube_indexed_member *im, const cube_indexed_member *dm,
                        const cube_dtype *t, double *out) {
  cube_member ixm = {malloc(im->size + 1), im->size};
  if (!ixm.data) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a %llu-byte index", (unsigned long long)im->size);
  cube_values ix = {0};
  int rc = cube_member_read(&c->members, im->offset, ixm.data, ixm.len)
               ? cube_index_parse(&ix, ixm.data, ixm.len, c->a.n_cnodes, c->path)
               : FAIL("index", 0, "truncated", "the file ends in the index");
  source src = {NULL, &c->members, dm->offset, dm->offset + dm->size};
  if (rc == 0) rc = stream_data(c, &src, &ix, t, out);
  cube_values_free(&ix);
  free(ixm.data);
  return rc;
}

/* The stored flavour of metric m into out, reading its members: the data
 * streams when its index came first (as writers put them), else it is
 * buffered and decoded once the index arrives. */
static int read_stored(hpcdb_cube *c, uint32_t m, const cube_dtype *t, double *out) {
  char ixname[32], dtname[32];
  snprintf(ixname, sizeof ixname, "%u.index", c->a.metrics[m].id);
  snprintf(dtname, sizeof dtname, "%u.data", c->a.metrics[m].id);
  if (c->members.n) { /* a plain tar: only this metric's members are read */
    const cube_indexed_member *im = cube_member_find(&c->members, ixname), *dm = cube_member_find(&c->members, dtname);
    return im && dm ? read_indexed(c, im, dm, t, out) : 0;
  }
  struct archive *ar;
  HPCDB_TRY(cube_open_archive(&ar, c->path));
  const archive_lib *al = archive_lib_loaded();
  cube_values ix = {0};
  cube_member ixm = {0}, early = {0};
  int rc = 0, done = 0;
  struct archive_entry *e;
  while (rc == 0 && !done) {
    int h = al->read_next_header(ar, &e);
    if (h == ARCHIVE_EOF) break;
    if (h != ARCHIVE_OK && h != ARCHIVE_WARN) { /* ARCHIVE_RETRY: a damaged header */
      rc = FAIL("archive", 0, "tar", "%s", al->error_string(ar));
      break;
    }
    const char *name = cube_member_name(e);
    if (!strcmp(name, ixname) && !ixm.data) {
      if ((rc = cube_read_member(ar, e, &ixm, c->path)) == 0 && !early.data)
        rc = cube_index_parse(&ix, ixm.data, ixm.len, c->a.n_cnodes, c->path);
    } else if (!strcmp(name, dtname) && !early.data) {
      source src = {ar, NULL, 0, 0};
      if (ixm.data) rc = stream_data(c, &src, &ix, t, out), done = 1;
      else rc = cube_read_member(ar, e, &early, c->path);
    }
    if (rc == 0 && !done && ixm.data && early.data) {
      cube_values v;
      rc = cube_values_decode(&v, ixm.data, ixm.len, early.data, early.len, t->size, c->a.n_locations, c->a.n_cnodes,
                              c->path, c->a.metrics[m].uniq);
      for (uint32_t k = 0; rc == 0 && k < v.n_rows; k++)
        put_row(c, t, v.data + (size_t)k * c->a.n_locations * t->size, c->order[v.row_pos[k]], v.big_endian, out);
      if (rc == 0) cube_values_free(&v);
      done = 1;
    }
  }
  cube_values_free(&ix);
  free(ixm.data);
  free(early.data);
  al->read_free(ar);
  return rc;
}

/* In place: inclusive from exclusive (children into parents, last first;
 * sum, or min / max where a child without a value counts as 0, as CubeLib),
 * or exclusive from inclusive (each node off its parent, first first: a
 * node's slot still holds its inclusive value when it is subtracted). */
static void derive(const hpcdb_cube *c, const cube_metric *m, int to_inclusive, double *out) {
  uint32_t nl = c->a.n_locations;
  if (to_inclusive) {
    for (uint32_t k = c->a.n_cnodes; k-- > 0;) {
      uint32_t p = c->parent[k];
      if (p == UINT32_MAX) continue;
      for (uint32_t l = 0; l < nl; l++) {
        double *pv = &out[(size_t)p * nl + l], x = out[(size_t)k * nl + l];
        if (m->aggregate == CUBE_MIN) *pv = x < *pv ? x : *pv;
        else if (m->aggregate == CUBE_MAX) *pv = x > *pv ? x : *pv;
        else *pv += x;
      }
    }
    return;
  }
  for (uint32_t k = 0; k < c->a.n_cnodes; k++) {
    uint32_t p = c->parent[k];
    if (p == UINT32_MAX) continue;
    for (uint32_t l = 0; l < nl; l++) out[(size_t)p * nl + l] -= out[(size_t)k * nl + l];
  }
}

/* derive() for an integer metric, modulo 2^64, then every value converted
 * (convert 0: left as the bits of the 64-bit integers). */
static void derive_integer(const hpcdb_cube *c, const cube_dtype *t, int derive_to, int convert, double *out) {
  uint32_t nl = c->a.n_locations, n = c->a.n_cnodes;
  if (derive_to == 1)
    for (uint32_t k = n; k-- > 0;) {
      uint32_t p = c->parent[k];
      if (p != UINT32_MAX)
        for (uint32_t l = 0; l < nl; l++)
          st_u64(&out[(size_t)p * nl + l], ld_u64(&out[(size_t)p * nl + l]) + ld_u64(&out[(size_t)k * nl + l]));
    }
  else if (derive_to == 0)
    for (uint32_t k = 0; k < n; k++) {
      uint32_t p = c->parent[k];
      if (p != UINT32_MAX)
        for (uint32_t l = 0; l < nl; l++)
          st_u64(&out[(size_t)p * nl + l], ld_u64(&out[(size_t)p * nl + l]) - ld_u64(&out[(size_t)k * nl + l]));
    }
  for (size_t i = 0; convert && i < (size_t)n * nl; i++) out[i] = cube_integer_to_double(t, ld_u64(&out[i]));
}

static int metric_values(hpcdb_cube *c, uint32_t m, int inclusive, int convert, double *out);

int cube_metric_matrix(hpcdb_cube *c, uint32_t m, int inclusive, int convert, double *out) {
  return metric_values(c, m, inclusive, convert, out);
}

int hpcdb_cube_metric_values(hpcdb_cube *c, uint32_t m, int inclusive, double *out) {
  return metric_values(c, m, inclusive, 1, out);
}

int hpcdb_cube_metric_integer(const hpcdb_cube *c, uint32_t m) {
  cube_dtype t;
  if (m >= c->a.n_metrics || !cube_dtype_parse(&t, c->a.metrics[m].dtype) || t.kind != CUBE_DT_INTEGER) return 0;
  return t.is_signed ? HPCDB_INTEGER_SIGNED : HPCDB_INTEGER_UNSIGNED;
}

int hpcdb_cube_metric_integers(hpcdb_cube *c, uint32_t m, int inclusive, uint64_t *out) {
  if (!hpcdb_cube_metric_integer(c, m))
    return hpcdb_fail(HPCDB_EINVAL, "%s: metric %u does not store integers", c->path, m);
  /* the matrix holds the integers' bits all the way (read and written by memcpy only) */
  return metric_values(c, m, inclusive, 0, (double *)(void *)out);
}

static int metric_values(hpcdb_cube *c, uint32_t m, int inclusive, int convert, double *out) {
  if (m >= c->a.n_metrics) return hpcdb_fail(HPCDB_EINVAL, "%s: no metric %u", c->path, m);
  const cube_metric *mt = &c->a.metrics[m];
  uint32_t nc = c->a.n_cnodes, nl = c->a.n_locations;
  cube_dtype t;
  int stored_inclusive = mt->flavour == CUBE_INCLUSIVE;
  /* nothing stored, not decoded, or no single number (SCALE_FUNC): 0 everywhere; also
   * the flavour a stored-only metric does not have, as in the model */
  if (mt->derived || !cube_dtype_parse(&t, mt->dtype) || t.kind == CUBE_DT_SCALE_FUNC ||
      (mt->stored_only && inclusive != stored_inclusive)) {
    memset(out, 0, (size_t)nc * nl * sizeof *out);
    return 0;
  }
  if (mt->flavour == CUBE_INCLUSIVE) HPCDB_TRY(cube_inclusive_order(nc, c->parent, c->kids_at, c->kids, c->order));
  else
    for (uint32_t k = 0; k < nc; k++) c->order[k] = k;
  memset(c->filled, 0, nc);
  HPCDB_TRY(read_stored(c, m, &t, out));
  for (uint32_t k = 0; k < nc; k++) /* the rows the data has none for (each matrix value is written once) */
    if (!c->filled[k]) memset(out + (size_t)k * nl, 0, (size_t)nl * sizeof *out);
  if (t.kind == CUBE_DT_INTEGER) derive_integer(c, &t, inclusive != stored_inclusive ? inclusive : -1, convert, out);
  else if (inclusive != stored_inclusive) derive(c, mt, inclusive, out);
  return 0;
}
