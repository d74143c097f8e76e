/* SPDX-License-Identifier: BSD-3-Clause */
/* Rules of trace.db v4.0. */
#include <stdlib.h>

#include "common/bytes.h"
#include "hpctk4/validate.h"

typedef struct line {
  uint64_t start, end;
} line;

static int by_start(const void *a, const void *b) {
  const line *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

static void check_line(validator *v, const vfile *f, uint64_t start, uint64_t end, uint64_t lo, uint64_t hi) {
  uint64_t unknown = 0, prev_t = 0;
  uint32_t prev_ctx = 1;
  for (uint64_t e = start; e < end; e += 12) {
    uint64_t t = rd_le64(f->d + e);
    uint32_t ctx = rd_le32(f->d + e + 8);
    if (e > start && t < prev_t) {
      VERR(v, f, e, "trace-sorted", "timestamp %llu before the previous %llu", (unsigned long long)t,
           (unsigned long long)prev_t);
      return;
    }
    if (t < lo || t > hi) {
      VERR(v, f, e, "trace-range", "timestamp %llu outside [minTimestamp %llu, maxTimestamp %llu]",
           (unsigned long long)t, (unsigned long long)lo, (unsigned long long)hi);
      return;
    }
    if (ctx == 0 && prev_ctx == 0 && e > start) {
      VERR(v, f, e, "trace-zero-run", "two consecutive elements with ctxId 0");
      return;
    }
    if (ctx && v->have_meta && !vknown_ctx(v, ctx)) unknown++;
    prev_t = t;
    prev_ctx = ctx;
  }
  if (unknown)
    VNOTE(v, f, start, "unknown-ctx", "%llu samples name context ids not in meta.db", (unsigned long long)unknown);
}

void validate_trace(validator *v, vfile *f) {
  vcheck_header(v, f, "trce", "trace.db", 1, 0);
  if (!f->usable) return;
  uint64_t s = f->sec_off[0];
  if (!vin_section(v, f, 0, s, 0x20, "section-bounds", "Context Trace Headers header")) return;
  uint64_t p = rd_le64(f->d + s), stride = f->d[s + 0xc], lo = rd_le64(f->d + s + 0x10), hi = rd_le64(f->d + s + 0x18);
  uint32_t n = rd_le32(f->d + s + 8);
  if (stride < 0x18) {
    VERR(v, f, s + 0xc, "stride", "szTrace %llu is smaller than 24", (unsigned long long)stride);
    return;
  }
  if (lo > hi)
    VERR(v, f, s + 0x10, "trace-range", "minTimestamp %llu > maxTimestamp %llu", (unsigned long long)lo,
         (unsigned long long)hi);
  if (!varray(v, f, 0, p, n, stride, "pTraces")) return;
  line *lines = calloc(n ? n : 1, sizeof *lines);
  if (!lines) return;
  uint32_t kept = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t h = p + i * stride;
    uint32_t prof = rd_le32(f->d + h);
    uint64_t a = rd_le64(f->d + h + 8), z = rd_le64(f->d + h + 16);
    if (v->have_profiles && prof >= v->n_profiles)
      VERR(v, f, h, "profile-index", "profIndex %u but profile.db has %u profiles", prof, v->n_profiles);
    else if (v->have_profiles && v->is_summary[prof])
      VERR(v, f, h, "profile-index", "trace of summary profile %u", prof);
    if (z < a || (z - a) % 12 != 0 || !in_bounds(f->len - 8, a, z - a)) {
      VERR(v, f, h + 8, "trace-bounds", "line [0x%llx, 0x%llx) is not whole elements inside the file",
           (unsigned long long)a, (unsigned long long)z);
      continue;
    }
    if (a % 4) VERR(v, f, h + 8, "alignment", "line at 0x%llx is not 4-byte aligned", (unsigned long long)a);
    if (!voutside_sections(v, f, a, z - a, "trace line")) continue;
    check_line(v, f, a, z, lo, hi);
    if (z > a) lines[kept++] = (line){a, z}; /* an empty line (a GPU stream without samples) holds no bytes */
  }
  qsort(lines, kept, sizeof *lines, by_start);
  for (uint32_t i = 1; i < kept; i++)
    if (lines[i].start < lines[i - 1].end)
      VERR(v, f, lines[i].start, "trace-overlap", "two trace lines overlap at 0x%llx",
           (unsigned long long)lines[i].start);
  free(lines);
}
