/* SPDX-License-Identifier: BSD-3-Clause */
/* profile.db v4.0 into the model: the profile infos, their identifier
 * tuples, and each profile's sparse values, decoded straight from the
 * mapped file into the model's CSR arrays (ahead, on two threads, for a
 * large file). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/worker.h"
#include "hpctk4/hpctk4_read.h"
#include "model/model_build.h"

enum { SEC_INFOS, SEC_TUPLES, N_SECTIONS };

typedef struct profile_reader {
  hpctk4_file f;
  hpcdb_experiment *exp;
} profile_reader;

#define FAIL_IN(file, status, section, off, rule, ...) \
  hpcdb_fail_at(status, (file)->path, section, off, rule, __VA_ARGS__)
#define FAIL(...) FAIL_IN(&r->f, __VA_ARGS__)

static int read_id_tuple(profile_reader *r, uint64_t p, uint64_t where, hpcdb_id **ids, uint16_t *n) {
  uint64_t lo = r->f.sec_off[SEC_TUPLES], size = r->f.sec_size[SEC_TUPLES];
  if (p % 8 != 0 || p < lo || !in_bounds(size, p - lo, 8))
    return FAIL(HPCDB_ECORRUPT, "Profile Info", where, "pointer-target",
                "pIdTuple 0x%llx is not an aligned tuple in the Identifier Tuples section", (unsigned long long)p);
  *n = rd_le16(r->f.data + p);
  if (!in_bounds(size, p - lo + 8, 16 * (uint64_t)*n))
    return FAIL(HPCDB_ECORRUPT, "Identifier Tuples", p, "section-bounds", "%u identifiers run past the section", *n);
  *ids = calloc(*n ? *n : 1, sizeof **ids);
  if (!*ids) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint16_t i = 0; i < *n; i++) {
    const uint8_t *e = r->f.data + p + 8 + 16 * (uint64_t)i;
    (*ids)[i] = (hpcdb_id){e[0], rd_le16(e + 2), rd_le32(e + 4), rd_le64(e + 8)};
  }
  return 0;
}

/* One profile's values, decoded into the model's CSR arrays. */
typedef struct decoded {
  uint32_t n_ctxs;
  uint64_t n_values;
  uint32_t *ctx;
  uint64_t *starts;
  uint16_t *mid;
  double *val;
  int ready; /* decoded ahead and not yet adopted */
} decoded;

static void free_decoded(decoded *d) {
  free(d->ctx);
  free(d->starts);
  free(d->mid);
  free(d->val);
  memset(d, 0, sizeof *d);
}

/* The index and value arrays of value blocks, each read in order. */
typedef struct block_reader {
  hpctk4_chunks idx, val;
  uint8_t *buf;
} block_reader;

static void block_reader_open(block_reader *br, const hpctk4_file *f, int fd) {
  br->buf = fd >= 0 ? malloc(2 * HPCTK4_CHUNK_BYTES) : NULL; /* NULL: the mapped bytes */
  hpctk4_chunks_init(&br->idx, fd, f->data, f->len, br->buf);
  hpctk4_chunks_init(&br->val, fd, f->data, f->len, br->buf ? br->buf + HPCTK4_CHUNK_BYTES : NULL);
}

/* Decodes the Profile-Major Sparse Value Block at block into d. */
static int decode_values(const hpctk4_file *f, block_reader *br, uint64_t block, decoded *d) {
  const uint8_t *b = f->data + block;
  uint64_t n_values = rd_le64(b), p_values = rd_le64(b + 8), p_idx = rd_le64(b + 0x18);
  uint32_t n_ctxs = rd_le32(b + 0x10);
  uint64_t bytes;
  if (!mul_ok(n_values, 10, &bytes) || !in_bounds(f->len, p_values, bytes))
    return FAIL_IN(f, HPCDB_ECORRUPT, "values", block, "values-bounds", "%llu values at 0x%llx are not inside the file",
                   (unsigned long long)n_values, (unsigned long long)p_values);
  if (!in_bounds(f->len, p_idx, 12 * (uint64_t)n_ctxs))
    return FAIL_IN(f, HPCDB_ECORRUPT, "values", block + 0x18, "values-bounds",
                   "%u context indices at 0x%llx are not inside the file", n_ctxs, (unsigned long long)p_idx);
  if (n_values && !n_ctxs)
    return FAIL_IN(f, HPCDB_ECORRUPT, "values", block, "start-index", "%llu values belong to no context",
                   (unsigned long long)n_values);
  hpcdb_profile csr;
  int rc = model_csr_alloc(&csr, n_ctxs, n_values);
  *d = (decoded){n_ctxs, n_values, csr.ctx_ids, csr.ctx_starts, csr.metric_ids, csr.values, 0};
  uint32_t *ctx = d->ctx;
  uint64_t *starts = d->starts;
  uint16_t *mid = d->mid;
  double *val = d->val;
  if (rc < 0) goto fail;
  for (uint32_t k = 0; k < n_ctxs; k++) {
    const uint8_t *e = hpctk4_chunk(&br->idx, p_idx + 12 * (uint64_t)k, 12);
    ctx[k] = rd_le32(e);
    starts[k] = rd_le64(e + 4);
    if ((k == 0 && starts[0] != 0) || (k > 0 && starts[k] < starts[k - 1]) || starts[k] > n_values) {
      rc = FAIL_IN(f, HPCDB_ECORRUPT, "values", p_idx + 12 * (uint64_t)k + 4, "start-index",
                   "startIndex %llu out of order or past nValues %llu", (unsigned long long)starts[k],
                   (unsigned long long)n_values);
      goto fail;
    }
    if (k > 0 && ctx[k] <= ctx[k - 1]) {
      rc = FAIL_IN(f, HPCDB_ECORRUPT, "values", p_idx + 12 * (uint64_t)k, "sorted-ctx",
                   "ctxId %u after %u: context indices are not strictly ascending", ctx[k], ctx[k - 1]);
      goto fail;
    }
  }
  starts[n_ctxs] = n_values;
  for (uint32_t k = 0; k < n_ctxs; k++) {
    int32_t prev = -1; /* below every metric id */
    for (uint64_t v = starts[k]; v < starts[k + 1];) {
      uint64_t take = starts[k + 1] - v < HPCTK4_CHUNK_BYTES / 10 ? starts[k + 1] - v : HPCTK4_CHUNK_BYTES / 10;
      const uint8_t *e = hpctk4_chunk(&br->val, p_values + 10 * v, 10 * take);
      for (uint64_t end = v + take; v < end; v++, e += 10) {
        mid[v] = rd_le16(e);
        val[v] = rd_le_f64(e + 2);
        if ((int32_t)mid[v] <= prev) {
          rc = FAIL_IN(f, HPCDB_ECORRUPT, "values", p_values + 10 * v, "sorted-metric",
                       "metricId %u after %u in context %u: not strictly ascending", mid[v], mid[v - 1], ctx[k]);
          goto fail;
        }
        prev = mid[v];
      }
    }
  }
  return 0;
fail:
  free_decoded(d);
  return rc;
}

int hpctk4_decode_profile(const hpctk4_file *f, int fd, uint64_t info, hpcdb_profile *out) {
  block_reader br;
  block_reader_open(&br, f, fd);
  decoded d;
  int rc = decode_values(f, &br, info, &d);
  free(br.buf);
  HPCDB_TRY(rc);
  out->n_ctxs = d.n_ctxs;
  out->n_values = d.n_values;
  out->ctx_ids = d.ctx;
  out->ctx_starts = d.starts;
  out->metric_ids = d.mid;
  out->values = d.val;
  return 0;
}

/* Profile i's values into profile index pi: decoded ahead or now. */
static int read_values(profile_reader *r, block_reader *br, uint64_t block, decoded *ahead, uint32_t pi) {
  decoded now;
  decoded *d = ahead && ahead->ready ? ahead : &now;
  if (d == &now) HPCDB_TRY(decode_values(&r->f, br, block, d));
  int rc = hpcdb_profile_adopt_csr(r->exp, pi, d->n_ctxs, d->ctx, d->starts, d->n_values, d->mid, d->val);
  memset(d, 0, sizeof *d); /* adopted, or freed by the model */
  return rc;
}

/* Decoding ahead on two threads: faulting in and filling the model's arrays
 * is most of the time a large profile.db takes. Each thread decodes every other
 * profile and stops at its first error; the sequential pass then adopts the
 * decoded profiles in order and decodes the rest itself, so an error is the
 * same one, with the same message, as without threads. */
enum { AHEAD_MIN_BYTES = 1 << 20 };

typedef struct ahead_job {
  const hpctk4_file *f;
  int fd;
  uint64_t p, stride;
  uint32_t n, first;
  decoded *out;
} ahead_job;

static void *decode_ahead(void *arg) {
  ahead_job *j = arg;
  block_reader br;
  block_reader_open(&br, j->f, j->fd);
  for (uint32_t i = j->first; i < j->n; i += 2) {
    if (decode_values(j->f, &br, j->p + i * j->stride, &j->out[i]) < 0) break;
    j->out[i].ready = 1;
  }
  free(br.buf);
  return NULL;
}

/* The decoded profiles (NULL: decode each when it is read). */
static decoded *decode_all_ahead(const hpctk4_file *f, int fd, uint64_t p, uint64_t stride, uint32_t n) {
  if (n < 2 || f->len < AHEAD_MIN_BYTES) return NULL;
  decoded *out = calloc(n, sizeof *out);
  if (!out) return NULL;
  ahead_job odd = {f, fd, p, stride, n, 1, out}, even = {f, fd, p, stride, n, 0, out};
  worker_thread helper;
  worker_start(&helper, 1, decode_ahead, &odd); /* without it, the odd ones are decoded when read */
  decode_ahead(&even);
  worker_join(&helper);
  return out;
}

int hpctk4_parse_profile(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path) {
  return hpctk4_parse_profile_fd(exp, data, len, -1, path);
}

int hpctk4_parse_profile_fd(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, int fd, const char *path) {
  return hpctk4_parse_profile_opts(exp, data, len, fd, path, 0);
}

/* Whether one of the n profile infos at p is a summary profile. */
static int has_summary(const uint8_t *data, uint64_t p, uint64_t stride, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (rd_le32(data + p + i * stride + 0x28) & HPCDB_PROFILE_SUMMARY) return 1;
  return 0;
}

int hpctk4_parse_profile_opts(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, int fd, const char *path,
                              unsigned flags) {
  profile_reader rr = {0}, *r = &rr;
  r->exp = exp;
  HPCDB_TRY(hpctk4_open_bytes(&r->f, data, len, path, "prof", "_prof.db", N_SECTIONS));
  uint64_t s = r->f.sec_off[SEC_INFOS];
  if (!in_bounds(r->f.sec_size[SEC_INFOS], 0, 0xd))
    return FAIL(HPCDB_ECORRUPT, "Profile Info", s, "section-bounds", "section too small for its header");
  uint64_t p = rd_le64(data + s), stride = data[s + 0xc], total;
  uint32_t n = rd_le32(data + s + 8);
  if (stride < 0x2c)
    return FAIL(HPCDB_ECORRUPT, "Profile Info", s + 0xc, "stride", "szProfile %llu is smaller than 44",
                (unsigned long long)stride);
  if (!mul_ok(n, stride, &total) || p < s || (n && p % 8) || !in_bounds(r->f.sec_size[SEC_INFOS], p - s, total))
    return FAIL(HPCDB_ECORRUPT, "Profile Info", s, "section-bounds",
                "%u profile infos at 0x%llx are not an aligned array inside the section", n, (unsigned long long)p);
  /* summary only (when there is one): the other profiles keep no values, and one profile needs no threads */
  int summary_only = (flags & HPCDB_READ_SUMMARY_ONLY) && has_summary(data, p, stride, n);
  decoded *ahead = summary_only ? NULL : decode_all_ahead(&r->f, fd, p, stride, n);
  block_reader br;
  block_reader_open(&br, &r->f, fd);
  int rc = 0;
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    uint64_t e = p + i * stride;
    uint64_t p_tuple = rd_le64(data + e + 0x20);
    hpcdb_id *ids = NULL;
    uint16_t n_ids = 0;
    if (p_tuple && (rc = read_id_tuple(r, p_tuple, e + 0x20, &ids, &n_ids)) < 0) break;
    uint32_t pi;
    rc = hpcdb_add_profile(exp, rd_le32(data + e + 0x28), p_tuple != 0, ids, n_ids, &pi);
    free(ids);
    if (rc == 0 && !(summary_only && !(rd_le32(data + e + 0x28) & HPCDB_PROFILE_SUMMARY)))
      rc = read_values(r, &br, e, ahead ? &ahead[i] : NULL, pi);
  }
  free(br.buf);
  for (uint32_t i = 0; ahead && i < n; i++) free_decoded(&ahead[i]);
  free(ahead);
  return rc;
}
