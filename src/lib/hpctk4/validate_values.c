/* Rules of profile.db and cct.db v4.0, including that cct.db holds exactly
 * the transpose of the non-summary values of profile.db (checked value by
 * value with binary searches into the mapped profile.db: no copy). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "hpctk4/validate.h"

static const uint8_t *p8(const vfile *f, uint64_t off) { return f->d + off; }

/* Checks an identifier tuple at p inside section 2 of profile.db. */
static void check_id_tuple(validator *v, const vfile *f, uint64_t p, uint64_t where) {
  if (p % 8 != 0) {
    VERR(v, f, where, "alignment", "pIdTuple 0x%llx is not 8-byte aligned", (unsigned long long)p);
    return;
  }
  if (!vin_section(v, f, 1, p, 8, "pointer-target", "identifier tuple")) return;
  uint16_t n = rd_le16(p8(f, p));
  if (!vin_section(v, f, 1, p + 8, 16 * (uint64_t)n, "section-bounds", "identifiers")) return;
  for (uint16_t i = 0; i < n; i++) {
    uint64_t e = p + 8 + 16 * (uint64_t)i;
    if (v->have_meta && f->d[e] >= v->n_kinds)
      VERR(v, f, e, "unknown-kind", "identifier kind %u has no name in meta.db (%u kinds)", f->d[e], v->n_kinds);
    uint16_t flags = rd_le16(p8(f, e + 2));
    if (flags & ~1u) VNOTE(v, f, e + 2, "reserved-bits", "identifier flags 0x%x use reserved bits", flags);
  }
}

typedef struct block {
  uint64_t n_values, p_values, n_idx, p_idx;
} block;

/* The value block header at off; checks its arrays' bounds, alignment,
 * order and placement. val/idx sizes: 10/12 (profile-major), 12/10. */
static int check_block(validator *v, const vfile *f, uint64_t off, int profile_major, block *b) {
  const uint8_t *h = p8(f, off);
  uint64_t vsz = profile_major ? 10 : 12, isz = profile_major ? 12 : 10;
  b->n_values = rd_le64(h);
  b->p_values = rd_le64(h + 8);
  b->n_idx = profile_major ? rd_le32(h + 0x10) : rd_le16(h + 0x10);
  b->p_idx = rd_le64(h + 0x18);
  uint64_t vbytes, ibytes;
  if (!mul_ok(b->n_values, vsz, &vbytes) || !in_bounds(f->len - 8, b->p_values, vbytes)) {
    VERR(v, f, off, "values-bounds", "%llu values at 0x%llx do not fit in the file", (unsigned long long)b->n_values,
         (unsigned long long)b->p_values);
    return 0;
  }
  if (!mul_ok(b->n_idx, isz, &ibytes) || !in_bounds(f->len - 8, b->p_idx, ibytes)) {
    VERR(v, f, off + 0x18, "values-bounds", "%llu index entries at 0x%llx do not fit in the file",
         (unsigned long long)b->n_idx, (unsigned long long)b->p_idx);
    return 0;
  }
  if (b->n_values == 0 && b->n_idx == 0) return 1; /* empty blocks may carry any pointers */
  if (b->n_values && !b->n_idx) {
    VERR(v, f, off, "start-index", "%llu values belong to no index entry", (unsigned long long)b->n_values);
    return 0;
  }
  int ok = 1;
  if (b->p_values % (profile_major ? 2 : 4) || b->p_idx % (profile_major ? 4 : 2)) {
    VERR(v, f, off + 8, "alignment", "value or index array is misaligned (0x%llx, 0x%llx)",
         (unsigned long long)b->p_values, (unsigned long long)b->p_idx);
    ok = 0;
  }
  if (b->n_values && b->p_values + vbytes > b->p_idx) {
    VERR(v, f, off + 8, "values-before-indices", "values [0x%llx, 0x%llx) do not end before the indices at 0x%llx",
         (unsigned long long)b->p_values, (unsigned long long)(b->p_values + vbytes), (unsigned long long)b->p_idx);
    ok = 0;
  } else if (b->n_values && b->p_idx - (b->p_values + vbytes) >= 8) {
    VNOTE(v, f, off + 0x18, "values-gap", "%llu bytes between values and indices (only padding expected)",
          (unsigned long long)(b->p_idx - (b->p_values + vbytes)));
  }
  ok &= voutside_sections(v, f, b->p_values, vbytes, "value array");
  ok &= voutside_sections(v, f, b->p_idx, ibytes, "index array");
  return ok;
}

/* Index entry k: key and the [lo, hi) slice of values; checks order. */
static int index_slice(validator *v, const vfile *f, const block *b, uint64_t k, int profile_major,
                       uint32_t *key, uint64_t *lo, uint64_t *hi) {
  uint64_t isz = profile_major ? 12 : 10, ksz = profile_major ? 4 : 2;
  uint64_t e = b->p_idx + k * isz;
  *key = profile_major ? rd_le32(p8(f, e)) : rd_le16(p8(f, e));
  *lo = rd_le64(p8(f, e + ksz));
  *hi = k + 1 < b->n_idx ? rd_le64(p8(f, e + isz + ksz)) : b->n_values;
  if ((k == 0 && *lo != 0) || *lo > *hi || *hi > b->n_values) {
    VERR(v, f, e + ksz, "start-index", "startIndex %llu: not 0 first, decreasing, or past nValues %llu",
         (unsigned long long)*lo, (unsigned long long)b->n_values);
    return 0;
  }
  if (k > 0) {
    uint32_t prev = profile_major ? rd_le32(p8(f, e - isz)) : rd_le16(p8(f, e - isz));
    if (*key <= prev) {
      VERR(v, f, e, profile_major ? "sorted-ctx" : "sorted-metric", "%s %u after %u: not strictly ascending",
           profile_major ? "ctxId" : "metricId", *key, prev);
      return 0;
    }
  }
  return 1;
}

static void check_profile_values(validator *v, const vfile *f, uint64_t off, uint32_t index, int summary) {
  block b;
  if (!check_block(v, f, off, 1, &b)) return;
  uint64_t unknown_ctx = 0;
  for (uint64_t k = 0; k < b.n_idx; k++) {
    uint32_t ctx;
    uint64_t lo, hi;
    if (!index_slice(v, f, &b, k, 1, &ctx, &lo, &hi)) return;
    if (v->have_meta && ctx != 0 && !vknown_ctx(v, ctx)) unknown_ctx++;
    if (ctx > v->max_value_ctx_id) v->max_value_ctx_id = ctx;
    for (uint64_t i = lo; i < hi; i++) {
      uint64_t e = b.p_values + 10 * i;
      uint16_t m = rd_le16(p8(f, e));
      double x = rd_le_f64(p8(f, e + 2));
      if (i > lo && m <= rd_le16(p8(f, e - 10))) {
        VERR(v, f, e, "sorted-metric", "metricId %u after %u in context %u: not strictly ascending", m,
             rd_le16(p8(f, e - 10)), ctx);
        return;
      }
      if (v->have_meta && summary && !v->stat_id[m])
        VERR(v, f, e, "unknown-metric", "metric id %u in summary profile %u is no statMetricId", m, index);
      if (v->have_meta && !summary && !v->prop_id[m])
        VERR(v, f, e, v->stat_id[m] ? "stat-id-in-thread-profile" : "unknown-metric",
             "metric id %u in profile %u is no propMetricId", m, index);
      if (!isfinite(x)) VERR(v, f, e + 2, "value-finite", "value is not finite");
      if (!summary) v->thread_hash += value_hash(ctx, m, index, rd_le64(p8(f, e + 2)));
    }
  }
  if (!summary) v->thread_values += b.n_values;
  if (unknown_ctx)
    VNOTE(v, f, b.p_idx, "unknown-ctx", "profile %u: %llu context ids are not in meta.db's tree (instruction contexts hpcprof leaves out)",
          index, (unsigned long long)unknown_ctx);
}

void validate_profile(validator *v, vfile *f) {
  vcheck_header(v, f, "prof", "_prof.db", 2, 0);
  if (!f->usable) return;
  uint64_t s = f->sec_off[0];
  if (!vin_section(v, f, 0, s, 0xd, "section-bounds", "Profile Info header")) return;
  uint64_t p = rd_le64(p8(f, s)), stride = f->d[s + 0xc];
  uint32_t n = rd_le32(p8(f, s + 8));
  if (stride < 0x2c) {
    VERR(v, f, s + 0xc, "stride", "szProfile %llu is too small for the {PI} fields", (unsigned long long)stride);
    return;
  }
  if (!varray(v, f, 0, p, n, stride, "pProfiles")) return;
  free(v->is_summary);
  v->is_summary = calloc(n ? n : 1, 1);
  if (!v->is_summary) return;
  v->n_profiles = n;
  v->prof_infos = p;
  v->prof_stride = stride;
  if (n == 0) VERR(v, f, s, "summary-first", "no profiles: the canonical summary profile is missing");
  for (uint32_t i = 0; i < n; i++) {
    uint64_t e = p + i * stride;
    uint32_t flags = rd_le32(p8(f, e + 0x28));
    uint64_t tuple = rd_le64(p8(f, e + 0x20));
    v->is_summary[i] = flags & 1;
    if (flags & ~1u) VNOTE(v, f, e + 0x28, "reserved-bits", "profile flags 0x%x use reserved bits", flags);
    if (i == 0 && (!(flags & 1) || tuple != 0))
      VERR(v, f, e, "summary-first", "the first profile must be the canonical summary (isSummary, pIdTuple 0)");
    if (i > 0 && tuple == 0) VERR(v, f, e + 0x20, "pointer-target", "profile %u has no identifier tuple", i);
    if (tuple) check_id_tuple(v, f, tuple, e + 0x20);
    check_profile_values(v, f, e, i, flags & 1);
  }
  v->have_profiles = 1;
}

/* profile.db's value of (profile, ctx, metric) by binary search: 1 found. */
static int profile_value(const validator *v, uint32_t prof, uint32_t ctx, uint16_t metric, double *out) {
  const vfile *f = &v->prof;
  const uint8_t *h = p8(f, v->prof_infos + prof * v->prof_stride);
  uint64_t nv = rd_le64(h), pv = rd_le64(h + 8), ni = rd_le32(h + 0x10), pi = rd_le64(h + 0x18), bytes;
  /* the block may be one the profile.db checks reported as broken */
  if (!mul_ok(nv, 10, &bytes) || !in_bounds(f->len, pv, bytes) || !in_bounds(f->len, pi, 12 * ni)) return 0;
  uint64_t lo = 0, hi = ni;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (rd_le32(p8(f, pi + 12 * mid)) < ctx) lo = mid + 1; else hi = mid;
  }
  if (lo == ni || rd_le32(p8(f, pi + 12 * lo)) != ctx) return 0;
  uint64_t a = rd_le64(p8(f, pi + 12 * lo + 4)), z = lo + 1 < ni ? rd_le64(p8(f, pi + 12 * (lo + 1) + 4)) : nv;
  if (a > z || z > nv) return 0;
  while (a < z) {
    uint64_t mid = a + (z - a) / 2;
    uint16_t m = rd_le16(p8(f, pv + 10 * mid));
    if (m == metric) {
      *out = rd_le_f64(p8(f, pv + 10 * mid + 2));
      return 1;
    }
    if (m < metric) a = mid + 1; else z = mid;
  }
  return 0;
}

/* The values of every context block of cct.db: structure, metric and
 * profile references; with locate set (a second, quiet pass after the hashes
 * disagreed), each value is looked up in profile.db to name the first
 * mismatches. */
static void cct_values(validator *v, const vfile *f, uint64_t p, uint64_t stride, uint32_t n, int locate,
                       uint64_t *count, uint64_t *hash) {
  uint64_t reported = 0;
  for (uint32_t c = 0; c < n; c++) {
    block b;
    if (!check_block(v, f, p + c * stride, 0, &b)) continue;
    for (uint64_t k = 0; k < b.n_idx; k++) {
      uint32_t metric;
      uint64_t lo, hi;
      if (!index_slice(v, f, &b, k, 0, &metric, &lo, &hi)) break;
      if (v->have_meta && !v->prop_id[metric])
        VERR(v, f, b.p_idx + 10 * k, "unknown-metric", "metric id %u in context %u is no propMetricId", metric, c);
      for (uint64_t i = lo; i < hi; i++) {
        uint64_t ve = b.p_values + 12 * i;
        uint32_t prof = rd_le32(p8(f, ve));
        uint64_t bits = rd_le64(p8(f, ve + 4));
        double x = rd_le_f64(p8(f, ve + 4)), y;
        if (i > lo && prof <= rd_le32(p8(f, ve - 12))) {
          VERR(v, f, ve, "sorted-profile", "profIndex %u after %u: not strictly ascending", prof, rd_le32(p8(f, ve - 12)));
          break;
        }
        if (v->have_profiles && prof >= v->n_profiles) {
          VERR(v, f, ve, "profile-index", "profIndex %u but profile.db has %u profiles", prof, v->n_profiles);
          continue;
        }
        if (v->have_profiles && v->is_summary[prof]) {
          VERR(v, f, ve, "summary-in-cct", "profIndex %u is a summary profile: cct.db holds no summary values", prof);
          continue;
        }
        if (!isfinite(x)) VERR(v, f, ve + 4, "value-finite", "value is not finite");
        (*count)++;
        *hash += value_hash(c, (uint16_t)metric, prof, bits);
        if (locate && reported < 10 &&
            !(profile_value(v, prof, c, (uint16_t)metric, &y) && (y == x || (isnan(x) && isnan(y))))) {
          v->quiet = 0;
          VERR(v, f, ve, "transpose", "context %u metric %u profile %u: %.17g, profile.db has %s", c, metric, prof, x,
               profile_value(v, prof, c, (uint16_t)metric, &y) ? "another value" : "none");
          v->quiet = 1;
          reported++;
        }
      }
    }
  }
}

void validate_cct(validator *v, vfile *f) {
  vcheck_header(v, f, "ctxt", "__ctx.db", 1, 0);
  if (!f->usable) return;
  uint64_t s = f->sec_off[0];
  if (!vin_section(v, f, 0, s, 0xd, "section-bounds", "Context Info header")) return;
  uint64_t p = rd_le64(p8(f, s)), stride = f->d[s + 0xc];
  uint32_t n = rd_le32(p8(f, s + 8));
  if (stride < 0x20) {
    VERR(v, f, s + 0xc, "stride", "szCtx %llu is smaller than 32", (unsigned long long)stride);
    return;
  }
  if (!varray(v, f, 0, p, n, stride, "pCtxs")) return;
  uint32_t need = v->max_ctx_id > v->max_value_ctx_id ? v->max_ctx_id : v->max_value_ctx_id;
  if ((v->have_meta || v->have_profiles) && (uint64_t)need + 1 > n)
    VERR(v, f, s + 8, "ctx-count", "nCtxs %u does not cover context id %u", n, need);
  uint64_t count = 0, hash = 0;
  cct_values(v, f, p, stride, n, 0, &count, &hash);
  if (!v->have_profiles || !v->prof.usable || (count == v->thread_values && hash == v->thread_hash)) return;
  /* The transpose differs: find where (quietly: the structure was reported). */
  uint64_t before = v->result->errors;
  v->quiet = 1;
  cct_values(v, f, p, stride, n, 1, &count, &hash);
  v->quiet = 0;
  if (v->result->errors == before)
    VERR(v, f, s, "transpose", "cct.db holds %llu values where profile.db's thread profiles hold %llu, or other values",
         (unsigned long long)(count / 2), (unsigned long long)v->thread_values);
}
