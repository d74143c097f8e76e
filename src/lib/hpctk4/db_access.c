/* SPDX-License-Identifier: BSD-3-Clause */
/* Zero-copy access to a v4.0 database: profile.db and cct.db stay mapped;
 * one value is found by binary search over the context (resp. metric)
 * indices, then over the metric (resp. profile) ids of that slice. Every
 * block is bounds-checked when it is used, so a corrupt block gives an error,
 * never a read outside the file. Memory does not grow with the number of
 * profiles: nothing per profile is kept. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/mapped_file.h"
#include "hpcdb/common.h"
#include "hpcdb/hpctk4.h"
#include "hpcdb/model.h"
#include "hpctk4/hpctk4_read.h"

struct hpcdb_db {
  char *dir;      /* profile.db's path (pf.path) */
  char *cct_path; /* cct.db's (cf.path) */
  hpcdb_mapped_file prof, cct;
  hpctk4_file pf, cf;
  int prof_fd;                      /* profile.db open for pread by hpcdb_db_profile_values, or -1 */
  int cct_fd;                       /* cct.db open for pread by hpcdb_db_context_scan, or -1 */
  uint64_t prof_infos, prof_stride; /* pProfiles, szProfile */
  uint32_t n_profiles;
  uint64_t ctx_infos, ctx_stride; /* pCtxs, szCtx */
  uint32_t n_ctxs;
};

/* A value block as (nValues, pValues, nIdx, pIdx), checked against the file. */
typedef struct block {
  uint64_t n_values, p_values, n_idx, p_idx;
} block;

static int open_one(hpcdb_mapped_file *m, hpctk4_file *f, const char *dir, const char *name, const char *format,
                    const char *footer, char **path_out) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *path = malloc(n);
  if (!path) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  snprintf(path, n, "%s/%s", dir, name);
  int rc = mapped_file_open(m, path);
  if (rc == 0) rc = hpctk4_open_bytes(f, m->data, m->len, path, format, footer, 1 + (format[0] == 'p'));
  *path_out = path;
  return rc;
}

/* The section-0 header of profile.db or cct.db: array pointer, count, stride. */
static int array_header(const hpctk4_file *f, const char *section, uint64_t min_stride, uint64_t *p, uint32_t *n,
                        uint64_t *stride) {
  uint64_t s = f->sec_off[0], total;
  if (f->sec_size[0] < 0xd)
    return hpcdb_fail_at(HPCDB_ECORRUPT, f->path, section, s, "section-bounds", "section too small for its header");
  *p = rd_le64(f->data + s);
  *n = rd_le32(f->data + s + 8);
  *stride = f->data[s + 0xc];
  if (*stride < min_stride || !mul_ok(*n, *stride, &total) || *p < s || !in_bounds(f->sec_size[0], *p - s, total))
    return hpcdb_fail_at(HPCDB_ECORRUPT, f->path, section, s, "section-bounds",
                         "%u entries of %llu bytes at 0x%llx are not inside the section", *n,
                         (unsigned long long)*stride, (unsigned long long)*p);
  return 0;
}

int hpcdb_db_open(hpcdb_db **out, const char *dir) {
  *out = NULL;
  hpcdb_db *db = calloc(1, sizeof *db);
  if (!db) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  db->cct_fd = -1;
  int rc = open_one(&db->prof, &db->pf, dir, "profile.db", "prof", "_prof.db", &db->dir);
  db->pf.path = db->dir; /* messages name the file */
  db->prof_fd = db->dir ? open(db->dir, O_RDONLY | O_CLOEXEC) : -1;
  if (rc == 0) rc = array_header(&db->pf, "Profile Info", 0x2c, &db->prof_infos, &db->n_profiles, &db->prof_stride);
  if (rc == 0) {
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/cct.db", dir);
    FILE *fp = fopen(probe, "rb");
    if (fp) {
      fclose(fp);
      rc = open_one(&db->cct, &db->cf, dir, "cct.db", "ctxt", "__ctx.db", &db->cct_path);
      db->cf.path = db->cct_path;
      if (rc == 0) db->cct_fd = open(db->cct_path, O_RDONLY | O_CLOEXEC);
      if (rc == 0) rc = array_header(&db->cf, "Context Info", 0x20, &db->ctx_infos, &db->n_ctxs, &db->ctx_stride);
    }
  }
  if (rc < 0) {
    hpcdb_db_close(db);
    return rc;
  }
  *out = db;
  return 0;
}

void hpcdb_db_close(hpcdb_db *db) {
  if (!db) return;
  mapped_file_close(&db->prof);
  mapped_file_close(&db->cct);
  if (db->prof_fd >= 0) close(db->prof_fd);
  if (db->cct_fd >= 0) close(db->cct_fd);
  free(db->dir);
  free(db->cct_path);
  free(db);
}

uint32_t hpcdb_db_profile_count(const hpcdb_db *db) { return db->n_profiles; }
uint32_t hpcdb_db_context_count(const hpcdb_db *db) { return db->n_ctxs; }

/* Reads and checks the block header at off: values of val_size bytes and
 * index entries of idx_size bytes must lie inside the file. */
static int load_block(const hpctk4_file *f, uint64_t off, uint64_t val_size, uint64_t idx_size, int idx_is_u16,
                      block *b) {
  const uint8_t *h = f->data + off;
  b->n_values = rd_le64(h);
  b->p_values = rd_le64(h + 8);
  b->n_idx = idx_is_u16 ? rd_le16(h + 0x10) : rd_le32(h + 0x10);
  b->p_idx = rd_le64(h + 0x18);
  uint64_t vbytes, ibytes;
  if (!mul_ok(b->n_values, val_size, &vbytes) || !in_bounds(f->len, b->p_values, vbytes) ||
      !mul_ok(b->n_idx, idx_size, &ibytes) || !in_bounds(f->len, b->p_idx, ibytes))
    return hpcdb_fail_at(HPCDB_ECORRUPT, f->path, "values", off, "values-bounds", "value block is not inside the file");
  return 0;
}

/* Start and end value index of index entry k (entries: key then u64 start);
 * idx: the index's bytes (the file's at b->p_idx, or a copy of them). */
static int slice_in(const hpctk4_file *f, const block *b, const uint8_t *idx, uint64_t k, uint64_t idx_size,
                    uint64_t key_size, uint64_t *lo, uint64_t *hi) {
  *lo = rd_le64(idx + k * idx_size + key_size);
  *hi = k + 1 < b->n_idx ? rd_le64(idx + (k + 1) * idx_size + key_size) : b->n_values;
  if (*lo > *hi || *hi > b->n_values)
    return hpcdb_fail_at(HPCDB_ECORRUPT, f->path, "values", b->p_idx + k * idx_size, "start-index",
                         "startIndex out of order or past nValues");
  return 0;
}

static int slice(const hpctk4_file *f, const block *b, uint64_t k, uint64_t idx_size, uint64_t key_size, uint64_t *lo,
                 uint64_t *hi) {
  return slice_in(f, b, f->data + b->p_idx, k, idx_size, key_size, lo, hi);
}

static uint32_t key_at(const hpctk4_file *f, uint64_t p, uint64_t key_size) {
  return key_size == 4 ? rd_le32(f->data + p) : rd_le16(f->data + p);
}

/* Binary search for key among n entries of size stride at p (key first). */
static int search(const hpctk4_file *f, uint64_t p, uint64_t n, uint64_t stride, uint64_t key_size, uint32_t key,
                  uint64_t *at) {
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (key_at(f, p + mid * stride, key_size) < key) lo = mid + 1;
    else hi = mid;
  }
  *at = lo;
  return lo < n && key_at(f, p + lo * stride, key_size) == key;
}

int hpcdb_db_profile_value(const hpcdb_db *db, uint32_t profile, uint32_t ctx_id, uint16_t metric_id, double *out) {
  *out = 0;
  if (profile >= db->n_profiles) return hpcdb_fail(HPCDB_EINVAL, "profile %u does not exist", profile);
  block b;
  HPCDB_TRY(load_block(&db->pf, db->prof_infos + profile * db->prof_stride, 10, 12, 0, &b));
  uint64_t k, lo, hi, v;
  if (!search(&db->pf, b.p_idx, b.n_idx, 12, 4, ctx_id, &k)) return 0;
  HPCDB_TRY(slice(&db->pf, &b, k, 12, 4, &lo, &hi));
  if (!search(&db->pf, b.p_values + lo * 10, hi - lo, 10, 2, metric_id, &v)) return 0;
  *out = rd_le_f64(db->pf.data + b.p_values + (lo + v) * 10 + 2);
  return 1;
}

int hpcdb_db_context_value(const hpcdb_db *db, uint32_t ctx_id, uint16_t metric_id, uint32_t profile, double *out) {
  *out = 0;
  if (!db->cf.data) return hpcdb_fail(HPCDB_EINVAL, "%s: the database has no cct.db", db->dir);
  if (ctx_id >= db->n_ctxs) return 0;
  block b;
  HPCDB_TRY(load_block(&db->cf, db->ctx_infos + ctx_id * db->ctx_stride, 12, 10, 1, &b));
  uint64_t k, lo, hi, v;
  if (!search(&db->cf, b.p_idx, b.n_idx, 10, 2, metric_id, &k)) return 0;
  HPCDB_TRY(slice(&db->cf, &b, k, 10, 2, &lo, &hi));
  if (!search(&db->cf, b.p_values + lo * 12, hi - lo, 12, 4, profile, &v)) return 0;
  *out = rd_le_f64(db->cf.data + b.p_values + (lo + v) * 12 + 4);
  return 1;
}

int hpcdb_db_profile_scan(const hpcdb_db *db, uint32_t profile, hpcdb_value_fn fn, void *user) {
  if (profile >= db->n_profiles) return hpcdb_fail(HPCDB_EINVAL, "profile %u does not exist", profile);
  block b;
  HPCDB_TRY(load_block(&db->pf, db->prof_infos + profile * db->prof_stride, 10, 12, 0, &b));
  for (uint64_t k = 0; k < b.n_idx; k++) {
    uint64_t lo, hi;
    HPCDB_TRY(slice(&db->pf, &b, k, 12, 4, &lo, &hi));
    uint32_t ctx = rd_le32(db->pf.data + b.p_idx + 12 * k);
    for (uint64_t v = lo; v < hi; v++) {
      const uint8_t *e = db->pf.data + b.p_values + 10 * v;
      int rc = fn(user, ctx, rd_le16(e), rd_le_f64(e + 2));
      if (rc) return rc;
    }
  }
  /* The block's pages leave this process (they stay in the page cache): a
   * scan of every profile keeps a resident set of one block, not the file. */
  mapped_file_release(&db->prof, b.p_values, 10 * b.n_values);
  mapped_file_release(&db->prof, b.p_idx, 12 * b.n_idx);
  return 0;
}

int hpcdb_db_profile_values(const hpcdb_db *db, uint32_t profile, hpcdb_profile *out) {
  out->n_ctxs = 0;
  out->n_values = 0;
  out->ctx_ids = NULL;
  out->ctx_starts = NULL;
  out->metric_ids = NULL;
  out->values = NULL;
  if (profile >= db->n_profiles) return hpcdb_fail(HPCDB_EINVAL, "profile %u does not exist", profile);
  return hpctk4_decode_profile(&db->pf, db->prof_fd, db->prof_infos + profile * db->prof_stride, out);
}

/* A whole context's block (index, then values) copied with pread into *buf:
 * its pages never enter the process, so a pass over every context keeps a
 * resident set of one block, with no madvise to drop them (whose TLB
 * shootdowns cost more than the copy). Without an fd, the mapped bytes. */
static int block_bytes(const hpcdb_db *db, const block *b, uint8_t **buf, const uint8_t **idx, const uint8_t **values) {
  *buf = NULL;
  *idx = db->cf.data + b->p_idx;
  *values = db->cf.data + b->p_values;
  if (db->cct_fd < 0) return 0;
  uint64_t ibytes = 10 * b->n_idx, vbytes = 12 * b->n_values; /* load_block checked both are inside the file */
  if (!(*buf = malloc(ibytes + vbytes ? ibytes + vbytes : 1)))
    return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory for %llu values", db->cf.path, (unsigned long long)b->n_values);
  int rc = read_at(db->cct_fd, *buf, ibytes, b->p_idx, db->cf.path);
  if (rc == 0) rc = read_at(db->cct_fd, *buf + ibytes, vbytes, b->p_values, db->cf.path);
  *idx = *buf;
  *values = *buf + ibytes;
  return rc;
}

int hpcdb_db_context_scan(const hpcdb_db *db, uint32_t ctx_id, uint32_t metric_id, hpcdb_value_fn fn, void *user) {
  if (!db->cf.data) return hpcdb_fail(HPCDB_EINVAL, "%s: the database has no cct.db", db->dir);
  if (ctx_id >= db->n_ctxs) return 0;
  block b;
  HPCDB_TRY(load_block(&db->cf, db->ctx_infos + ctx_id * db->ctx_stride, 12, 10, 1, &b));
  uint64_t first = 0, last = b.n_idx;
  if (metric_id != HPCDB_ALL_METRICS) {
    if (!search(&db->cf, b.p_idx, b.n_idx, 10, 2, metric_id, &first)) return 0;
    last = first + 1;
  }
  uint8_t *buf = NULL;
  const uint8_t *idx = db->cf.data + b.p_idx, *values = db->cf.data + b.p_values;
  int rc = metric_id == HPCDB_ALL_METRICS ? block_bytes(db, &b, &buf, &idx, &values) : 0;
  for (uint64_t k = first; k < last && rc == 0; k++) {
    uint64_t lo, hi;
    if ((rc = slice_in(&db->cf, &b, idx, k, 10, 2, &lo, &hi)) < 0) break;
    uint16_t metric = rd_le16(idx + 10 * k);
    for (uint64_t v = lo; v < hi && rc == 0; v++)
      rc = fn(user, metric, rd_le32(values + 12 * v), rd_le_f64(values + 12 * v + 4));
  }
  free(buf);
  return rc;
}
