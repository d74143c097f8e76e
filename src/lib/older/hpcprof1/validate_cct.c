/* SPDX-License-Identifier: BSD-3-Clause */
/* Rules of cct.db: one context info per context id in id order, each value
 * block's index order and end marker, profile indices ascending within a
 * metric, and the whole file the transpose of profile.db's non-summary
 * values. hpcprof of this period left every block as zero bytes (the sizes
 * and counts are right): such a file gets a note, not a transpose error. */
#include "older/hpcprof1/hp1_validate.h"

static int all_zero(const uint8_t *p, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (p[i]) return 0;
  return 1;
}

typedef struct cct_sums {
  uint64_t values, hash, unwritten, used;
} cct_sums;

/* Returns 0 when the blocks overlap so much that checking on would not end in time. */
static int check_block(hpcprof1_validator *v, const hpcprof1_file *f, const hpcprof1_cinfo *ci, cct_sums *s) {
  hpcprof1_problem pb;
  s->values += ci->n_values;
  if (ci->n_values == 0 && ci->n_metrics == 0) return 1;
  uint64_t size = 12 * ci->n_values + 10 * ((uint64_t)ci->n_metrics + 1);
  if (ci->n_values > f->body / 12 || !in_bounds(f->body, ci->block, size)) {
    if (hpcprof1_cblock_check(f, ci, &pb)) hpcprof1_report(v, f->path, &pb); /* the bounds rule */
    return 1;
  }
  if (hpcprof1_claim(f, &s->used, size, ci->at + 14, &pb)) {
    hpcprof1_report(v, f->path, &pb);
    return 0;
  }
  if (all_zero(f->d + ci->block, size)) {
    s->unwritten++;
    return 1;
  }
  if (hpcprof1_cblock_check(f, ci, &pb)) {
    hpcprof1_report(v, f->path, &pb);
    return 1;
  }
  if (hpcprof1_overlaps_tables(f, ci->block, size))
    HPCPROF1_ERR(v, f->path, ci->at + 14, "block-placement",
                 "context %u's value block overlaps the header or a section", ci->ctx_id);
  uint64_t idx = hpcprof1_cblock_index(ci);
  for (uint32_t k = 0; k < ci->n_metrics; k++) {
    const uint8_t *e = f->d + idx + 10 * (uint64_t)k;
    uint16_t metric = rd_be16(e);
    uint64_t lo = rd_be64(e + 2), hi = rd_be64(e + 12);
    if (lo == hi)
      HPCPROF1_ERR(v, f->path, idx + 10 * (uint64_t)k, "empty-metric", "context %u lists metric %u with no value",
                   ci->ctx_id, metric);
    for (uint64_t j = lo; j < hi; j++) {
      const uint8_t *x = f->d + ci->block + 12 * j;
      uint32_t prof = rd_be32(x + 8);
      if (j > lo && prof <= rd_be32(x - 4))
        HPCPROF1_ERR(v, f->path, ci->block + 12 * j + 8, "sorted-profile",
                     "context %u metric %u: prof_info_idx %u after %u is not strictly ascending", ci->ctx_id, metric,
                     prof, rd_be32(x - 4));
      if (v->have_profiles && (prof == 0 || prof >= v->n_profiles))
        HPCPROF1_ERR(v, f->path, ci->block + 12 * j + 8, "profile-index",
                     "prof_info_idx %u is not a non-summary profile of profile.db (%u profiles)", prof, v->n_profiles);
      s->hash += hpcprof1_value_hash(ci->ctx_id, metric, prof, rd_be64(x));
    }
  }
  return 1;
}

void hpcprof1_validate_cct(hpcprof1_validator *v, const char *path, const uint8_t *d, uint64_t len) {
  hpcprof1_file f;
  hpcprof1_problem pb;
  if (hpcprof1_open(&f, &hpcprof1_cct_kind, d, len, path, &pb)) {
    hpcprof1_report(v, path, &pb);
    return;
  }
  if (f.major != 1)
    HPCPROF1_NOTE(v, path, 16, "version", "version %u.%u: real files of the drafts say 1.0", f.major, f.minor);
  cct_sums s = {0, 0, 0, 0};
  for (uint32_t i = 0; i < f.count; i++) {
    hpcprof1_cinfo ci;
    hpcprof1_cinfo_read(&f, i, &ci);
    if (ci.ctx_id != i) {
      HPCPROF1_ERR(v, path, ci.at, "ctx-id", "context info %u holds context id %u (info k must be context k)", i,
                   ci.ctx_id);
      continue;
    }
    if (!check_block(v, &f, &ci, &s)) return;
  }
  if (!v->have_profiles) return;
  if (v->thread_values && v->max_ctx_id >= f.count)
    HPCPROF1_ERR(v, path, 18, "ctx-count", "%u context infos do not cover context id %u of profile.db", f.count,
                 v->max_ctx_id);
  if (s.values != v->thread_values)
    HPCPROF1_ERR(v, path, f.sec_off[0], "transpose", "%llu values, but profile.db has %llu non-summary values",
                 (unsigned long long)s.values, (unsigned long long)v->thread_values);
  else if (s.unwritten)
    HPCPROF1_NOTE(
        v, path, f.sec_off[0], "unwritten-blocks",
        "%llu value blocks are all zero bytes, as hpcprof of the drafts wrote them: their values are not checked",
        (unsigned long long)s.unwritten);
  else if (s.hash != v->thread_hash)
    HPCPROF1_ERR(v, path, f.sec_off[0], "transpose",
                 "the values differ from the transpose of profile.db's non-summary values");
}
