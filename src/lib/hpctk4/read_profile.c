/* profile.db v4.0 into the model: the profile infos, their identifier
 * tuples, and each profile's sparse values, decoded straight from the
 * mapped file into the model's CSR arrays. */
#include <stdlib.h>

#include "common/error.h"
#include "hpctk4/hpctk4_read.h"

enum { SEC_INFOS, SEC_TUPLES, N_SECTIONS };

typedef struct profile_reader {
  hpctk4_file f;
  hpcdb_experiment *exp;
} profile_reader;

#define FAIL(status, section, off, rule, ...) hpcdb_fail_at(status, r->f.path, section, off, rule, __VA_ARGS__)

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

/* One Profile-Major Sparse Value Block into profile index pi. */
static int read_values(profile_reader *r, uint64_t block, uint32_t pi) {
  const uint8_t *b = r->f.data + block;
  uint64_t n_values = rd_le64(b), p_values = rd_le64(b + 8), p_idx = rd_le64(b + 0x18);
  uint32_t n_ctxs = rd_le32(b + 0x10);
  uint64_t bytes;
  if (!mul_ok(n_values, 10, &bytes) || !in_bounds(r->f.len, p_values, bytes))
    return FAIL(HPCDB_ECORRUPT, "values", block, "values-bounds", "%llu values at 0x%llx are not inside the file",
                (unsigned long long)n_values, (unsigned long long)p_values);
  if (!in_bounds(r->f.len, p_idx, 12 * (uint64_t)n_ctxs))
    return FAIL(HPCDB_ECORRUPT, "values", block + 0x18, "values-bounds",
                "%u context indices at 0x%llx are not inside the file", n_ctxs, (unsigned long long)p_idx);
  if (n_values && !n_ctxs)
    return FAIL(HPCDB_ECORRUPT, "values", block, "start-index", "%llu values belong to no context",
                (unsigned long long)n_values);
  uint32_t *ctx = malloc(((size_t)n_ctxs + 1) * sizeof *ctx);
  uint64_t *starts = malloc(((size_t)n_ctxs + 1) * sizeof *starts);
  uint16_t *mid = malloc((n_values ? n_values : 1) * sizeof *mid);
  double *val = malloc((n_values ? n_values : 1) * sizeof *val);
  int rc = 0;
  if (!ctx || !starts || !mid || !val) {
    rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for %llu values", (unsigned long long)n_values);
    goto done;
  }
  for (uint32_t k = 0; k < n_ctxs; k++) {
    const uint8_t *e = r->f.data + p_idx + 12 * (uint64_t)k;
    ctx[k] = rd_le32(e);
    starts[k] = rd_le64(e + 4);
    if ((k == 0 && starts[0] != 0) || (k > 0 && starts[k] < starts[k - 1]) || starts[k] > n_values) {
      rc = FAIL(HPCDB_ECORRUPT, "values", p_idx + 12 * (uint64_t)k + 4, "start-index",
                "startIndex %llu out of order or past nValues %llu", (unsigned long long)starts[k],
                (unsigned long long)n_values);
      goto done;
    }
    if (k > 0 && ctx[k] <= ctx[k - 1]) {
      rc = FAIL(HPCDB_ECORRUPT, "values", p_idx + 12 * (uint64_t)k, "sorted-ctx",
                "ctxId %u after %u: context indices are not strictly ascending", ctx[k], ctx[k - 1]);
      goto done;
    }
  }
  starts[n_ctxs] = n_values;
  for (uint64_t v = 0; v < n_values; v++) {
    const uint8_t *e = r->f.data + p_values + 10 * v;
    mid[v] = rd_le16(e);
    val[v] = rd_le_f64(e + 2);
  }
  for (uint32_t k = 0; k < n_ctxs; k++)
    for (uint64_t v = starts[k] + 1; v < starts[k + 1]; v++)
      if (mid[v] <= mid[v - 1]) {
        rc = FAIL(HPCDB_ECORRUPT, "values", p_values + 10 * v, "sorted-metric",
                  "metricId %u after %u in context %u: not strictly ascending", mid[v], mid[v - 1], ctx[k]);
        goto done;
      }
  rc = hpcdb_profile_adopt_csr(r->exp, pi, n_ctxs, ctx, starts, n_values, mid, val);
  ctx = NULL;
  starts = NULL;
  mid = NULL;
  val = NULL;
done:
  free(ctx);
  free(starts);
  free(mid);
  free(val);
  return rc;
}

int hpctk4_parse_profile(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path) {
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
  for (uint32_t i = 0; i < n; i++) {
    uint64_t e = p + i * stride;
    uint64_t p_tuple = rd_le64(data + e + 0x20);
    hpcdb_id *ids = NULL;
    uint16_t n_ids = 0;
    if (p_tuple) HPCDB_TRY(read_id_tuple(r, p_tuple, e + 0x20, &ids, &n_ids));
    uint32_t pi;
    int rc = hpcdb_add_profile(exp, rd_le32(data + e + 0x28), p_tuple != 0, ids, n_ids, &pi);
    free(ids);
    HPCDB_TRY(rc);
    HPCDB_TRY(read_values(r, e, pi));
  }
  return 0;
}
