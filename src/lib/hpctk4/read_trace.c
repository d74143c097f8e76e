/* SPDX-License-Identifier: BSD-3-Clause */
/* trace.db v4.0 and the cct.db header into the model. The values of cct.db
 * are the transpose of profile.db's and are not loaded twice. */
#include <stdlib.h>
#include <stdio.h>

#include "common/error.h"
#include "hpctk4/hpctk4_read.h"

int hpctk4_trace_lines(const uint8_t *data, uint64_t len, const char *path, uint32_t n_profiles, uint64_t *min,
                       uint64_t *max, hpctk4_trace_line_fn fn, void *user) {
  hpctk4_file f;
  HPCDB_TRY(hpctk4_open_bytes(&f, data, len, path, "trce", "trace.db", 1));
  uint64_t s = f.sec_off[0];
  if (f.sec_size[0] < 0x20)
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "Context Trace Headers", s, "section-bounds",
                         "section too small for its header");
  uint64_t p = rd_le64(data + s), stride = data[s + 0xc], total;
  uint32_t n = rd_le32(data + s + 8);
  if (stride < 0x18)
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "Context Trace Headers", s + 0xc, "stride",
                         "szTrace %llu is smaller than 24", (unsigned long long)stride);
  if (!mul_ok(n, stride, &total) || p < s || (n && p % 8) || !in_bounds(f.sec_size[0], p - s, total))
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "Context Trace Headers", s, "section-bounds",
                         "%u trace headers at 0x%llx are not an aligned array inside the section", n,
                         (unsigned long long)p);
  if (min) *min = rd_le64(data + s + 0x10);
  if (max) *max = rd_le64(data + s + 0x18);
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *h = data + p + i * stride;
    uint32_t prof = rd_le32(h);
    uint64_t start = rd_le64(h + 8), end = rd_le64(h + 16);
    /* the elements end before the file's 8-byte footer */
    if (end < start || (end - start) % 12 != 0 || !in_bounds(len - 8, start, end - start))
      return hpcdb_fail_at(HPCDB_ECORRUPT, path, "trace line", p + i * stride + 8, "trace-bounds",
                           "line [0x%llx, 0x%llx) is not a whole number of elements inside the file",
                           (unsigned long long)start, (unsigned long long)end);
    if (prof >= n_profiles)
      return hpcdb_fail_at(HPCDB_ECORRUPT, path, "Context Trace Headers", p + i * stride, "profile-index",
                           "profIndex %u but profile.db has %u profiles", prof, n_profiles);
    HPCDB_TRY(fn(user, i, n, prof, start, end));
  }
  return 0;
}

typedef struct model_lines {
  hpcdb_experiment *exp;
  const uint8_t *data;
} model_lines;

/* One line's elements into the model's trace of its profile. */
static int add_line(void *user, uint32_t index, uint32_t n_lines, uint32_t profile, uint64_t start, uint64_t end) {
  const model_lines *m = user;
  uint64_t count = (end - start) / 12;
  uint64_t *ts = malloc((count ? count : 1) * sizeof *ts);
  uint32_t *ctx = malloc((count ? count : 1) * sizeof *ctx);
  int rc = 0;
  if (!ts || !ctx)
    rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace of %llu samples", (unsigned long long)count);
  for (uint64_t k = 0; k < count && rc == 0; k++) {
    ts[k] = rd_le64(m->data + start + 12 * k);
    ctx[k] = rd_le32(m->data + start + 12 * k + 8);
  }
  if (rc == 0) rc = hpcdb_add_trace(m->exp, profile, count, ts, ctx, NULL);
  free(ts);
  free(ctx);
  return rc;
}

int hpctk4_parse_trace(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path) {
  model_lines m = {exp, data};
  uint64_t min = 0, max = 0;
  HPCDB_TRY(hpctk4_trace_lines(data, len, path, exp->n_profiles, &min, &max, add_line, &m));
  hpcdb_set_trace_range(exp, min, max);
  hpcdb_set_has_traces(exp);
  return 0;
}

int hpctk4_parse_cct_header(const uint8_t *data, uint64_t len, const char *path, uint32_t *n_ctxs) {
  hpctk4_file f;
  HPCDB_TRY(hpctk4_open_bytes(&f, data, len, path, "ctxt", "__ctx.db", 1));
  if (f.sec_size[0] < 0xd)
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "Context Info", f.sec_off[0], "section-bounds",
                         "section too small for its header");
  *n_ctxs = rd_le32(data + f.sec_off[0] + 8);
  return 0;
}
