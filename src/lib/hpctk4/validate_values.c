/* SPDX-License-Identifier: BSD-3-Clause */
/* Rules of profile.db and cct.db v4.0, including that cct.db holds exactly
 * the transpose of the non-summary values of profile.db (checked value by
 * value with binary searches into the mapped profile.db: no copy). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "hpctk4/validate.h"

static const uint8_t *p8(const vfile *f, uint64_t off) { return f->d + off; }

/* A thread profile is "the application thread identified exactly by
 * *pIdTuple": two thread profiles with the same tuple bytes are a note (hpcprof writes them for a
 * forked process, NODE and THREAD 0 again without a RANK: loop-fork-cycles).
 * seen maps a hash of the bytes to the first tuple's offset (+ 1). */
static void check_tuple_unique(validator *v, const vfile *f, hpcdb_u64map *seen, uint64_t p, uint64_t len,
                               uint64_t where) {
  uint64_t h = 0xcbf29ce484222325u, first;
  for (uint64_t i = 0; i < len; i++) h = (h ^ f->d[p + i]) * 0x100000001b3u; /* FNV-1a */
  for (;; h++) { /* open addressing over the hash: equal bytes, else the next slot */
    if (!u64map_get(seen, h, &first)) {
      u64map_put(seen, h, p + 1);
      return;
    }
    if (8 + 16 * (uint64_t)rd_le16(p8(f, first - 1)) == len && memcmp(f->d + first - 1, f->d + p, len) == 0) {
      VNOTE(v, f, where, "profile-identity", "the identifier tuple at 0x%llx is also the tuple of an earlier profile",
            (unsigned long long)p);
      return;
    }
  }
}

/* Checks an identifier tuple at p inside section 2 of profile.db. */
static void check_id_tuple(validator *v, const vfile *f, uint64_t p, uint64_t where, hpcdb_u64map *seen, int summary) {
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
    uint32_t logical = rd_le32(p8(f, e + 4));
    uint64_t physical = rd_le64(p8(f, e + 8));
    if (!(flags & 1) && physical != logical)
      VERR(v, f, e + 8, "logical-id", "a logical identifier (isPhysical 0) with physicalId %llu, not logicalId %u",
           (unsigned long long)physical, logical);
  }
  if (!summary) check_tuple_unique(v, f, seen, p, 8 + 16 * (uint64_t)n, where);
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

/* Index entry k of b, whose bytes are at e (followed by entry k + 1's unless
 * k is the last): its key and the [lo, hi) slice of values; checks the
 * order against prev, entry k - 1's key. */
static int index_slice(validator *v, const vfile *f, const block *b, uint64_t k, int profile_major, const uint8_t *e,
                       uint32_t prev, uint32_t *key, uint64_t *lo, uint64_t *hi) {
  uint64_t isz = profile_major ? 12 : 10, ksz = profile_major ? 4 : 2, at = b->p_idx + k * isz;
  *key = profile_major ? rd_le32(e) : rd_le16(e);
  *lo = rd_le64(e + ksz);
  *hi = k + 1 < b->n_idx ? rd_le64(e + isz + ksz) : b->n_values;
  if ((k == 0 && *lo != 0) || *lo > *hi || *hi > b->n_values) {
    VERR(v, f, at + ksz, "start-index", "startIndex %llu: not 0 first, decreasing, or past nValues %llu",
         (unsigned long long)*lo, (unsigned long long)b->n_values);
    return 0;
  }
  if (k > 0 && *key <= prev) {
    VERR(v, f, at, profile_major ? "sorted-ctx" : "sorted-metric", "%s %u after %u: not strictly ascending",
         profile_major ? "ctxId" : "metricId", *key, prev);
    return 0;
  }
  return 1;
}

/* Index entry k of b and the next one, through the reader. */
static const uint8_t *index_entry(hpctk4_chunks *r, const block *b, uint64_t k, uint64_t isz) {
  return hpctk4_chunk(r, b->p_idx + k * isz, k + 1 < b->n_idx ? 2 * isz : isz);
}

/* The diagnostics of a profile.db value at e that failed a fast check
 * (metric m after prev, value bits); 0 when the metric order is broken. */
static VCOLD int report_profile_value(validator *v, const vfile *f, uint64_t e, int32_t prev, uint16_t m, uint64_t bits,
                                      uint32_t ctx, uint32_t index, int summary) {
  if ((int32_t)m <= prev) {
    VERR(v, f, e, "sorted-metric", "metricId %u after %u in context %u: not strictly ascending", m, (unsigned)prev,
         ctx);
    return 0;
  }
  if (v->have_meta && summary && !v->stat_id[m])
    VERR(v, f, e, "unknown-metric", "metric id %u in summary profile %u is no statMetricId", m, index);
  if (v->have_meta && !summary && !v->prop_id[m])
    VERR(v, f, e, v->stat_id[m] ? "stat-id-in-thread-profile" : "unknown-metric",
         "metric id %u in profile %u is no propMetricId", m, index);
  if (!isfinite(bits_to_f64(bits))) VERR(v, f, e + 2, "value-finite", "value is not finite");
  return 1;
}

/* Checks the values [lo, hi) of one context of a profile (metric order,
 * metric kinds, finiteness) and adds the thread values to *hash; 0 when the
 * metric order is broken (the rest of the block is not read). The loop only
 * detects a problem; report_profile_value says which. */
static int check_context_values(validator *v, const vfile *f, hpctk4_chunks *r, const block *b, uint64_t lo,
                                uint64_t hi, uint32_t ctx, uint32_t index, int summary, uint64_t *hash) {
  const uint8_t *known = !v->have_meta ? NULL : summary ? v->stat_id : v->prop_id;
  int32_t prev = -1; /* below every metric id */
  uint64_t sum = 0;  /* not *hash: a local stays in a register */
  for (uint64_t i = lo; i < hi;) {
    uint64_t take = hi - i < HPCTK4_CHUNK_BYTES / 10 ? hi - i : HPCTK4_CHUNK_BYTES / 10;
    const uint8_t *q = hpctk4_chunk(r, b->p_values + 10 * i, 10 * take);
    for (uint64_t j = 0; j < take; j++, q += 10) {
      uint16_t m = rd_le16(q);
      uint64_t bits = rd_le64(q + 2);
      if ((int32_t)m <= prev || (known && !known[m]) || !finite_bits(bits)) {
        if (!report_profile_value(v, f, b->p_values + 10 * (i + j), prev, m, bits, ctx, index, summary)) {
          *hash += sum;
          return 0;
        }
      }
      prev = m;
      if (!summary) sum += value_hash(ctx, m, index, bits);
    }
    i += take;
  }
  *hash += sum;
  return 1;
}

static void check_profile_values(validator *v, const vfile *f, hpctk4_chunks *ir, hpctk4_chunks *vr, uint64_t off,
                                 uint32_t index, int summary) {
  block b;
  if (!check_block(v, f, off, 1, &b)) return;
  uint64_t unknown_ctx = 0, hash = 0;
  uint32_t ctx = 0;
  int whole = 1; /* no broken order: the block was read to its end */
  for (uint64_t k = 0; k < b.n_idx && whole; k++) {
    uint64_t lo, hi;
    if (!index_slice(v, f, &b, k, 1, index_entry(ir, &b, k, 12), ctx, &ctx, &lo, &hi)) {
      whole = 0;
      break;
    }
    if (v->have_meta && ctx != 0 && !vknown_ctx(v, ctx)) unknown_ctx++;
    if (ctx > v->max_value_ctx_id) v->max_value_ctx_id = ctx;
    whole = check_context_values(v, f, vr, &b, lo, hi, ctx, index, summary, &hash);
  }
  v->thread_hash += hash;
  if (!whole) return;
  if (!summary) v->thread_values += b.n_values;
  if (unknown_ctx)
    VNOTE(v, f, b.p_idx, "unknown-ctx",
          "profile %u: %llu context ids are not in meta.db's tree (instruction contexts hpcprof leaves out)", index,
          (unsigned long long)unknown_ctx);
}

int validate_profile_infos(validator *v, vfile *f) {
  vcheck_header(v, f, "prof", "_prof.db", 2, 0);
  if (!f->usable) return 0;
  uint64_t s = f->sec_off[0];
  if (!vin_section(v, f, 0, s, 0xd, "section-bounds", "Profile Info header")) return 0;
  uint64_t p = rd_le64(p8(f, s)), stride = f->d[s + 0xc];
  uint32_t n = rd_le32(p8(f, s + 8));
  if (stride < 0x2c) {
    VERR(v, f, s + 0xc, "stride", "szProfile %llu is too small for the {PI} fields", (unsigned long long)stride);
    return 0;
  }
  if (!varray(v, f, 0, p, n, stride, "pProfiles")) return 0;
  free(v->is_summary);
  v->is_summary = calloc(n ? n : 1, 1);
  if (!v->is_summary) return 0;
  v->n_profiles = n;
  v->prof_infos = p;
  v->prof_stride = stride;
  for (uint32_t i = 0; i < n; i++) v->is_summary[i] = rd_le32(p8(f, p + i * stride + 0x28)) & 1;
  v->have_profiles = 1;
  return 1;
}

void validate_profile_values(validator *v, vfile *f) {
  uint32_t n = v->n_profiles;
  uint64_t p = v->prof_infos, stride = v->prof_stride;
  uint8_t *buf = malloc(2 * HPCTK4_CHUNK_BYTES); /* NULL: the readers use the mapped bytes */
  hpctk4_chunks ir, vr;
  hpctk4_chunks_init(&ir, f->fd, f->d, f->len, buf);
  hpctk4_chunks_init(&vr, f->fd, f->d, f->len, buf ? buf + HPCTK4_CHUNK_BYTES : NULL);
  if (n == 0) VERR(v, f, f->sec_off[0], "summary-first", "no profiles: the canonical summary profile is missing");
  hpcdb_u64map tuples = {0};
  for (uint32_t i = 0; i < n; i++) {
    uint64_t e = p + i * stride;
    uint32_t flags = rd_le32(p8(f, e + 0x28));
    uint64_t tuple = rd_le64(p8(f, e + 0x20));
    if (flags & ~1u) VNOTE(v, f, e + 0x28, "reserved-bits", "profile flags 0x%x use reserved bits", flags);
    if (i == 0 && (!(flags & 1) || tuple != 0))
      VERR(v, f, e, "summary-first", "the first profile must be the canonical summary (isSummary, pIdTuple 0)");
    if (i > 0 && tuple == 0) VERR(v, f, e + 0x20, "pointer-target", "profile %u has no identifier tuple", i);
    if (tuple) check_id_tuple(v, f, tuple, e + 0x20, &tuples, flags & 1);
    check_profile_values(v, f, &ir, &vr, e, i, flags & 1);
  }
  u64map_free(&tuples);
  free(buf);
}

void validate_profile(validator *v, vfile *f) {
  if (validate_profile_infos(v, f)) validate_profile_values(v, f);
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
    if (rd_le32(p8(f, pi + 12 * mid)) < ctx) lo = mid + 1;
    else hi = mid;
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
    if (m < metric) a = mid + 1;
    else z = mid;
  }
  return 0;
}

/* A transpose mismatch at the value of (c, metric, prof) at ve, when profile.db
 * holds another value or none (reported even in the quiet locating pass). */
static int report_mismatch(validator *v, const vfile *f, uint64_t ve, uint32_t c, uint32_t metric, uint32_t prof,
                           double x) {
  double y;
  if (profile_value(v, prof, c, (uint16_t)metric, &y) && (y == x || (isnan(x) && isnan(y)))) return 0;
  v->quiet = 0;
  VERR(v, f, ve, "transpose", "context %u metric %u profile %u: %.17g, profile.db has %s", c, metric, prof, x,
       profile_value(v, prof, c, (uint16_t)metric, &y) ? "another value" : "none");
  v->quiet = 1;
  return 1;
}

typedef struct cct_tally {
  uint64_t count, hash; /* values and their multiset hash */
  int locate;           /* the locating pass: look each value up in profile.db */
  uint64_t reported;    /* mismatches it reported (10 at most) */
} cct_tally;

/* The diagnostics of a cct.db value at ve that failed a fast check (profile
 * prof after prev, value bits): 0 when the profile order is broken, 1 when
 * the value names no thread profile (it is not counted), 2 otherwise. */
static VCOLD int report_cct_value(validator *v, const vfile *f, uint64_t ve, int64_t prev, uint32_t prof,
                                  uint64_t bits) {
  if ((int64_t)prof <= prev) {
    VERR(v, f, ve, "sorted-profile", "profIndex %u after %u: not strictly ascending", prof, (uint32_t)prev);
    return 0;
  }
  if (v->have_profiles && prof >= v->n_profiles) {
    VERR(v, f, ve, "profile-index", "profIndex %u but profile.db has %u profiles", prof, v->n_profiles);
    return 1;
  }
  if (v->have_profiles && v->is_summary[prof]) {
    VERR(v, f, ve, "summary-in-cct", "profIndex %u is a summary profile: cct.db holds no summary values", prof);
    return 1;
  }
  if (!isfinite(bits_to_f64(bits))) VERR(v, f, ve + 4, "value-finite", "value is not finite");
  return 2;
}

/* The values [lo, hi) of one metric of context c: profile order and
 * references, finiteness; counted and hashed into t. The loop only detects
 * a problem; report_cct_value says which. */
static void check_metric_values(validator *v, const vfile *f, hpctk4_chunks *r, const block *b, uint64_t lo,
                                uint64_t hi, uint32_t c, uint32_t metric, cct_tally *t) {
  const uint8_t *summary = v->have_profiles ? v->is_summary : NULL;
  uint32_t n_profiles = v->n_profiles;
  int64_t prev = -1;           /* below every profile index */
  uint64_t count = 0, sum = 0; /* not in *t: locals stay in registers */
  for (uint64_t i = lo; i < hi;) {
    uint64_t take = hi - i < HPCTK4_CHUNK_BYTES / 12 ? hi - i : HPCTK4_CHUNK_BYTES / 12;
    const uint8_t *q = hpctk4_chunk(r, b->p_values + 12 * i, 12 * take);
    for (uint64_t j = 0; j < take; j++, q += 12) {
      uint32_t prof = rd_le32(q);
      uint64_t bits = rd_le64(q + 4), ve = b->p_values + 12 * (i + j);
      if ((int64_t)prof <= prev || (summary && (prof >= n_profiles || summary[prof])) || !finite_bits(bits)) {
        int what = report_cct_value(v, f, ve, prev, prof, bits);
        if (what == 0) goto done;
        if (what == 1) {
          prev = prof;
          continue;
        }
      }
      prev = prof;
      count++;
      sum += value_hash(c, (uint16_t)metric, prof, bits);
      if (t->locate && t->reported < 10 && report_mismatch(v, f, ve, c, metric, prof, bits_to_f64(bits))) t->reported++;
    }
    i += take;
  }
done:
  t->count += count;
  t->hash += sum;
}

/* The values of every context block of cct.db: structure, metric and
 * profile references; with locate set (a second, quiet pass after the hashes
 * disagreed), each value is looked up in profile.db to name the first
 * mismatches. */
static void cct_values(validator *v, const vfile *f, uint64_t p, uint64_t stride, uint32_t n, int locate,
                       uint64_t *count, uint64_t *hash) {
  cct_tally t = {*count, *hash, locate, 0};
  uint8_t *buf = malloc(2 * HPCTK4_CHUNK_BYTES); /* NULL: the readers use the mapped bytes */
  hpctk4_chunks ir, vr;
  hpctk4_chunks_init(&ir, f->fd, f->d, f->len, buf);
  hpctk4_chunks_init(&vr, f->fd, f->d, f->len, buf ? buf + HPCTK4_CHUNK_BYTES : NULL);
  for (uint32_t c = 0; c < n; c++) {
    block b;
    if (!check_block(v, f, p + c * stride, 0, &b)) continue;
    uint32_t metric = 0;
    for (uint64_t k = 0; k < b.n_idx; k++) {
      uint64_t lo, hi;
      if (!index_slice(v, f, &b, k, 0, index_entry(&ir, &b, k, 10), metric, &metric, &lo, &hi)) break;
      if (v->have_meta && !v->prop_id[metric])
        VERR(v, f, b.p_idx + 10 * k, "unknown-metric", "metric id %u in context %u is no propMetricId", metric, c);
      check_metric_values(v, f, &vr, &b, lo, hi, c, metric, &t);
    }
  }
  free(buf);
  *count = t.count;
  *hash = t.hash;
}

int validate_cct_header(validator *v, vfile *f, cct_pass *c) {
  memset(c, 0, sizeof *c);
  vcheck_header(v, f, "ctxt", "__ctx.db", 1, 0);
  if (!f->usable) return 0;
  uint64_t s = c->sec = f->sec_off[0];
  if (!vin_section(v, f, 0, s, 0xd, "section-bounds", "Context Info header")) return 0;
  c->p = rd_le64(p8(f, s));
  c->stride = f->d[s + 0xc];
  c->n = rd_le32(p8(f, s + 8));
  if (c->stride < 0x20) {
    VERR(v, f, s + 0xc, "stride", "szCtx %llu is smaller than 32", (unsigned long long)c->stride);
    return 0;
  }
  return varray(v, f, 0, c->p, c->n, c->stride, "pCtxs");
}

void validate_cct_count(validator *v, const vfile *f, const cct_pass *c) {
  uint32_t need = v->max_ctx_id > v->max_value_ctx_id ? v->max_ctx_id : v->max_value_ctx_id;
  if ((v->have_meta || v->have_profiles) && (uint64_t)need + 1 > c->n)
    VERR(v, f, c->sec + 8, "ctx-count", "nCtxs %u does not cover context id %u", c->n, need);
}

void validate_cct_values(validator *v, const vfile *f, cct_pass *c) {
  cct_values(v, f, c->p, c->stride, c->n, 0, &c->count, &c->hash);
}

void validate_cct_transpose(validator *v, const vfile *f, cct_pass *c) {
  if (!v->have_profiles || !v->prof.usable || (c->count == v->thread_values && c->hash == v->thread_hash)) return;
  /* The transpose differs: find where (quietly: the structure was reported). */
  uint64_t before = v->result->errors;
  v->quiet = 1;
  cct_values(v, f, c->p, c->stride, c->n, 1, &c->count, &c->hash);
  v->quiet = 0;
  if (v->result->errors == before)
    VERR(v, f, c->sec, "transpose",
         "cct.db holds %llu values where profile.db's thread profiles hold %llu, or other values",
         (unsigned long long)(c->count / 2), (unsigned long long)v->thread_values);
}

void validate_cct(validator *v, vfile *f) {
  cct_pass c;
  if (!validate_cct_header(v, f, &c)) return;
  validate_cct_count(v, f, &c);
  validate_cct_values(v, f, &c);
  validate_cct_transpose(v, f, &c);
}
