/* Writing a v4.0 database while its profiles are still being computed: each
 * thread profile's value block goes to profile.db as soon as it is known and
 * can then be dropped from memory; at the end come the summary profile, the
 * Profile Info and Identifier Tuple sections (after the blocks: the format
 * lets sections sit anywhere), meta.db, and cct.db transposed from the
 * finished profile.db through a mapping, chunk by chunk. Memory holds the
 * experiment's tree and tables, one block position per profile, and one
 * bounded cct.db chunk — not the values. */
#include <stdlib.h>
#include <string.h>

#include "common/atomic_file.h"
#include "common/bytes.h"
#include "common/error.h"
#include "common/mapped_file.h"
#include "common/vec.h"
#include "hpctk4/hpctk4_write.h"

#define HEADER 48 /* common header with two sections */
#define SZ_PROFILE 48
#define STREAM_CCT_CHUNK ((uint64_t)1 << 20) /* values per cct.db chunk: 16 MiB */

typedef struct block {
  uint64_t n_values, p_values, p_idx;
  uint32_t n_ctxs;
  int written, summary;
} block;

struct hpcdb_hpctk4_stream {
  char *dir;
  unsigned flags;
  hpcdb_atomic_file prof;
  int open;
  block *blocks; /* by profile index */
  uint64_t cap_blocks;
  uint32_t max_ctx; /* largest context id in any streamed value */
  hpcdb_mapped_file map; /* the finished profile.db, for cct.db */
  uint8_t buf[64 * 1024];
  size_t used;
};

int hpcdb_hpctk4_stream_open(hpcdb_hpctk4_stream **out, const char *dir, unsigned flags) {
  *out = NULL;
  HPCDB_TRY(hpctk4_prepare_dir(dir, flags));
  hpcdb_hpctk4_stream *s = calloc(1, sizeof *s);
  size_t n = strlen(dir) + 16;
  char *path = malloc(n);
  if (!s || !path || !(s->dir = malloc(strlen(dir) + 1))) {
    free(s ? s->dir : NULL);
    free(s);
    free(path);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  memcpy(s->dir, dir, strlen(dir) + 1);
  s->flags = flags;
  snprintf(path, n, "%s/profile.db", dir);
  int rc = atomic_file_open(&s->prof, path);
  free(path);
  if (rc == 0) {
    static const uint8_t zeros[HEADER];
    s->open = 1;
    rc = atomic_file_write(&s->prof, zeros, sizeof zeros); /* the header comes last */
  }
  if (rc < 0) {
    hpcdb_hpctk4_stream_abort(s);
    return rc;
  }
  *out = s;
  return 0;
}

static int flush(hpcdb_hpctk4_stream *s) {
  int rc = atomic_file_write(&s->prof, s->buf, s->used);
  s->used = 0;
  return rc;
}

static int put(hpcdb_hpctk4_stream *s, const uint8_t *bytes, size_t n) {
  if (s->used + n > sizeof s->buf) HPCDB_TRY(flush(s));
  memcpy(s->buf + s->used, bytes, n);
  s->used += n;
  return 0;
}

int hpcdb_hpctk4_stream_profile(hpcdb_hpctk4_stream *s, uint32_t index, const hpcdb_profile *p) {
  if (index >= s->cap_blocks) {
    uint64_t old = s->cap_blocks;
    HPCDB_TRY(VEC_RESERVE(&s->blocks, &s->cap_blocks, (uint64_t)index + 1));
    memset(s->blocks + old, 0, (s->cap_blocks - old) * sizeof *s->blocks);
  }
  block *b = &s->blocks[index];
  if (b->written) return hpcdb_fail(HPCDB_EINVAL, "profile %u was already written", index);
  HPCDB_TRY(atomic_file_pad(&s->prof, 4));
  b->p_values = s->prof.written;
  b->n_values = p->n_values;
  uint8_t rec[12];
  for (uint64_t v = 0; v < p->n_values; v++) {
    wr_le16(rec, p->metric_ids[v]);
    wr_le_f64(rec + 2, p->values[v]);
    HPCDB_TRY(put(s, rec, 10));
  }
  HPCDB_TRY(flush(s));
  HPCDB_TRY(atomic_file_pad(&s->prof, 4));
  b->p_idx = s->prof.written;
  b->n_ctxs = p->n_ctxs;
  for (uint32_t k = 0; k < p->n_ctxs; k++) {
    wr_le32(rec, p->ctx_ids[k]);
    wr_le64(rec + 4, p->ctx_starts[k]);
    HPCDB_TRY(put(s, rec, 12));
  }
  if (p->n_ctxs && p->ctx_ids[p->n_ctxs - 1] > s->max_ctx) s->max_ctx = p->ctx_ids[p->n_ctxs - 1];
  b->written = 1;
  return flush(s);
}

/* profile.db's sections, footer and header, then into place. */
static int finish_profile(void *ctx, const hpcdb_experiment *exp, const char *path) {
  hpcdb_hpctk4_stream *s = ctx;
  for (uint32_t i = 0; i < exp->n_profiles; i++) /* profiles not streamed (the summary) go now */
    if (i >= s->cap_blocks || !s->blocks[i].written) HPCDB_TRY(hpcdb_hpctk4_stream_profile(s, i, &exp->profiles[i]));
  wbuf b = {0};
  uint64_t base, info, infos, tuples;
  HPCDB_TRY(atomic_file_pad(&s->prof, 8));
  base = s->prof.written;
  int rc = wbuf_alloc(&b, 0x0d, 8, &info);
  if (rc == 0) rc = wbuf_alloc(&b, SZ_PROFILE * (uint64_t)exp->n_profiles, 8, &infos);
  uint64_t info_size = b.len - info;
  if (rc == 0) rc = wbuf_align(&b, 8);
  tuples = b.len;
  for (uint32_t i = 0; i < exp->n_profiles && rc == 0; i++) {
    const hpcdb_profile *p = &exp->profiles[i];
    const block *bl = &s->blocks[i];
    uint64_t t = 0;
    if (p->has_id_tuple && (rc = wbuf_alloc(&b, 8 + 16 * (uint64_t)p->n_ids, 8, &t)) == 0) {
      wr_le16(b.data + t, p->n_ids);
      for (uint16_t k = 0; k < p->n_ids; k++) {
        uint8_t *q = b.data + t + 8 + 16 * (uint64_t)k;
        q[0] = (uint8_t)p->ids[k].kind;
        wr_le16(q + 2, p->ids[k].flags);
        wr_le32(q + 4, p->ids[k].logical_id);
        wr_le64(q + 8, p->ids[k].physical_id);
      }
      t += base;
    }
    uint8_t *q = b.data + infos + SZ_PROFILE * (uint64_t)i;
    wr_le64(q + 0x00, bl->n_values);
    wr_le64(q + 0x08, bl->p_values);
    wr_le32(q + 0x10, bl->n_ctxs);
    wr_le64(q + 0x18, bl->p_idx);
    wr_le64(q + 0x20, t);
    wr_le32(q + 0x28, p->flags);
  }
  if (rc == 0) {
    wr_le64(b.data + info, base + infos);
    wr_le32(b.data + info + 8, exp->n_profiles);
    b.data[info + 12] = SZ_PROFILE;
    uint8_t head[HEADER] = {0};
    hpctk4_write_header(head, "prof");
    hpctk4_set_section(head, 0, info_size, base + info);
    hpctk4_set_section(head, 1, b.len - tuples, base + tuples);
    if ((rc = atomic_file_write(&s->prof, b.data, (size_t)b.len)) == 0 && (rc = atomic_file_pad(&s->prof, 8)) == 0 &&
        (rc = atomic_file_write(&s->prof, "_prof.db", 8)) == 0)
      rc = atomic_file_pwrite(&s->prof, 0, head, sizeof head);
  }
  wbuf_free(&b);
  if (rc == 0) {
    s->open = 0;
    rc = atomic_file_commit(&s->prof);
  }
  if (rc == 0) rc = mapped_file_open(&s->map, path);
  return rc;
}

/* cct.db's source: the blocks of the finished profile.db. */
static void stream_count(void *ctx, uint64_t *count) {
  const hpcdb_hpctk4_stream *s = ctx;
  for (uint64_t i = 0; i < s->cap_blocks; i++) {
    const block *b = &s->blocks[i];
    if (!b->written || b->summary) continue;
    for (uint32_t k = 0; k < b->n_ctxs; k++) {
      const uint8_t *e = s->map.data + b->p_idx + 12 * (uint64_t)k;
      uint64_t hi = k + 1 < b->n_ctxs ? rd_le64(e + 16) : b->n_values;
      count[rd_le32(e)] += hi - rd_le64(e + 4);
    }
    mapped_file_release(&s->map, b->p_idx, 12 * (uint64_t)b->n_ctxs);
  }
}

static void stream_gather(void *ctx, uint32_t i, uint32_t *cursor, uint32_t c0, uint32_t c1, uint64_t *fill,
                          hpctk4_cct_entry *chunk) {
  const hpcdb_hpctk4_stream *s = ctx;
  const block *b = &s->blocks[i];
  if (!b->written || b->summary) return;
  uint32_t k = *cursor, first = k;
  for (; k < b->n_ctxs; k++) {
    const uint8_t *e = s->map.data + b->p_idx + 12 * (uint64_t)k;
    uint32_t c = rd_le32(e);
    if (c >= c1) break;
    uint64_t lo = rd_le64(e + 4), hi = k + 1 < b->n_ctxs ? rd_le64(e + 16) : b->n_values;
    uint64_t *slot = &fill[c - c0];
    for (uint64_t v = lo; v < hi; v++) {
      const uint8_t *val = s->map.data + b->p_values + 10 * v;
      chunk[(*slot)++] = (hpctk4_cct_entry){i, rd_le16(val), rd_le_f64(val + 2)};
    }
  }
  *cursor = k;
  if (k > first) { /* what this chunk consumed is not needed again */
    uint64_t v0 = rd_le64(s->map.data + b->p_idx + 12 * (uint64_t)first + 4);
    uint64_t v1 = k < b->n_ctxs ? rd_le64(s->map.data + b->p_idx + 12 * (uint64_t)k + 4) : b->n_values;
    mapped_file_release(&s->map, b->p_values + 10 * v0, 10 * (v1 - v0));
    mapped_file_release(&s->map, b->p_idx + 12 * (uint64_t)first, 12 * (uint64_t)(k - first));
  }
}

static int finish_cct(void *ctx, const hpcdb_experiment *exp, const char *path) {
  hpcdb_hpctk4_stream *s = ctx;
  uint32_t n_ctxs;
  HPCDB_TRY(hpctk4_cct_context_count(exp, &n_ctxs));
  if ((uint64_t)s->max_ctx + 1 > n_ctxs) n_ctxs = s->max_ctx + 1;
  for (uint32_t i = 0; i < exp->n_profiles && i < s->cap_blocks; i++)
    s->blocks[i].summary = (exp->profiles[i].flags & HPCDB_PROFILE_SUMMARY) != 0;
  hpctk4_cct_source src = {exp->n_profiles, s, stream_count, stream_gather};
  return hpctk4_write_cct_from(&src, n_ctxs, path, STREAM_CCT_CHUNK);
}

int hpcdb_hpctk4_stream_finish(hpcdb_hpctk4_stream *s, const hpcdb_experiment *exp) {
  hpctk4_value_writers w = {finish_profile, finish_cct, s};
  /* the directory was checked when the stream opened */
  int rc = hpctk4_write_with(exp, s->dir, s->flags | HPCDB_WRITE_FORCE, &w);
  hpcdb_hpctk4_stream_abort(s);
  return rc;
}

void hpcdb_hpctk4_stream_abort(hpcdb_hpctk4_stream *s) {
  if (!s) return;
  if (s->open) atomic_file_abort(&s->prof);
  mapped_file_close(&s->map);
  free(s->blocks);
  free(s->dir);
  free(s);
}
