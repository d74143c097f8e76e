/* SPDX-License-Identifier: BSD-3-Clause */
/* trace.db: header, Context Trace Headers section (header + one {CTH} per
 * trace), then each trace line at an 8-byte boundary (so every even element's
 * timestamp is aligned), footer. Consecutive "not running" samples (ctxId 0)
 * are merged into the first, as the format requires. */
#include <stdlib.h>
#include <string.h>

#include "common/atomic_file.h"
#include "common/bytes.h"
#include "common/error.h"
#include "hpctk4/hpctk4_write.h"

#define SZ_TRACE 24
#define SZ_ELEM 12

static uint64_t align8(uint64_t x) { return (x + 7) / 8 * 8; }

static int keep(const hpcdb_trace *t, uint64_t k) { return k == 0 || t->ctx_ids[k] != 0 || t->ctx_ids[k - 1] != 0; }

static uint64_t kept_count(const hpcdb_trace *t) {
  uint64_t n = 0;
  for (uint64_t k = 0; k < t->n; k++)
    if (keep(t, k)) n++;
  return n;
}

void hpctk4_trace_describe(const hpcdb_trace *t, hpctk4_trace_desc *d) {
  *d = (hpctk4_trace_desc){t->profile, kept_count(t), t->n ? t->timestamps[0] : 0, t->n ? t->timestamps[t->n - 1] : 0,
                           t->n};
}

int hpctk4_trace_head(hpctk4_wbuf *b, const hpctk4_trace_desc *d, uint32_t n, uint64_t trace_min, uint64_t trace_max,
                      uint64_t *lines) {
  uint64_t s, arr;
  HPCDB_TRY(hpctk4_wbuf_alloc(b, HPCTK4_HEADER_SIZE(1), 8, NULL));
  hpctk4_write_header(b->data, "trce");
  HPCDB_TRY(hpctk4_wbuf_alloc(b, 0x20, 8, &s));
  HPCDB_TRY(hpctk4_wbuf_alloc(b, SZ_TRACE * (uint64_t)n, 8, &arr));
  hpctk4_set_section(b->data, 0, b->len - s, s);
  uint64_t lo = UINT64_MAX, hi = 0, pos = b->len;
  *lines = align8(pos);
  for (uint32_t i = 0; i < n; i++) {
    if (d[i].n) {
      if (d[i].first < lo) lo = d[i].first;
      if (d[i].last > hi) hi = d[i].last;
    }
    uint8_t *p = b->data + arr + SZ_TRACE * (uint64_t)i;
    pos = align8(pos);
    wr_le32(p, d[i].profile);
    wr_le64(p + 0x08, pos);
    pos += SZ_ELEM * d[i].kept;
    wr_le64(p + 0x10, pos);
  }
  if (lo > hi) lo = hi = 0;
  wr_le64(b->data + s, arr);
  wr_le32(b->data + s + 8, n);
  b->data[s + 12] = SZ_TRACE;
  /* The source's recorded bounds win (they may be looser than the samples). */
  wr_le64(b->data + s + 0x10, trace_min ? trace_min : lo);
  wr_le64(b->data + s + 0x18, trace_max ? trace_max : hi);
  return 0;
}

void hpctk4_trace_encode(const hpcdb_trace *t, uint8_t *out) {
  for (uint64_t k = 0; k < t->n; k++) {
    if (!keep(t, k)) continue;
    wr_le64(out, t->timestamps[k]);
    wr_le32(out + 8, t->ctx_ids[k]);
    out += SZ_ELEM;
  }
}

static int build_sections(hpctk4_wbuf *b, const hpcdb_experiment *exp) {
  hpctk4_trace_desc *d = malloc((exp->n_traces ? exp->n_traces : 1) * sizeof *d);
  if (!d) return hpcdb_fail(HPCDB_ENOMEM, "out of memory writing trace.db");
  for (uint32_t i = 0; i < exp->n_traces; i++) hpctk4_trace_describe(&exp->traces[i], &d[i]);
  uint64_t lines;
  int rc = hpctk4_trace_head(b, d, exp->n_traces, exp->trace_min, exp->trace_max, &lines);
  free(d);
  return rc;
}

static int write_line(hpcdb_atomic_file *f, const hpcdb_trace *t) {
  uint8_t buf[SZ_ELEM * 1024];
  size_t used = 0;
  HPCDB_TRY(atomic_file_pad(f, 8));
  for (uint64_t k = 0; k < t->n; k++) {
    if (!keep(t, k)) continue;
    wr_le64(buf + used, t->timestamps[k]);
    wr_le32(buf + used + 8, t->ctx_ids[k]);
    used += SZ_ELEM;
    if (used == sizeof buf) {
      HPCDB_TRY(atomic_file_write(f, buf, used));
      used = 0;
    }
  }
  return atomic_file_write(f, buf, used);
}

int hpctk4_write_trace(const hpcdb_experiment *exp, const char *path) {
  hpctk4_wbuf b = {0};
  int rc = build_sections(&b, exp);
  hpcdb_atomic_file f;
  if (rc == 0) rc = atomic_file_open(&f, path);
  if (rc == 0) {
    rc = atomic_file_write(&f, b.data, (size_t)b.len);
    for (uint32_t i = 0; i < exp->n_traces && rc == 0; i++) rc = write_line(&f, &exp->traces[i]);
    if (rc == 0) rc = atomic_file_pad(&f, 8);
    if (rc == 0) rc = atomic_file_write(&f, "trace.db", 8);
    rc = atomic_file_finish(&f, rc);
  }
  hpctk4_wbuf_free(&b);
  return rc;
}
