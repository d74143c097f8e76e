/* SPDX-License-Identifier: BSD-3-Clause */
/* profile.db (HPCPROF-profdb__) into the model: one profile per profile
 * info, its identifier tuple, and its values decoded straight into CSR
 * arrays sized by the (checked) counts of that one profile. */
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/mapped_file.h"
#include "model/model_build.h"
#include "older/hpcprof1/hp1_file.h"
#include "older/hpcprof1/hp1_read.h"
#include "older/hpcprof1/hpcprof1.h"

/* Names kind_names[0..kind] that the experiment does not name yet. */
static int ensure_kind(hpcdb_experiment *exp, uint16_t kind) {
  char name[16];
  while (exp->n_kind_names <= kind) {
    snprintf(name, sizeof name, "KIND%u", exp->n_kind_names);
    HPCDB_TRY(hpcdb_add_kind_name(exp, name, NULL));
  }
  return 0;
}

static int add_thread_profile(hpcdb_experiment *exp, const hpcprof1_file *f, const hpcprof1_pinfo *pi, uint32_t *out) {
  hpcprof1_problem pb;
  uint16_t n;
  uint64_t elems;
  if (hpcprof1_tuple_check(f, pi->tuple, pi->at, &n, &elems, &pb)) return hpcprof1_fail(f, "Profile Info", &pb);
  hpcdb_id *ids = calloc(n ? n : 1, sizeof *ids);
  if (!ids) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for an identifier tuple");
  int rc = 0;
  for (uint16_t i = 0; i < n && rc == 0; i++) {
    uint16_t kind;
    if (hpcprof1_tuple_element(f->d + elems + 18 * (uint64_t)i, &kind, &ids[i]) < 0)
      rc = hpcdb_fail_at(HPCDB_EUNSUPPORTED, f->path, "Identifier Tuple", elems + 18 * (uint64_t)i + 10,
                         "logical-id-range", "logical id does not fit 32 bits");
    if (rc == 0) rc = ensure_kind(exp, kind);
  }
  if (rc == 0) rc = hpcdb_add_profile(exp, 0, 1, ids, n, out);
  free(ids);
  return rc;
}

typedef struct pair {
  uint16_t metric;
  double value;
} pair;

static int by_metric(const void *a, const void *b) {
  const pair *x = a, *y = b;
  return x->metric < y->metric ? -1 : x->metric > y->metric;
}

/* Sorts one context's mapped values by metric id (the map may reorder them). */
static int sort_slice(uint16_t *mid, double *val, uint64_t n) {
  pair *tmp = malloc(n * sizeof *tmp);
  if (!tmp) return hpcdb_fail(HPCDB_ENOMEM, "out of memory sorting %llu values", (unsigned long long)n);
  for (uint64_t i = 0; i < n; i++) tmp[i] = (pair){mid[i], val[i]};
  qsort(tmp, n, sizeof *tmp, by_metric);
  for (uint64_t i = 0; i < n; i++) {
    mid[i] = tmp[i].metric;
    val[i] = tmp[i].value;
  }
  free(tmp);
  return 0;
}

static uint16_t map_id(const uint16_t *map, uint32_t n, uint16_t id) { return map && id < n ? map[id] : id; }

/* Decodes the block of pi into profile index p through the metric map. */
static int read_values(hpcdb_experiment *exp, const hpcprof1_file *f, const hpcprof1_pinfo *pi, uint32_t p,
                       const uint16_t *map, uint32_t n_map, uint64_t *used) {
  hpcprof1_problem pb;
  if (hpcprof1_pblock_check(f, pi, &pb) || hpcprof1_claim(f, used, hpcprof1_pblock_size(pi), pi->at + 44, &pb))
    return hpcprof1_fail(f, "Profile Sparse Value Block", &pb);
  uint64_t nv = pi->n_values, idx = hpcprof1_pblock_index(pi);
  uint32_t nc = pi->n_ctxs;
  hpcdb_profile csr;
  int rc = model_csr_alloc(&csr, nc, nv);
  uint32_t *ctx = csr.ctx_ids;
  uint64_t *starts = csr.ctx_starts;
  uint16_t *mid = csr.metric_ids;
  double *val = csr.values;
  if (rc < 0) goto done;
  uint64_t kept = 0;
  uint32_t kept_ctxs = 0;
  for (uint32_t k = 0; k < nc && rc == 0; k++) {
    const uint8_t *e = f->d + idx + 12 * (uint64_t)k;
    uint64_t lo = rd_be64(e + 4), hi = rd_be64(e + 16), first = kept;
    int sorted = 1;
    for (uint64_t v = lo; v < hi; v++) {
      const uint8_t *x = f->d + pi->block + 10 * v;
      uint16_t m = map_id(map, n_map, rd_be16(x + 8));
      if (m == HPCPROF1_DROP) continue;
      if (kept > first && m <= mid[kept - 1]) sorted = 0;
      mid[kept] = m;
      val[kept++] = rd_be_f64(x);
    }
    if (!sorted) rc = sort_slice(mid + first, val + first, kept - first);
    for (uint64_t v = first + 1; rc == 0 && v < kept; v++)
      if (mid[v] == mid[v - 1])
        rc = hpcdb_fail_at(HPCDB_ECORRUPT, f->path, "Profile Sparse Value Block", pi->block + 10 * lo,
                           "duplicate-metric", "context %u has two values of metric %u", rd_be32(e), mid[v]);
    if (kept > first) {
      ctx[kept_ctxs] = rd_be32(e);
      starts[kept_ctxs++] = first;
    }
  }
  if (rc < 0) goto done;
  starts[kept_ctxs] = kept;
  rc = hpcdb_profile_adopt_csr(exp, p, kept_ctxs, ctx, starts, kept, mid, val);
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

int hpcprof1_parse_profiles(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path,
                            const hpcprof1_metric_map *map, uint32_t *first_profile) {
  hpcprof1_file f;
  hpcprof1_problem pb;
  if (hpcprof1_open(&f, &hpcprof1_profile_kind, data, len, path, &pb)) return hpcprof1_fail(&f, "header", &pb);
  if (f.count == 0)
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "header", 18, "summary-profile",
                         "no profile info: info 0 must be the summary");
  *first_profile = exp->n_profiles;
  uint64_t used = 0;
  for (uint32_t i = 0; i < f.count; i++) {
    hpcprof1_pinfo pi;
    uint32_t p;
    hpcprof1_pinfo_read(&f, i, &pi);
    if (i == 0) HPCDB_TRY(hpcdb_add_profile(exp, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, &p));
    else HPCDB_TRY(add_thread_profile(exp, &f, &pi, &p));
    const uint16_t *m = map ? (i == 0 ? map->summary : map->thread) : NULL;
    uint32_t n = map ? (i == 0 ? map->n_summary : map->n_thread) : 0;
    HPCDB_TRY(read_values(exp, &f, &pi, p, m, n, &used));
  }
  return 0;
}

int hpcprof1_read_profiles(hpcdb_experiment *exp, const char *profile_db_path, const hpcprof1_metric_map *map,
                           uint32_t *first_profile) {
  hpcdb_mapped_file mf;
  HPCDB_TRY(mapped_file_open(&mf, profile_db_path));
  int rc = hpcprof1_parse_profiles(exp, mf.data, mf.len, profile_db_path, map, first_profile);
  return mapped_file_finish(&mf, profile_db_path, rc);
}
