/* SPDX-License-Identifier: BSD-3-Clause */
/* Rules of profile.db: the header, each profile info, its identifier tuple
 * and its value block (index order, end marker, sorted metric ids; notes
 * for listed contexts without values, zero values, ids the tree lacks). */
#include <math.h>

#include "older/hpcprof1/hp1_validate.h"

static void check_tuple(hpcprof1_validator *v, const hpcprof1_file *f, const hpcprof1_pinfo *pi) {
  hpcprof1_problem pb;
  uint16_t n;
  uint64_t elems;
  if (hpcprof1_tuple_check(f, pi->tuple, pi->at, &n, &elems, &pb)) {
    hpcprof1_report(v, f->path, &pb);
    return;
  }
  for (uint16_t i = 0; i < n; i++) {
    uint16_t kind;
    hpcdb_id id;
    if (hpcprof1_tuple_element(f->d + elems + 18 * (uint64_t)i, &kind, &id) < 0)
      HPCPROF1_NOTE(v, f->path, elems + 18 * (uint64_t)i + 10, "logical-id-range",
                    "logical id does not fit 32 bits (the model keeps 32)");
  }
}

/* The values of one context, [lo, hi): metric ids strictly ascending, non-zero. */
static void check_slice(hpcprof1_validator *v, const hpcprof1_file *f, const hpcprof1_pinfo *pi, uint32_t i,
                        uint32_t ctx, uint64_t lo, uint64_t hi, uint64_t *zeros, uint64_t *undeclared) {
  const uint8_t *declared = v->declared[i == 0];
  for (uint64_t k = lo; k < hi; k++) {
    const uint8_t *e = f->d + pi->block + 10 * k;
    uint16_t metric = rd_be16(e + 8);
    uint64_t bits = rd_be64(e);
    if (k > lo && metric <= rd_be16(e - 2))
      HPCPROF1_ERR(v, f->path, pi->block + 10 * k + 8, "sorted-metric",
                   "profile %u context %u: metric id %u after %u is not strictly ascending", i, ctx, metric,
                   rd_be16(e - 2));
    if (bits_to_f64(bits) == 0.0) (*zeros)++;
    if (declared && !declared[metric]) (*undeclared)++;
    if (i > 0) {
      v->thread_values++;
      v->thread_hash += hpcprof1_value_hash(ctx, metric, i, bits);
    }
  }
}

/* Returns 0 when the blocks overlap so much that checking on would not end in time. */
static int check_values(hpcprof1_validator *v, const hpcprof1_file *f, const hpcprof1_pinfo *pi, uint32_t i,
                        uint64_t *used, uint64_t *unknown, uint32_t *first_unknown) {
  hpcprof1_problem pb;
  if (hpcprof1_pblock_check(f, pi, &pb)) {
    hpcprof1_report(v, f->path, &pb);
    return 1;
  }
  if (hpcprof1_claim(f, used, hpcprof1_pblock_size(pi), pi->at + 44, &pb)) {
    hpcprof1_report(v, f->path, &pb);
    return 0;
  }
  if ((pi->n_values || pi->n_ctxs) &&
      hpcprof1_overlaps_tables(f, pi->block, 10 * pi->n_values + 12 * ((uint64_t)pi->n_ctxs + 1)))
    HPCPROF1_ERR(v, f->path, pi->at + 44, "block-placement",
                 "profile %u's value block overlaps the header or a section", i);
  uint64_t idx = hpcprof1_pblock_index(pi), zeros = 0, empty = 0, undeclared = 0;
  for (uint32_t k = 0; k < pi->n_ctxs; k++) {
    const uint8_t *e = f->d + idx + 12 * (uint64_t)k;
    uint32_t ctx = rd_be32(e);
    uint64_t lo = rd_be64(e + 4), hi = rd_be64(e + 16);
    if (lo == hi) empty++;
    if (!hpcprof1_known_ctx(v, ctx) && lo < hi && (*unknown)++ == 0) *first_unknown = ctx;
    if (i > 0 && ctx > v->max_ctx_id && lo < hi) v->max_ctx_id = ctx;
    check_slice(v, f, pi, i, ctx, lo, hi, &zeros, &undeclared);
  }
  if (undeclared)
    HPCPROF1_ERR(v, f->path, pi->block, "undeclared-metric",
                 "profile %u has %llu values of metric ids the metadata does not %s", i, (unsigned long long)undeclared,
                 i == 0 ? "list as summary ids" : "list as non-summary ids");
  if (empty) /* real summaries list contexts whose values are all zero */
    HPCPROF1_NOTE(v, f->path, idx, "empty-context", "profile %u lists %llu contexts with no value", i,
                  (unsigned long long)empty);
  if (zeros)
    HPCPROF1_NOTE(v, f->path, pi->block, "zero-value",
                  "profile %u stores %llu zero values (the format lists non-zero ones)", i, (unsigned long long)zeros);
  return 1;
}

void hpcprof1_validate_profile(hpcprof1_validator *v, const char *path, const uint8_t *d, uint64_t len) {
  hpcprof1_file f;
  hpcprof1_problem pb;
  if (hpcprof1_open(&f, &hpcprof1_profile_kind, d, len, path, &pb)) {
    hpcprof1_report(v, path, &pb);
    return;
  }
  if (f.major != 1)
    HPCPROF1_NOTE(v, path, 16, "version", "version %u.%u: real files of the drafts say 1.0", f.major, f.minor);
  if (f.count == 0) {
    HPCPROF1_ERR(v, path, 18, "summary-profile", "no profile info: info 0 must be the summary");
    return;
  }
  v->have_profiles = 1;
  v->n_profiles = f.count;
  uint64_t unknown = 0, used = 0;
  uint32_t first_unknown = 0;
  for (uint32_t i = 0; i < f.count; i++) {
    hpcprof1_pinfo pi;
    hpcprof1_pinfo_read(&f, i, &pi);
    if (pi.reserved[0] || pi.reserved[1] || pi.reserved[2])
      HPCPROF1_NOTE(v, path, pi.at + 8, "reserved", "profile %u: reserved pointers are not 0", i);
    if (i > 0 || pi.tuple) check_tuple(v, &f, &pi);
    if (!check_values(v, &f, &pi, i, &used, &unknown, &first_unknown)) break;
  }
  if (unknown)
    HPCPROF1_NOTE(
        v, path, f.sec_off[0], "unknown-context",
        "%llu contexts with values are not in the tree (first: %u; hpcprof leaves instruction-level contexts out)",
        (unsigned long long)unknown, first_unknown);
}
