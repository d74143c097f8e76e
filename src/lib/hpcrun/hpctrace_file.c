/* SPDX-License-Identifier: BSD-3-Clause */
/* .hpctrace 01.01: a 32-byte header (magic, version, 'b', u64 flags), then
 * 12-byte big-endian records (u64 time in ns, u32 cct id), each followed by a
 * u32 metric id when the data-centric flag is set. */
#include <stdlib.h>
#include <string.h>

#include "common/mapped_file.h"
#include "hpcrun/hpcrun_outbuf.h"
#include "hpcrun/hpcrun_parse.h"

static int check_header(hpcrun_parser *p, const uint8_t *data, uint64_t len) {
  if (len < HPCRUN_MAGIC_LEN || memcmp(data, HPCTRACE_MAGIC, HPCRUN_MAGIC_LEN) != 0)
    return hpcrun_parse_fail(p, HPCDB_ENOTFORMAT, 0, "magic", "not an hpctrace file (no \"%s\")", HPCTRACE_MAGIC);
  if (len < HPCTRACE_HEADER_LEN)
    return hpcrun_parse_fail(p, HPCDB_ETRUNCATED, len, "bounds", "the %d-byte header is cut short",
                             HPCTRACE_HEADER_LEN);
  if (memcmp(data + HPCRUN_MAGIC_LEN, "01.01", 5) != 0)
    return hpcrun_parse_fail(p, HPCDB_EVERSION, HPCRUN_MAGIC_LEN, "version", "version \"%.5s\" is not 01.01",
                             data + HPCRUN_MAGIC_LEN);
  if (data[23] != 'b')
    return hpcrun_parse_fail(p, HPCDB_ECORRUPT, 23, "endian", "byte-order mark is 0x%02x, expected 'b'", data[23]);
  return 0;
}

static int read_records(hpcrun_parser *p, hpcrun_trace_file *t, const uint8_t *data, uint64_t len) {
  p->c.section = "trace records";
  int centric = (t->flags & HPCTRACE_FLAG_DATA_CENTRIC) != 0;
  uint64_t rec = centric ? 16 : 12;
  uint64_t body = len - HPCTRACE_HEADER_LEN;
  t->n = body / rec;
  if (body % rec)
    return hpcrun_parse_fail(p, HPCDB_ETRUNCATED, HPCTRACE_HEADER_LEN + t->n * rec, "record-bounds",
                             "%llu trailing bytes are not a whole %llu-byte record", (unsigned long long)(body % rec),
                             (unsigned long long)rec);
  t->times = hpcrun_parse_alloc(p, t->n, sizeof *t->times);
  t->cct_ids = hpcrun_parse_alloc(p, t->n, sizeof *t->cct_ids);
  if (centric) t->metric_ids = hpcrun_parse_alloc(p, t->n, sizeof *t->metric_ids);
  if (!t->times || !t->cct_ids || (centric && !t->metric_ids))
    return hpcrun_parse_fail(p, HPCDB_ENOMEM, HPCTRACE_HEADER_LEN, "memory", "out of memory");
  const uint8_t *r = data + HPCTRACE_HEADER_LEN;
  for (uint64_t i = 0; i < t->n; i++, r += rec) {
    t->times[i] = rd_be64(r);
    t->cct_ids[i] = rd_be32(r + 8);
    if (centric) t->metric_ids[i] = rd_be32(r + 12);
  }
  return 0;
}

int hpcrun_trace_parse(hpcrun_trace_file **out, const uint8_t *data, uint64_t len, const char *path,
                       hpcrun_parse_error *err) {
  *out = NULL;
  hpcrun_trace_file *t = calloc(1, sizeof *t);
  if (!t) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  hpcrun_parser p;
  hpcrun_parse_init(&p, data, len, path, &t->arena);
  p.c.section = "trace header";
  int rc = check_header(&p, data, len);
  if (rc == 0) {
    memcpy(t->version, data + HPCRUN_MAGIC_LEN, 5);
    t->flags = rd_be64(data + 24);
    rc = read_records(&p, t, data, len);
  }
  if (rc < 0) {
    hpcrun_parse_copy_error(&p, err);
    hpcrun_trace_free(t);
    return rc;
  }
  *out = t;
  return 0;
}

int hpcrun_trace_load(hpcrun_trace_file **out, const char *path, hpcrun_parse_error *err) {
  *out = NULL;
  hpcdb_mapped_file m;
  HPCDB_TRY(hpcrun_parse_map(&m, path, err));
  int rc = mapped_file_finish(&m, path, hpcrun_trace_parse(out, m.data, m.len, path, err));
  if (rc < 0 && *out) {
    hpcrun_trace_free(*out);
    *out = NULL;
  }
  return rc;
}

void hpcrun_trace_free(hpcrun_trace_file *t) {
  if (!t) return;
  arena_free(&t->arena);
  free(t);
}

int hpcrun_trace_serialize(const hpcrun_trace_file *t, uint8_t **out, uint64_t *len) {
  hpcrun_outbuf b = {0};
  int centric = (t->flags & HPCTRACE_FLAG_DATA_CENTRIC) != 0;
  hpcrun_out_bytes(&b, HPCTRACE_MAGIC, HPCRUN_MAGIC_LEN);
  hpcrun_out_bytes(&b, "01.01b", 6);
  hpcrun_out_u64(&b, t->flags);
  for (uint64_t i = 0; i < t->n; i++) {
    hpcrun_out_u64(&b, t->times[i]);
    hpcrun_out_u32(&b, t->cct_ids[i]);
    if (centric) hpcrun_out_u32(&b, t->metric_ids ? t->metric_ids[i] : 0);
  }
  if (b.failed) {
    free(b.data);
    return hpcdb_fail(HPCDB_ENOMEM, "hpctrace writer: out of memory");
  }
  *out = b.data;
  *len = b.len;
  return 0;
}

int hpcrun_trace_write(const hpcrun_trace_file *t, const char *path) {
  uint8_t *data;
  uint64_t len;
  HPCDB_TRY(hpcrun_trace_serialize(t, &data, &len));
  int rc = hpcrun_write_bytes(path, data, len);
  free(data);
  return rc;
}
