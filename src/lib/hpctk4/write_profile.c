/* SPDX-License-Identifier: BSD-3-Clause */
/* profile.db: header, Profile Info section, Identifier Tuple section, then
 * each profile's value block in profile order (values at a 2-byte boundary,
 * context indices at the next 4-byte boundary right after them), footer.
 * The layout is computed first; values are then streamed through a small
 * encoding buffer, never copied whole. */
#include <stdlib.h>
#include <string.h>

#include "common/atomic_file.h"
#include "common/bytes.h"
#include "common/error.h"
#include "hpctk4/hpctk4_write.h"

#define SZ_PROFILE 48
#define SZ_VAL 10
#define SZ_IDX 12
#define ENCODE_BUF (64 * 1024)

static uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

/* Header and both sections, with the value block pointers filled in. */
static int build_sections(hpctk4_wbuf *b, const hpcdb_experiment *exp, uint64_t *values_end) {
  uint64_t info, profiles, tuples;
  HPCDB_TRY(hpctk4_wbuf_alloc(b, HPCTK4_HEADER_SIZE(2), 8, NULL));
  hpctk4_write_header(b->data, "prof");
  HPCDB_TRY(hpctk4_wbuf_alloc(b, 0x0d, 8, &info));
  HPCDB_TRY(hpctk4_wbuf_alloc(b, SZ_PROFILE * (uint64_t)exp->n_profiles, 8, &profiles));
  wr_le64(b->data + info, profiles);
  wr_le32(b->data + info + 8, exp->n_profiles);
  b->data[info + 12] = SZ_PROFILE;
  hpctk4_set_section(b->data, 0, b->len - info, info);

  HPCDB_TRY(hpctk4_wbuf_align(b, 8));
  tuples = b->len;
  for (uint32_t i = 0; i < exp->n_profiles; i++) {
    const hpcdb_profile *p = &exp->profiles[i];
    uint64_t t = 0;
    if (p->has_id_tuple) {
      HPCDB_TRY(hpctk4_wbuf_alloc(b, 8 + 16 * (uint64_t)p->n_ids, 8, &t));
      wr_le16(b->data + t, p->n_ids);
      for (uint16_t k = 0; k < p->n_ids; k++) {
        uint8_t *q = b->data + t + 8 + 16 * (uint64_t)k;
        q[0] = (uint8_t)p->ids[k].kind;
        wr_le16(q + 2, p->ids[k].flags);
        wr_le32(q + 4, p->ids[k].logical_id);
        wr_le64(q + 8, p->ids[k].physical_id);
      }
    }
    uint8_t *q = b->data + profiles + SZ_PROFILE * (uint64_t)i;
    wr_le64(q + 0x20, t);
    wr_le32(q + 0x28, p->flags);
  }
  hpctk4_set_section(b->data, 1, b->len - tuples, tuples);

  uint64_t pos = b->len;
  for (uint32_t i = 0; i < exp->n_profiles; i++) {
    const hpcdb_profile *p = &exp->profiles[i];
    uint8_t *q = b->data + profiles + SZ_PROFILE * (uint64_t)i;
    uint64_t idx = align_up(pos + SZ_VAL * p->n_values, 4);
    wr_le64(q + 0x00, p->n_values);
    wr_le64(q + 0x08, pos);
    wr_le32(q + 0x10, p->n_ctxs);
    wr_le64(q + 0x18, idx);
    pos = idx + SZ_IDX * (uint64_t)p->n_ctxs;
  }
  *values_end = pos;
  return 0;
}

typedef struct encoder {
  hpcdb_atomic_file *f;
  uint8_t buf[ENCODE_BUF];
  size_t used;
} encoder;

static int enc_flush(encoder *e) {
  int rc = atomic_file_write(e->f, e->buf, e->used);
  e->used = 0;
  return rc;
}

static int enc_room(encoder *e, size_t n) { return e->used + n > sizeof e->buf ? enc_flush(e) : 0; }

static int write_block(encoder *e, const hpcdb_profile *p) {
  for (uint64_t v = 0; v < p->n_values; v++) {
    HPCDB_TRY(enc_room(e, SZ_VAL));
    wr_le16(e->buf + e->used, p->metric_ids[v]);
    wr_le_f64(e->buf + e->used + 2, p->values[v]);
    e->used += SZ_VAL;
  }
  HPCDB_TRY(enc_flush(e));
  HPCDB_TRY(atomic_file_pad(e->f, 4));
  for (uint32_t k = 0; k < p->n_ctxs; k++) {
    HPCDB_TRY(enc_room(e, SZ_IDX));
    wr_le32(e->buf + e->used, p->ctx_ids[k]);
    wr_le64(e->buf + e->used + 4, p->ctx_starts[k]);
    e->used += SZ_IDX;
  }
  return enc_flush(e);
}

static int write_all(hpcdb_atomic_file *f, const hpcdb_experiment *exp, const hpctk4_wbuf *b, uint64_t values_end) {
  HPCDB_TRY(atomic_file_write(f, b->data, (size_t)b->len));
  encoder *e = malloc(sizeof *e);
  if (!e) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  e->f = f;
  e->used = 0;
  int rc = 0;
  for (uint32_t i = 0; i < exp->n_profiles && rc == 0; i++) rc = write_block(e, &exp->profiles[i]);
  free(e);
  HPCDB_TRY(rc);
  if (f->written != values_end)
    return hpcdb_fail(HPCDB_EINVAL, "profile.db layout mismatch (%llu written, %llu planned)",
                      (unsigned long long)f->written, (unsigned long long)values_end);
  HPCDB_TRY(atomic_file_pad(f, 8));
  return atomic_file_write(f, "_prof.db", 8);
}

int hpctk4_write_profile(const hpcdb_experiment *exp, const char *path) {
  hpctk4_wbuf b = {0};
  uint64_t values_end = 0;
  int rc = build_sections(&b, exp, &values_end);
  if (rc == 0) {
    hpcdb_atomic_file f;
    rc = atomic_file_open(&f, path);
    if (rc == 0) rc = atomic_file_finish(&f, write_all(&f, exp, &b, values_end));
  }
  hpctk4_wbuf_free(&b);
  return rc;
}
