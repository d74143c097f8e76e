/* trace.db read in place: the header and the Context Trace Headers give one
 * line per trace; each line's elements stay in the mapping, checked to lie
 * whole inside the file. The elements themselves are checked by the index
 * pass (trace_index.c). */
#include <stdlib.h>

#include "common/error.h"
#include "hpctk4/hpctk4_read.h"
#include "query/trace_internal.h"

int trace_v4_lines(hpcdb_trace_set *t, const char *path) {
  const uint8_t *data = t->map.data;
  uint64_t len = t->map.len;
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
  if (!mul_ok(n, stride, &total) || p < s || !in_bounds(f.sec_size[0], p - s, total))
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "Context Trace Headers", s, "section-bounds",
                         "%u trace headers at 0x%llx are not an array inside the section", n,
                         (unsigned long long)p);
  t->lines = calloc(n ? n : 1, sizeof *t->lines);
  if (!t->lines) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u trace lines", n);
  t->n_lines = n;
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *h = data + p + i * stride;
    uint64_t start = rd_le64(h + 8), end = rd_le64(h + 16);
    trace_line *l = &t->lines[i];
    l->profile = rd_le32(h);
    if (end < start || (end - start) % 12 != 0 || !in_bounds(len - 8, start, end - start))
      return hpcdb_fail_at(HPCDB_ECORRUPT, path, "Context Trace Headers", p + i * stride + 8, "trace-bounds",
                           "line [0x%llx, 0x%llx) is not a whole number of elements inside the file",
                           (unsigned long long)start, (unsigned long long)end);
    if (l->profile >= t->exp->n_profiles)
      return hpcdb_fail_at(HPCDB_ECORRUPT, path, "Context Trace Headers", p + i * stride, "profile-index",
                           "profIndex %u but profile.db has %u profiles", l->profile, t->exp->n_profiles);
    l->n = (end - start) / 12;
    l->raw_off = start;
    l->raw = data + start;
  }
  return 0;
}
