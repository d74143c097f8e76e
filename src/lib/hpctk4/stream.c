/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing a v4.0 database while its profiles are still being computed: each
 * thread profile's value block goes to profile.db as soon as it is known and
 * can then be dropped from memory. At the end cct.db is transposed from those
 * blocks, read back chunk by chunk; the summary profile follows them
 * (made from the gathered values while cct.db is written, when a summary
 * function is set), then the Profile Info and Identifier Tuple sections (the
 * format lets sections sit anywhere); meta.db and trace.db come from the
 * experiment. Memory holds the experiment's tree and tables, one block
 * position per profile, the summary's context index and the cct.db chunks
 * being made — not the values. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "common/bytes.h"
#include "common/error.h"
#include "common/vec.h"
#include "hpcdb/hpctk4_write.h"
#include "hpctk4/hpctk4_write.h"

#define HEADER 48 /* common header with two sections */
#define SZ_PROFILE 48
#define STREAM_CCT_CHUNK ((uint64_t)1 << 18) /* values per cct.db chunk and thread: 4 MiB gathered */
#define SUMMARY_BUF ((size_t)1 << 20)        /* summary values are written in pieces of this size */

#define SKIP 64 /* every SKIP-th context index entry is kept in memory, to find a chunk's start */

typedef struct block {
  uint64_t n_values, p_values, p_idx;
  uint32_t n_ctxs;
  int written, summary;
  uint64_t skip; /* its first entry in the stream's skip */
} block;

struct hpcdb_hpctk4_stream {
  hpcdb_atomic_dir out; /* the database is written into out.temp */
  unsigned flags;
  hpcdb_atomic_file prof;
  int open;
  block *blocks; /* by profile index */
  uint64_t cap_blocks;
  uint32_t max_ctx;    /* largest context id in any streamed value */
  uint32_t *skip;      /* the context of every SKIP-th index entry of each block */
  uint32_t n_profiles; /* the experiment's, when cct.db is written */
  unsigned threads;    /* for cct.db */
  uint8_t *enc;        /* one encoded value block */
  uint64_t enc_cap;
  /* the summary made while cct.db is written, appended to profile.db */
  hpcdb_summary_fn summary_fn;
  void *summary_user;
  uint32_t summary_profile;
  uint16_t *sum_metrics; /* fn's output for one context */
  double *sum_values;
  uint64_t sum_n_values;
  uint8_t *sum_idx; /* its context index, written after the values */
  uint64_t sum_idx_len, sum_idx_cap;
  size_t enc_used; /* summary values in enc not written yet */
};

int hpcdb_hpctk4_stream_open(hpcdb_hpctk4_stream **out, const char *dir, unsigned flags) {
  *out = NULL;
  hpcdb_hpctk4_stream *s = calloc(1, sizeof *s);
  if (!s) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int rc = hpctk4_open_dir(&s->out, dir, flags);
  if (rc < 0) {
    free(s);
    return rc;
  }
  s->flags = flags;
  size_t n = strlen(s->out.temp) + 16;
  char *path = malloc(n);
  if (!path) {
    hpcdb_hpctk4_stream_abort(s);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  snprintf(path, n, "%s/profile.db", s->out.temp);
  rc = atomic_file_open(&s->prof, path);
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

void hpcdb_hpctk4_stream_set_threads(hpcdb_hpctk4_stream *s, unsigned threads) { s->threads = threads; }

void hpcdb_hpctk4_stream_set_summary(hpcdb_hpctk4_stream *s, uint32_t profile, hpcdb_summary_fn fn, void *user) {
  s->summary_profile = profile;
  s->summary_fn = fn;
  s->summary_user = user;
}

static int reserve_block(hpcdb_hpctk4_stream *s, uint32_t index) {
  if (index < s->cap_blocks) return 0;
  uint64_t old = s->cap_blocks;
  HPCDB_TRY(VEC_RESERVE(&s->blocks, &s->cap_blocks, (uint64_t)index + 1));
  memset(s->blocks + old, 0, (s->cap_blocks - old) * sizeof *s->blocks);
  return 0;
}

uint64_t hpctk4_value_block_size(const hpcdb_profile *p) {
  uint64_t vals, idx, size;
  if (!mul_ok(p->n_values, 10, &vals) || !mul_ok(p->n_ctxs, 12, &idx) || !add_ok((vals + 3) / 4 * 4, idx, &size))
    return UINT64_MAX;
  return size;
}

uint64_t hpctk4_value_block_encode(const hpcdb_profile *p, uint8_t *q) {
  uint64_t vals = 10 * p->n_values, pad = (4 - vals % 4) % 4;
  for (uint64_t v = 0; v < p->n_values; v++, q += 10) {
    wr_le16(q, p->metric_ids[v]);
    wr_le_f64(q + 2, p->values[v]);
  }
  for (uint64_t i = 0; i < pad; i++) *q++ = 0;
  for (uint32_t k = 0; k < p->n_ctxs; k++, q += 12) {
    wr_le32(q, p->ctx_ids[k]);
    wr_le64(q + 4, p->ctx_starts[k]);
  }
  return vals + pad;
}

/* A value block is encoded whole (values, padding to 4 bytes, context index)
 * and written with one call. */
int hpcdb_hpctk4_stream_profile(hpcdb_hpctk4_stream *s, uint32_t index, const hpcdb_profile *p) {
  HPCDB_TRY(reserve_block(s, index));
  block *b = &s->blocks[index];
  if (b->written) return hpcdb_fail(HPCDB_EINVAL, "profile %u was already written", index);
  HPCDB_TRY(atomic_file_pad(&s->prof, 4));
  uint64_t size = hpctk4_value_block_size(p);
  if (size == UINT64_MAX || size > SIZE_MAX)
    return hpcdb_fail(HPCDB_ENOMEM, "profile %u: value block too large", index);
  if (size > s->enc_cap) {
    uint8_t *e = realloc(s->enc, (size_t)size);
    if (!e) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a value block of %llu bytes", (unsigned long long)size);
    s->enc = e;
    s->enc_cap = size;
  }
  b->p_values = s->prof.written;
  b->n_values = p->n_values;
  b->p_idx = b->p_values + hpctk4_value_block_encode(p, s->enc);
  b->n_ctxs = p->n_ctxs;
  HPCDB_TRY(atomic_file_write(&s->prof, s->enc, (size_t)size));
  if (p->n_ctxs && p->ctx_ids[p->n_ctxs - 1] > s->max_ctx) s->max_ctx = p->ctx_ids[p->n_ctxs - 1];
  b->written = 1;
  return 0;
}

/* profile.db's sections, footer and header, then into place. */
static int finish_profile(void *ctx, const hpcdb_experiment *exp, const char *path) {
  hpcdb_hpctk4_stream *s = ctx;
  if (s->summary_fn) { /* its values are in place (finish_cct); the index follows them */
    block *b = &s->blocks[s->summary_profile];
    HPCDB_TRY(atomic_file_pad(&s->prof, 4));
    b->p_idx = s->prof.written;
    b->n_values = s->sum_n_values;
    b->n_ctxs = (uint32_t)(s->sum_idx_len / 12);
    HPCDB_TRY(atomic_file_write(&s->prof, s->sum_idx, (size_t)s->sum_idx_len));
    b->written = 1;
  }
  for (uint32_t i = 0; i < exp->n_profiles; i++) /* profiles not streamed (the summary) go now */
    if (i >= s->cap_blocks || !s->blocks[i].written) HPCDB_TRY(hpcdb_hpctk4_stream_profile(s, i, &exp->profiles[i]));
  HPCDB_TRY(atomic_file_pad(&s->prof, 8));
  hpctk4_block_place *places = malloc((exp->n_profiles ? exp->n_profiles : 1) * sizeof *places);
  if (!places) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < exp->n_profiles; i++)
    places[i] =
        (hpctk4_block_place){s->blocks[i].n_values, s->blocks[i].p_values, s->blocks[i].p_idx, s->blocks[i].n_ctxs};
  hpctk4_wbuf b = {0};
  uint8_t head[HEADER];
  int rc = hpctk4_profile_tail(exp, places, s->prof.written, &b, head);
  free(places);
  if (rc == 0 && (rc = atomic_file_write(&s->prof, b.data, (size_t)b.len)) == 0)
    rc = atomic_file_pwrite(&s->prof, 0, head, sizeof head);
  hpctk4_wbuf_free(&b);
  if (rc == 0) {
    s->open = 0;
    rc = atomic_file_commit(&s->prof);
  }
  return rc;
}

int hpctk4_profile_tail(const hpcdb_experiment *exp, const hpctk4_block_place *places, uint64_t base, hpctk4_wbuf *out,
                        uint8_t head[48]) {
  hpctk4_wbuf b = {0};
  uint64_t info, infos, tuples;
  int rc = hpctk4_wbuf_alloc(&b, 0x0d, 8, &info);
  if (rc == 0) rc = hpctk4_wbuf_alloc(&b, SZ_PROFILE * (uint64_t)exp->n_profiles, 8, &infos);
  uint64_t info_size = b.len - info;
  if (rc == 0) rc = hpctk4_wbuf_align(&b, 8);
  tuples = b.len;
  for (uint32_t i = 0; i < exp->n_profiles && rc == 0; i++) {
    const hpcdb_profile *p = &exp->profiles[i];
    const hpctk4_block_place *bl = &places[i];
    uint64_t t = 0;
    if (p->has_id_tuple && (rc = hpctk4_wbuf_alloc(&b, 8 + 16 * (uint64_t)p->n_ids, 8, &t)) == 0) {
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
    memset(head, 0, HEADER);
    hpctk4_write_header(head, "prof");
    hpctk4_set_section(head, 0, info_size, base + info);
    hpctk4_set_section(head, 1, b.len - tuples, base + tuples);
    uint64_t end;
    if ((rc = hpctk4_wbuf_alloc(&b, 8, 8, &end)) == 0) memcpy(b.data + end, "_prof.db", 8);
  }
  if (rc < 0) {
    hpctk4_wbuf_free(&b);
    return rc;
  }
  *out = b;
  return 0;
}

/* Reads n bytes of profile.db at off into buf at at (grown as needed). The
 * blocks are read, not mapped: nothing stays resident, no page faults. */
static int read_at(const hpcdb_hpctk4_stream *s, uint64_t off, uint64_t n, hpctk4_read_buf *buf, uint64_t at) {
  if (at + n > buf->cap) {
    uint64_t cap = buf->cap ? buf->cap : 1 << 16;
    while (cap < at + n) cap *= 2;
    uint8_t *d = cap <= SIZE_MAX ? realloc(buf->data, (size_t)cap) : NULL;
    if (!d) return hpcdb_fail(HPCDB_ENOMEM, "out of memory reading profile.db back");
    buf->data = d;
    buf->cap = cap;
  }
  int fd = fileno(s->prof.fp);
  for (uint64_t done = 0; done < n;) {
    ssize_t got = pread(fd, buf->data + at + done, (size_t)(n - done), (off_t)(off + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      return hpcdb_fail(HPCDB_EIO, "%s: cannot read back %llu bytes at %llu: %s", s->prof.temp, (unsigned long long)n,
                        (unsigned long long)off, got < 0 ? strerror(errno) : "end of file");
    done += (uint64_t)got;
  }
  return 0;
}

/* cct.db's source: the thread blocks written to profile.db. */
static int stream_count(void *ctx, uint64_t *count) {
  hpcdb_hpctk4_stream *s = ctx;
  hpctk4_read_buf buf = {0};
  int rc = 0;
  for (uint32_t i = 0; i < s->n_profiles && rc == 0; i++) {
    const block *b = &s->blocks[i];
    if (!b->written || b->summary) continue;
    if ((rc = read_at(s, b->p_idx, 12 * (uint64_t)b->n_ctxs, &buf, 0)) < 0) break;
    for (uint32_t k = 0; k < b->n_ctxs; k++) {
      const uint8_t *e = buf.data + 12 * (uint64_t)k;
      uint64_t hi = k + 1 < b->n_ctxs ? rd_le64(e + 16) : b->n_values;
      count[rd_le32(e)] += hi - rd_le64(e + 4);
      if (k % SKIP == 0) s->skip[b->skip + k / SKIP] = rd_le32(e);
    }
  }
  free(buf.data);
  return rc;
}

/* Index entries are read this many at a time until the chunk's end. */
#define INDEX_WINDOW 256

static int stream_gather(void *ctx, uint32_t i, uint32_t c0, uint32_t c1, uint64_t *fill, hpctk4_cct_entry *chunk,
                         hpctk4_read_buf *buf) {
  const hpcdb_hpctk4_stream *s = ctx;
  const block *b = &s->blocks[i];
  if (!b->written || b->summary) return 0;
  const uint32_t *skip = s->skip + b->skip;
  uint32_t lo = 0, hi = (b->n_ctxs + SKIP - 1) / SKIP; /* the first kept entry >= c0, in memory */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (skip[mid] < c0) lo = mid + 1;
    else hi = mid;
  }
  if (b->n_ctxs == 0 || (lo == 0 && skip[0] >= c1)) return 0; /* every context is >= c1 */
  /* Entries from the kept one before (the chunk's first may lie between): read
   * windows until an entry >= c1 (kept: its start ends the values) or the end. */
  uint32_t first = lo ? (lo - 1) * SKIP : 0, k = first;
  uint64_t n_read = 0;
  for (;;) {
    uint32_t n = b->n_ctxs - k < INDEX_WINDOW ? b->n_ctxs - k : INDEX_WINDOW;
    if (n == 0) break;
    HPCDB_TRY(read_at(s, b->p_idx + 12 * (uint64_t)k, 12 * (uint64_t)n, buf, 12 * n_read));
    n_read += n;
    k += n;
    if (rd_le32(buf->data + 12 * (n_read - 1)) >= c1) break;
  }
  uint32_t from = 0, to;
  while (from < n_read && rd_le32(buf->data + 12 * (uint64_t)from) < c0) from++;
  for (to = from; to < n_read && rd_le32(buf->data + 12 * (uint64_t)to) < c1; to++) {}
  if (to == from) return 0;
  uint64_t v0 = rd_le64(buf->data + 12 * (uint64_t)from + 4);
  uint64_t v1 = first + to < b->n_ctxs ? rd_le64(buf->data + 12 * (uint64_t)to + 4) : b->n_values;
  uint64_t at = 12 * n_read; /* the values after the index entries */
  HPCDB_TRY(read_at(s, b->p_values + 10 * v0, 10 * (v1 - v0), buf, at));
  const uint8_t *index = buf->data, *values = buf->data + at;
  for (uint32_t e = from; e < to; e++) {
    const uint8_t *x = index + 12 * (uint64_t)e;
    uint64_t a = rd_le64(x + 4) - v0, z = (e + 1 < to ? rd_le64(x + 16) : v1) - v0;
    uint64_t *slot = &fill[rd_le32(x) - c0];
    for (const uint8_t *val = values + 10 * a; val < values + 10 * z; val += 10)
      chunk[(*slot)++] = (hpctk4_cct_entry){i, rd_le16(val), rd_le_f64(val + 2)};
  }
  return 0;
}

static int flush_summary(hpcdb_hpctk4_stream *s) {
  int rc = atomic_file_write(&s->prof, s->enc, s->enc_used);
  s->enc_used = 0;
  return rc;
}

/* A context's summary values: to profile.db (through enc), its index entry kept. */
static int stream_visit(void *ctx, uint32_t c, const hpctk4_cct_entry *e, uint64_t n) {
  hpcdb_hpctk4_stream *s = ctx;
  int64_t k = s->summary_fn(s->summary_user, c, e, n, s->sum_metrics, s->sum_values);
  if (k <= 0) return (int)k;
  if (k > (int64_t)UINT16_MAX + 1) return hpcdb_fail(HPCDB_EINVAL, "context %u: more than 65536 summary values", c);
  if (s->sum_idx_len + 12 > s->sum_idx_cap) HPCDB_TRY(VEC_RESERVE(&s->sum_idx, &s->sum_idx_cap, s->sum_idx_len + 12));
  wr_le32(s->sum_idx + s->sum_idx_len, c);
  wr_le64(s->sum_idx + s->sum_idx_len + 4, s->sum_n_values);
  s->sum_idx_len += 12;
  for (int64_t i = 0; i < k; i++) {
    if (s->enc_used + 10 > SUMMARY_BUF) HPCDB_TRY(flush_summary(s));
    wr_le16(s->enc + s->enc_used, s->sum_metrics[i]);
    wr_le_f64(s->enc + s->enc_used + 2, s->sum_values[i]);
    s->enc_used += 10;
  }
  s->sum_n_values += (uint64_t)k;
  return 0;
}

/* cct.db from the thread blocks written so far (read back); the summary, when
 * made here, follows them in profile.db. */
static int finish_cct(void *ctx, const hpcdb_experiment *exp, const char *path) {
  hpcdb_hpctk4_stream *s = ctx;
  uint32_t n_ctxs;
  HPCDB_TRY(hpctk4_cct_context_count(exp, &n_ctxs));
  if ((uint64_t)s->max_ctx + 1 > n_ctxs) n_ctxs = s->max_ctx + 1;
  HPCDB_TRY(reserve_block(s, exp->n_profiles));
  for (uint32_t i = 0; i < exp->n_profiles; i++) {
    s->blocks[i].summary = (exp->profiles[i].flags & HPCDB_PROFILE_SUMMARY) != 0;
    if (!s->blocks[i].written && !s->blocks[i].summary) /* thread profiles not streamed: cct.db needs them */
      HPCDB_TRY(hpcdb_hpctk4_stream_profile(s, i, &exp->profiles[i]));
  }
  static const uint8_t zeros[HEADER];
  HPCDB_TRY(atomic_file_pwrite(&s->prof, 0, zeros, sizeof zeros)); /* flushes the blocks before they are read */
  uint64_t n_skip = 0;
  s->n_profiles = exp->n_profiles; /* blocks beyond (none, used properly) are left out */
  for (uint32_t i = 0; i < exp->n_profiles; i++) {
    s->blocks[i].skip = n_skip;
    n_skip += (s->blocks[i].n_ctxs + SKIP - 1) / SKIP;
  }
  if (!(s->skip = malloc((n_skip ? n_skip : 1) * sizeof *s->skip)))
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u profiles", exp->n_profiles);
  hpctk4_cct_source src = {exp->n_profiles, s, stream_count, stream_gather, NULL};
  if (s->summary_fn) {
    if (s->summary_profile >= exp->n_profiles || s->blocks[s->summary_profile].written)
      return hpcdb_fail(HPCDB_EINVAL, "summary profile %u: not a profile still to write", s->summary_profile);
    s->sum_metrics = malloc(((size_t)UINT16_MAX + 1) * sizeof *s->sum_metrics);
    s->sum_values = malloc(((size_t)UINT16_MAX + 1) * sizeof *s->sum_values);
    uint8_t *enc = s->enc_cap < SUMMARY_BUF ? realloc(s->enc, SUMMARY_BUF) : s->enc;
    if (enc && s->enc_cap < SUMMARY_BUF) {
      s->enc = enc;
      s->enc_cap = SUMMARY_BUF;
    }
    if (!s->sum_metrics || !s->sum_values || !enc)
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the summary profile");
    HPCDB_TRY(atomic_file_pad(&s->prof, 4));
    s->blocks[s->summary_profile].p_values = s->prof.written;
    src.visit = stream_visit;
  }
  HPCDB_TRY(hpctk4_write_cct_from(&src, n_ctxs, path, STREAM_CCT_CHUNK, s->threads));
  return s->summary_fn ? flush_summary(s) : 0;
}

int hpcdb_hpctk4_stream_finish(hpcdb_hpctk4_stream *s, const hpcdb_experiment *exp) {
  hpctk4_value_writers w = {finish_profile, finish_cct, s, s->threads};
  int rc = hpctk4_write_into(exp, s->out.temp, s->flags, &w);
  if (rc == 0) rc = atomic_dir_commit(&s->out);
  hpcdb_hpctk4_stream_abort(s);
  return rc;
}

int hpctk4_stream_finish_held(hpcdb_hpctk4_stream *s, const hpcdb_experiment *exp, hpcdb_atomic_dir *held) {
  hpctk4_value_writers w = {finish_profile, finish_cct, s, s->threads};
  int rc = hpctk4_write_into(exp, s->out.temp, s->flags, &w);
  if (rc == 0) { /* the temporary changes hands: the stream's abort leaves it */
    *held = s->out;
    s->out = (hpcdb_atomic_dir){0};
  }
  hpcdb_hpctk4_stream_abort(s);
  return rc;
}

void hpcdb_hpctk4_stream_abort(hpcdb_hpctk4_stream *s) {
  if (!s) return;
  if (s->open) atomic_file_abort(&s->prof);
  atomic_dir_abort(&s->out); /* nothing left to do after a commit */
  free(s->skip);
  free(s->enc);
  free(s->sum_metrics);
  free(s->sum_values);
  free(s->sum_idx);
  free(s->blocks);
  free(s);
}
