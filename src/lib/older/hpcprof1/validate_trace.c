/* SPDX-License-Identifier: BSD-3-Clause */
/* Rules of trace.db: trace headers, lines of whole samples, profile
 * indices of profile.db, timestamps in order and inside the header's range
 * (a zero range means "not recorded"), context ids the tree knows. */
#include "older/hpcprof1/hp1_validate.h"

typedef struct trace_sums {
  uint64_t lo, hi, unknown, used;
  uint32_t first_unknown;
} trace_sums;

/* Returns 0 when the lines overlap so much that checking on would not end in time. */
static int check_line(hpcprof1_validator *v, const hpcprof1_file *f, const hpcprof1_tline *t, uint32_t i,
                      trace_sums *s) {
  hpcprof1_problem pb;
  uint64_t n;
  if (hpcprof1_tline_check(f, t, &n, &pb)) {
    hpcprof1_report(v, f->path, &pb);
    return 1;
  }
  if (hpcprof1_claim(f, &s->used, 12 * n, t->at + 6, &pb)) {
    hpcprof1_report(v, f->path, &pb);
    return 0;
  }
  if (hpcprof1_overlaps_tables(f, t->begin, t->end - t->begin))
    HPCPROF1_ERR(v, f->path, t->at + 6, "line-bounds", "trace %u's line overlaps the header or the trace headers", i);
  if (v->have_profiles && t->prof_index >= v->n_profiles)
    HPCPROF1_ERR(v, f->path, t->at, "profile-index", "trace %u: prof_info_idx %u is not a profile of profile.db (%u)",
                 i, t->prof_index, v->n_profiles);
  if (t->type != 0)
    HPCPROF1_NOTE(v, f->path, t->at + 4, "trace-type", "trace %u is a metric trace (type %u)", i, t->type);
  for (uint64_t k = 0; k < n; k++) {
    const uint8_t *e = f->d + t->begin + 12 * k;
    uint64_t ts = rd_be64(e);
    uint32_t ctx = rd_be32(e + 8);
    if (k > 0 && ts < rd_be64(e - 12))
      HPCPROF1_ERR(v, f->path, t->begin + 12 * k, "sorted-time", "trace %u: timestamp %llu before the previous one", i,
                   (unsigned long long)ts);
    if (ts < s->lo) s->lo = ts;
    if (ts > s->hi) s->hi = ts;
    if (t->type == 0 && ctx != 0 && !hpcprof1_known_ctx(v, ctx) && s->unknown++ == 0) s->first_unknown = ctx;
  }
  return 1;
}

void hpcprof1_validate_trace(hpcprof1_validator *v, const char *path, const uint8_t *d, uint64_t len) {
  hpcprof1_file f;
  hpcprof1_problem pb;
  if (hpcprof1_open(&f, &hpcprof1_trace_kind, d, len, path, &pb)) {
    hpcprof1_report(v, path, &pb);
    return;
  }
  if (f.major != 1)
    HPCPROF1_NOTE(v, path, 16, "version", "version %u.%u: real files of the drafts say 1.0", f.major, f.minor);
  trace_sums s = {UINT64_MAX, 0, 0, 0, 0};
  for (uint32_t i = 0; i < f.count; i++) {
    hpcprof1_tline t;
    hpcprof1_tline_read(&f, i, &t);
    if (!check_line(v, &f, &t, i, &s)) break;
  }
  uint64_t min = hpcprof1_trace_min(&f), max = hpcprof1_trace_max(&f);
  if (min == 0 && max == 0)
    HPCPROF1_NOTE(v, path, 40, "time-range", "no timestamp range in the header: readers compute it from the samples");
  else if (min > max || (s.lo <= s.hi && (s.lo < min || s.hi > max)))
    HPCPROF1_ERR(v, path, 40, "time-range", "samples span [%llu, %llu], outside the header's [%llu, %llu]",
                 (unsigned long long)s.lo, (unsigned long long)s.hi, (unsigned long long)min, (unsigned long long)max);
  if (s.unknown)
    HPCPROF1_NOTE(v, path, f.sec_off[0], "unknown-context", "%llu samples name context ids not in the tree (first: %u)",
                  (unsigned long long)s.unknown, s.first_unknown);
}
