/* SPDX-License-Identifier: BSD-3-Clause */
/* The values: profile.db's thread blocks, cct.db and the summary profile,
 * each rank writing its part at offsets every rank can work out.
 *
 * profile.db: the thread blocks follow the 48-byte header in profile order,
 * each at a 4-byte boundary (every block's size is a multiple of 4), so a
 * rank's blocks start at 48 + the bytes of the lower ranks' blocks. As the
 * pass makes them, a rank's blocks go to a spill file of its own, laid out as
 * they will be in profile.db; once the prefix sum is known they are copied
 * there around the page cache (dist_direct_copy), and read back from the
 * spill, removed at the end. Rank 0's start at 48 whatever the others hold:
 * they go to profile.db at once, and are read back from there. Only each
 * profile's context index stays in memory, to find its values by context later.
 *
 * cct.db: a context's block is 12 bytes a value and 10 a distinct metric, at
 * a 4-byte boundary after the {CI} entries: the values per context and the
 * metric ids per context (a bit mask, or-ed over the ranks) give every
 * block's place on every rank. Contexts are cut into one range per rank, of
 * about equal bytes of cct.db, and each range into rounds of at most ROUND_BYTES
 * received: in a round every rank reads back its profiles' values of each
 * range's round (one read per profile and range, straight into the message)
 * and sends them to the range's rank (a segment per profile: its contexts'
 * index, 8 bytes a context, and the values as profile.db holds them, 10
 * bytes each; its profiles in order), which takes them sender by sender. So a context's values arrive in profile order, the
 * order in which one process gathers them, and the blocks and the summary
 * (summary_make, adding in that order) are the same to the bit. The summary's
 * values follow the thread blocks in profile.db, its context index after
 * them, in context order: rank by rank again (the values through the spill,
 * but rank 0's, which start where the thread blocks end). */
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/error.h"
#include "common/vec.h"
#include "distributed/dist.h"
#include "hpcdb/common.h"
#include "hpcdb/model.h"

#define VALUE_SENT 18                   /* bytes a value takes in a round at most: 10, 8 of its context's entry */
#define ROUND_BYTES ((uint64_t)4 << 20) /* values a rank receives in one round, at most (about) */
#define CCT_CHUNK ((uint64_t)1 << 18)   /* values encoded at once */
#define SUMMARY_BUF ((uint64_t)1 << 20) /* summary values held before they go to the spill */

static uint64_t align4(uint64_t x) { return (x + 3) / 4 * 4; }

int dist_values_prepare(dist_run *d) {
  d->n_ids = d->global.t.n_ids;
  d->mask_words = (uint32_t)(((uint64_t)d->global.exp->n_metrics * N_SCOPES + 63) / 64);
  if (d->mask_words == 0) d->mask_words = 1;
  d->count = calloc(d->n_ids ? d->n_ids : 1, sizeof *d->count);
  d->mask = calloc((uint64_t)(d->n_ids ? d->n_ids : 1) * d->mask_words, sizeof *d->mask);
  if (!d->count || !d->mask) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u contexts", d->n_ids);
  return dist_spill_open(d);
}

/* A profile's loops' lex_aware values, kept for the summary. */
static int keep_loops(dist_run *d, uint32_t profile, loop_lex_list *loops) {
  uint64_t n = d->n_loops + loops->n;
  if (VEC_RESERVE(&d->loops, &d->cap_loops, n) < 0 || VEC_RESERVE(&d->loop_profile, &d->cap_loop_profile, n) < 0)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory keeping loop values");
  for (uint32_t i = 0; i < loops->n; i++) {
    d->loops[d->n_loops] = loops->items[i];
    d->loop_profile[d->n_loops++] = profile;
  }
  loop_lex_list_free(loops);
  return 0;
}

int dist_keep_profile(void *user, uint32_t profile, hpcdb_profile *csr, loop_lex_list *loops) {
  dist_run *d = user;
  hpcdb_profile p = *csr;
  memset(csr, 0, sizeof *csr);
  if (keep_loops(d, profile, loops) < 0) {
    analysis_csr_free(&p);
    return HPCDB_ENOMEM;
  }
  uint64_t size = hpctk4_value_block_size(&p);
  int rc = 0;
  if (profile != d->n_csr + 1) /* the pass registers this rank's profiles after the summary, in order */
    rc = hpcdb_fail(HPCDB_EINVAL, "profile %u arrived out of order", profile);
  else if (size == UINT64_MAX || size > SIZE_MAX)
    rc = hpcdb_fail(HPCDB_ENOMEM, "profile %u: value block too large", profile);
  else if (VEC_RESERVE(&d->csr, &d->cap_csr, d->n_csr + 1) < 0 ||
           VEC_RESERVE(&d->spill_at, &d->cap_spill_at, d->n_csr + 1) < 0 ||
           ((size > d->enc_cap || !d->enc) && VEC_RESERVE(&d->enc, &d->enc_cap, size ? size : 1) < 0))
    rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory keeping profile %u", profile);
  for (uint32_t k = 0; k < p.n_ctxs && rc == 0; k++) {
    uint32_t c = p.ctx_ids[k];
    if (c >= d->n_ids) {
      rc = hpcdb_fail(HPCDB_EINVAL, "profile %u: context %u beyond the tree", profile, c);
      break;
    }
    d->count[c] += p.ctx_starts[k + 1] - p.ctx_starts[k];
    uint64_t *mask = d->mask + (uint64_t)c * d->mask_words, bits = 0;
    if (d->mask_words == 1) { /* the common case: one word, written once */
      for (uint64_t v = p.ctx_starts[k]; v < p.ctx_starts[k + 1]; v++) bits |= 1ull << (p.metric_ids[v] % 64);
      *mask |= bits;
    } else {
      for (uint64_t v = p.ctx_starts[k]; v < p.ctx_starts[k + 1]; v++)
        mask[p.metric_ids[v] / 64] |= 1ull << (p.metric_ids[v] % 64);
    }
  }
  if (rc == 0) {
    hpctk4_value_block_encode(&p, d->enc);
    if (d->rank == 0) /* in place: the blocks start right after the header */
      rc = dist_pwrite(d->fd_prof, "profile.db", 48 + d->spill_len, d->enc, size);
    else rc = dist_pwrite(d->fd_spill, "spill", d->spill_len, d->enc, size);
  }
  if (rc < 0) {
    analysis_csr_free(&p);
    return rc;
  }
  free(p.metric_ids); /* in the spill now; the index stays */
  free(p.values);
  p.metric_ids = NULL;
  p.values = NULL;
  d->spill_at[d->n_csr] = d->spill_len;
  d->csr[d->n_csr++] = p;
  d->spill_len += size;
  return 0;
}

/* A rank's thread blocks into profile.db from its spill, around the page
 * cache: pack reads them back from the spill. */
static int copy_blocks(dist_run *d) {
  char path[PATH_MAX];
  HPCDB_TRY(dist_value_path(d, "profile.db", path));
  dist_direct run;
  dist_direct_open(&run, d->fd_prof, path, "profile.db", d->blocks_at, d->blocks_at + d->spill_len);
  int rc = dist_direct_copy(&run, d->fd_spill, "spill", 0, d->blocks_at, d->spill_len);
  if (rc == 0) rc = dist_direct_finish(&run);
  dist_direct_close(&run);
  return rc;
}

/* The thread blocks into profile.db, from the spill. */
static int write_blocks(dist_run *d) {
  uint64_t local[2] = {d->n_csr, d->spill_len}, total[2];
  memcpy(total, local, sizeof total);
  HPCDB_TRY(dist_allreduce(d, total, 2, HPCDB_REDUCE_SUM));
  HPCDB_TRY(dist_exscan(d, local, 2));
  d->profile_base = local[0];
  d->n_profiles = total[0];
  d->thread_end = 48 + total[1];
  d->blocks_at = 48 + local[1];
  int rc = 0;
  if (d->rank != 0) rc = copy_blocks(d);
  d->summary_from = d->spill_len; /* the spill takes the summary's values next */
  if (rc == 0) rc = dist_checkpoint(d, "write");
  return dist_agree(d, rc);
}

/* bounds[r]..bounds[r + 1]: rank r's contexts, about total / size values each. */
static void cut(const uint64_t *count, uint32_t c0, uint32_t c1, uint32_t parts, uint32_t *bounds) {
  uint64_t total = 0, done = 0;
  for (uint32_t c = c0; c < c1; c++) total += count[c];
  uint32_t c = c0;
  bounds[0] = c0;
  for (uint32_t r = 1; r < parts; r++) {
    uint64_t goal = (uint64_t)((unsigned __int128)total * r / parts);
    while (c < c1 && done < goal) done += count[c++];
    bounds[r] = c;
  }
  bounds[parts] = c1;
}

/* bounds[r]..bounds[r + 1]: rank r's contexts, about equal bytes of cct.db
 * each (start: where each block starts). A block's bytes (12 a value, 10 a
 * distinct metric) are what encoding it and making its summary take: the
 * contexts of many values and the many contexts of few values balance. */
static void cut_blocks(const uint64_t *start, uint32_t n_ctxs, uint32_t parts, uint32_t *bounds) {
  uint64_t total = start[n_ctxs] - start[0];
  uint32_t c = 0;
  bounds[0] = 0;
  for (uint32_t r = 1; r < parts; r++) {
    uint64_t goal = start[0] + (uint64_t)((unsigned __int128)total * r / parts);
    while (c < n_ctxs && start[c] < goal) c++;
    bounds[r] = c;
  }
  bounds[parts] = n_ctxs;
}

/* The first context index entry of p at or after c. */
static uint32_t first_at(const hpcdb_profile *p, uint32_t c) {
  uint32_t lo = 0, hi = p->n_ctxs;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (p->ctx_ids[mid] < c) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* A round's values travel as profile.db holds them: per profile and window,
 * a segment of a head (profile, contexts, values: u32 each), the contexts'
 * index (context, values: u32 each) and the values (metric le16, value le
 * f64), read from the rank's blocks straight into the message. */
#define SEGMENT_HEAD 12
#define SEGMENT_CTX 8
#define VALUE 10

/* This rank's values of each window ([win[2r], win[2r + 1]) of rank r), read back from its blocks, as
 * segments to the window's rank: its profiles in order, contexts ascending. Its own window's go to *mine
 * (*n_mine bytes), not through MPI. */
static int pack(dist_run *d, const uint32_t *win, uint8_t **out, uint64_t *counts, uint8_t **mine, uint64_t *n_mine) {
  memset(counts, 0, (size_t)d->size * sizeof *counts);
  for (int r = 0; r < d->size; r++)
    for (uint64_t i = 0; i < d->n_csr; i++) {
      const hpcdb_profile *p = &d->csr[i];
      uint32_t a = first_at(p, win[2 * r]), z = first_at(p, win[2 * r + 1]);
      if (z > a)
        counts[r] += SEGMENT_HEAD + SEGMENT_CTX * (uint64_t)(z - a) + VALUE * (p->ctx_starts[z] - p->ctx_starts[a]);
    }
  *n_mine = counts[d->rank];
  counts[d->rank] = 0;
  uint64_t total = 0;
  for (int r = 0; r < d->size; r++) total += counts[r];
  if (total > SIZE_MAX || *n_mine > SIZE_MAX || !(*out = malloc(total ? (size_t)total : 1)) ||
      !(*mine = malloc(*n_mine ? (size_t)*n_mine : 1)))
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %llu bytes of values to send",
                      (unsigned long long)(total + *n_mine));
  uint8_t *q_out = *out, *q_mine = *mine;
  int rc = 0;
  /* rank 0's blocks are in profile.db, the others' in their spills still (copy_blocks) */
  int fd = d->rank == 0 ? d->fd_prof : d->fd_spill;
  const char *name = d->rank == 0 ? "profile.db" : "spill";
  uint64_t base = d->rank == 0 ? d->blocks_at : 0;
  for (int r = 0; r < d->size && rc == 0; r++) {
    uint8_t *q = r == d->rank ? q_mine : q_out;
    for (uint64_t i = 0; i < d->n_csr && rc == 0; i++) {
      const hpcdb_profile *p = &d->csr[i];
      uint32_t a = first_at(p, win[2 * r]), z = first_at(p, win[2 * r + 1]);
      if (z == a) continue;
      uint64_t v0 = p->ctx_starts[a], v1 = p->ctx_starts[z];
      wr_le32(q, (uint32_t)(d->profile_base + i + 1));
      wr_le32(q + 4, z - a);
      wr_le32(q + 8, (uint32_t)(v1 - v0)); /* a round is far below 2^32 values */
      q += SEGMENT_HEAD;
      for (uint32_t k = a; k < z; k++, q += SEGMENT_CTX) {
        wr_le32(q, p->ctx_ids[k]);
        wr_le32(q + 4, (uint32_t)(p->ctx_starts[k + 1] - p->ctx_starts[k]));
      }
      rc = dist_pread(fd, name, base + d->spill_at[i] + VALUE * v0, q, VALUE * (v1 - v0));
      q += VALUE * (v1 - v0);
    }
    if (r == d->rank) q_mine = q;
    else q_out = q;
  }
  return rc;
}

/* Where each context's values go in the round's entries (c0 + k), and where they end. */
static uint64_t places(uint32_t c0, uint32_t c1, const uint64_t *count, uint64_t *fill) {
  uint64_t total = 0, *end = fill + (c1 - c0);
  for (uint32_t c = c0; c < c1; c++) {
    fill[c - c0] = total;
    total += count[c];
    end[c - c0] = total;
  }
  return total;
}

static int bad_segment(uint64_t at, const char *rule) {
  return hpcdb_fail(HPCDB_EIO, "values received, segment at byte %llu: %s", (unsigned long long)at, rule);
}

/* One sender's segments by context: the senders in rank order give each
 * context's values in profile order. *placed counts the values placed. */
static int unpack(const uint8_t *in, uint64_t n, uint32_t c0, uint32_t c1, hpctk4_cct_entry *out, uint64_t *fill,
                  uint64_t *placed) {
  const uint64_t *end = fill + (c1 - c0);
  for (uint64_t at = 0; at < n;) {
    if (n - at < SEGMENT_HEAD) return bad_segment(at, "truncated head");
    const uint8_t *h = in + at;
    uint32_t profile = rd_le32(h), n_ctxs = rd_le32(h + 4), n_values = rd_le32(h + 8);
    uint64_t size = SEGMENT_HEAD + SEGMENT_CTX * (uint64_t)n_ctxs + VALUE * (uint64_t)n_values;
    if (size > n - at) return bad_segment(at, "longer than the message");
    const uint8_t *idx = h + SEGMENT_HEAD, *val = idx + SEGMENT_CTX * (uint64_t)n_ctxs;
    uint64_t used = 0;
    for (uint32_t k = 0; k < n_ctxs; k++, idx += SEGMENT_CTX) {
      uint32_t c = rd_le32(idx), m = rd_le32(idx + 4);
      if (c < c0 || c >= c1 || m > n_values - used || m > end[c - c0] - fill[c - c0])
        return hpcdb_fail(HPCDB_EIO, "received %u values of context %u, not expected here", m, c);
      hpctk4_cct_entry *o = out + fill[c - c0];
      for (uint32_t j = 0; j < m; j++, val += VALUE)
        o[j] = (hpctk4_cct_entry){profile, rd_le16(val), rd_le_f64(val + 2)};
      fill[c - c0] += m;
      used += m;
    }
    if (used != n_values) return bad_segment(at, "its contexts' values do not add up to its count");
    *placed += used;
    at += size;
  }
  return 0;
}

/* This rank's summary values and index, made context by context as one
 * process makes them. */
typedef struct summary_part {
  summary_maker maker;
  uint16_t *metrics;
  double *values;
  dist_msg vals, idx;
  uint64_t n_values, n_ctxs;
} summary_part;

/* The summary's values wait in the spill until their offset is known. */
static int flush_summary(dist_run *d, summary_part *s) {
  int rc = dist_msg_status(&s->vals);
  if (rc == 0 && d->rank == 0) /* rank 0's come first: in place */
    rc = dist_pwrite(d->fd_prof, "profile.db", d->thread_end + d->spill_len - d->summary_from, s->vals.data,
                     s->vals.len);
  else if (rc == 0) rc = dist_pwrite(d->fd_spill, "spill", d->spill_len, s->vals.data, s->vals.len);
  d->spill_len += s->vals.len;
  s->vals.len = 0;
  return rc;
}

static int summarize(dist_run *d, summary_part *s, uint32_t c, const hpctk4_cct_entry *e, uint64_t n) {
  int64_t k = summary_make(&s->maker, c, e, n, s->metrics, s->values);
  if (k <= 0) return (int)k;
  dist_msg_u32(&s->idx, c);
  dist_msg_u64(&s->idx, s->n_values); /* made global when the lower ranks' count is known */
  uint8_t *q = dist_msg_put(&s->vals, 10 * (uint64_t)k);
  for (int64_t i = 0; q && i < k; i++, q += 10) {
    wr_le16(q, s->metrics[i]);
    wr_le_f64(q + 2, s->values[i]);
  }
  s->n_values += (uint64_t)k;
  s->n_ctxs++;
  if (s->vals.len >= SUMMARY_BUF) HPCDB_TRY(flush_summary(d, s));
  return dist_msg_status(&s->idx);
}

/* This rank's runs of cct.db: its contexts' blocks, and their {CI}s. */
typedef struct cct_runs {
  dist_direct blocks, infos;
} cct_runs;

/* Encodes and writes contexts [c0, c1) (their values gathered in e) chunk by
 * chunk at their places, their {CI}s in place, and makes their summary. */
static int write_window(dist_run *d, const hpctk4_cct_entry *e, uint32_t c0, uint32_t c1, const uint64_t *start,
                        cct_runs *runs, summary_part *s) {
  const uint64_t *count = d->count;
  uint8_t *infos = malloc(((size_t)(c1 - c0) + 1) * HPCTK4_CCT_CI);
  if (!infos) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int rc = 0;
  uint64_t at = 0;
  for (uint32_t a = c0; a < c1 && rc == 0;) {
    uint32_t z = a + 1;
    uint64_t values = count[a];
    while (z < c1 && values + count[z] <= CCT_CHUNK) values += count[z++];
    hpctk4_wbuf out = {0};
    rc = hpctk4_cct_encode(e + at, count + a, z - a, &out, infos);
    if (rc == 0 && align4(start[a] + out.len) != start[z])
      rc = hpcdb_fail(HPCDB_EIO, "cct.db: blocks %u-%u misplaced", a, z);
    for (uint32_t k = a; k < z && rc == 0; k++) {
      uint8_t *ci = infos + HPCTK4_CCT_CI * (uint64_t)(k - a);
      wr_le64(ci + 0x08, rd_le64(ci + 0x08) + start[a]);
      wr_le64(ci + 0x18, rd_le64(ci + 0x18) + start[a]);
    }
    if (rc == 0) rc = dist_direct_write(&runs->blocks, start[a], out.data, out.len);
    if (rc == 0)
      rc = dist_direct_write(&runs->infos, HPCTK4_CCT_HEAD + HPCTK4_CCT_CI * (uint64_t)a, infos,
                             HPCTK4_CCT_CI * (uint64_t)(z - a));
    hpctk4_wbuf_free(&out);
    for (uint32_t k = a; k < z && rc == 0; at += count[k++])
      if (count[k]) rc = summarize(d, s, k, e + at, count[k]);
    a = z;
  }
  free(infos);
  return rc;
}

/* The summary's values after the thread blocks, its index after them. */
static int write_summary(dist_run *d, summary_part *s) {
  uint64_t local[2] = {s->n_values, s->n_ctxs}, total[2] = {s->n_values, s->n_ctxs};
  HPCDB_TRY(dist_allreduce(d, total, 2, HPCDB_REDUCE_SUM));
  HPCDB_TRY(dist_exscan(d, local, 2));
  d->summary = (hpctk4_block_place){total[0], d->thread_end, align4(d->thread_end + 10 * total[0]), (uint32_t)total[1]};
  for (uint64_t k = 0; k < s->n_ctxs; k++) {
    uint8_t *q = s->idx.data + 12 * k;
    wr_le64(q + 4, rd_le64(q + 4) + local[0]);
  }
  int rc = flush_summary(d, s);
  if (rc == 0 && d->rank != 0)
    rc = dist_copy(d->fd_spill, d->summary_from, d->fd_prof, d->summary.p_values + 10 * local[0],
                   d->spill_len - d->summary_from);
  if (rc == 0) rc = dist_spill_close(d);
  if (rc == 0) rc = dist_pwrite(d->fd_prof, "profile.db", d->summary.p_idx + 12 * local[1], s->idx.data, s->idx.len);
  return rc;
}

/* Where every context's cct.db block starts (start[n_ctxs]: where the last ends). */
static uint64_t *block_starts(const dist_run *d, uint32_t n_ctxs) {
  uint64_t *start = malloc(((size_t)n_ctxs + 1) * sizeof *start);
  if (!start) return NULL;
  uint64_t pos = HPCTK4_CCT_HEAD + HPCTK4_CCT_CI * (uint64_t)n_ctxs;
  for (uint32_t c = 0; c < n_ctxs; c++) {
    uint64_t metrics = 0;
    for (uint32_t w = 0; w < d->mask_words; w++)
      metrics += (uint64_t)__builtin_popcountll(d->mask[(uint64_t)c * d->mask_words + w]);
    start[c] = align4(pos);
    pos = start[c] + 12 * d->count[c] + 10 * metrics;
  }
  start[n_ctxs] = pos;
  return start;
}

#define LOOP_RECORD 20 /* ctx u32, profile u32, metric u32, value f64 */

/* The loops' lex_aware values to the ranks of their contexts, which add
 * them up in profile order (as one process does, loop_lex_add). */
static int exchange_loops(dist_run *d, const uint32_t *bounds, loop_lex_summary *sum) {
  uint64_t *counts = calloc(2 * (size_t)d->size, sizeof *counts);
  uint8_t *out = malloc(d->n_loops ? LOOP_RECORD * d->n_loops : 1);
  void *in = NULL;
  int rc = counts && out ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  uint64_t *at = counts ? counts + d->size : NULL; /* the receive counts come after */
  for (uint64_t i = 0; i < d->n_loops && rc == 0; i++) {
    int r = 0;
    while (d->loops[i].ctx >= bounds[r + 1] && r + 1 < d->size) r++;
    counts[r] += LOOP_RECORD;
  }
  uint64_t total = 0;
  for (int r = 0; r < d->size && rc == 0; r++) { /* where each rank's records go */
    at[r] = total;
    total += counts[r];
  }
  for (uint64_t i = 0; i < d->n_loops && rc == 0; i++) { /* in profile order within each rank's part */
    int r = 0;
    while (d->loops[i].ctx >= bounds[r + 1] && r + 1 < d->size) r++;
    uint8_t *q = out + at[r];
    wr_le32(q, d->loops[i].ctx);
    wr_le32(q + 4, (uint32_t)(d->profile_base + d->loop_profile[i]));
    wr_le32(q + 8, d->loops[i].metric);
    wr_le_f64(q + 12, d->loops[i].value);
    at[r] += LOOP_RECORD;
  }
  rc = dist_agree(d, rc);
  if (rc == 0) rc = dist_alltoallv(d, out, counts, &in, counts + d->size);
  uint64_t n = 0;
  for (int r = 0; r < d->size && rc == 0; r++) n += counts[d->size + r];
  loop_lex_value *items = rc == 0 ? malloc((n / LOOP_RECORD + 1) * sizeof *items) : NULL;
  if (rc == 0 && !items) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint64_t i = 0; i < n / LOOP_RECORD && rc == 0; i++) {
    const uint8_t *q = (const uint8_t *)in + LOOP_RECORD * i;
    items[i] = (loop_lex_value){rd_le32(q), rd_le32(q + 8), rd_le_f64(q + 12)};
  }
  if (rc == 0) {
    loop_lex_list l = {items, (uint32_t)(n / LOOP_RECORD)};
    rc = loop_lex_add(sum, &l);
  }
  free(items);
  free(in);
  free(out);
  free(counts);
  return dist_agree(d, rc);
}

/* The rounds: each sends every window's values to its rank, which writes them. */
static int exchange(dist_run *d, const uint32_t *bounds, const uint64_t *start, cct_runs *runs, summary_part *s) {
  uint64_t most = 0;
  for (int r = 0; r < d->size; r++) {
    uint64_t v = 0;
    for (uint32_t c = bounds[r]; c < bounds[r + 1]; c++) v += d->count[c];
    most = v > most ? v : most;
  }
  uint32_t rounds = (uint32_t)((VALUE_SENT * most + ROUND_BYTES - 1) / ROUND_BYTES);
  if (rounds == 0) rounds = 1;
  uint32_t *cuts = malloc((size_t)d->size * (rounds + 1) * sizeof *cuts);
  uint32_t *win = malloc(2 * (size_t)d->size * sizeof *win);
  uint64_t *counts = calloc(2 * (size_t)d->size, sizeof *counts);
  uint32_t own = bounds[d->rank + 1] - bounds[d->rank];
  uint64_t *fill = malloc((2 * (size_t)own + 1) * sizeof *fill); /* where each context's next value goes, its end */
  hpctk4_cct_entry *e = NULL;
  int rc = cuts && win && counts && fill ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (int r = 0; r < d->size && rc == 0; r++)
    cut(d->count, bounds[r], bounds[r + 1], rounds, cuts + (size_t)r * (rounds + 1));
  rc = dist_agree(d, rc);
  /* A round takes two collectives and one agreement: a rank that cannot pack (or could not write the
   * round before) sends nothing and says so in the agreement that follows the exchange, before any rank
   * uses what it received. */
  int wrc = 0; /* this rank's writing of the round before */
  for (uint32_t k = 0; k < rounds && rc == 0; k++) {
    for (int r = 0; r < d->size; r++) {
      win[2 * r] = cuts[(size_t)r * (rounds + 1) + k];
      win[2 * r + 1] = cuts[(size_t)r * (rounds + 1) + k + 1];
    }
    uint8_t *out = NULL, *mine = NULL;
    uint64_t n_mine = 0;
    void *in = NULL;
    int prc = wrc < 0 ? wrc : pack(d, win, &out, counts, &mine, &n_mine);
    if (prc < 0) memset(counts, 0, (size_t)d->size * sizeof *counts);
    int xrc = dist_alltoallv(d, out, counts, &in, counts + d->size);
    free(out);
    rc = dist_agree(d, prc < 0 ? prc : xrc);
    uint32_t c0 = win[2 * d->rank], c1 = win[2 * d->rank + 1];
    uint64_t values = rc == 0 ? places(c0, c1, d->count, fill) : 0, n = n_mine, before = 0;
    for (int r = 0; r < d->size && rc == 0; r++) {
      n += counts[d->size + r];
      if (r < d->rank) before += counts[d->size + r];
    }
    uint64_t placed = 0;
    if (rc == 0 && wrc == 0 && !(e = malloc((values ? values : 1) * sizeof *e)))
      wrc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    if (rc == 0 && wrc == 0)
      wrc = unpack(in, before, c0, c1, e, fill, &placed); /* the lower ranks', this one's, the higher */
    if (rc == 0 && wrc == 0) wrc = unpack(mine, n_mine, c0, c1, e, fill, &placed);
    if (rc == 0 && wrc == 0) wrc = unpack((const uint8_t *)in + before, n - n_mine - before, c0, c1, e, fill, &placed);
    if (rc == 0 && wrc == 0 && placed != values) /* no context got more than its count: now each has all of it */
      wrc = hpcdb_fail(HPCDB_EIO, "received %llu values, expected %llu", (unsigned long long)placed,
                       (unsigned long long)values);
    free(in);
    free(mine);
    if (rc == 0 && wrc == 0) wrc = write_window(d, e, c0, c1, start, runs, s);
    free(e);
    e = NULL;
  }
  if (rc == 0) rc = dist_agree(d, wrc); /* the last round's writing */
  free(cuts);
  free(win);
  free(counts);
  free(fill);
  return rc;
}

static int open_runs(dist_run *d, const uint32_t *bounds, const uint64_t *start, cct_runs *runs) {
  char path[PATH_MAX];
  memset(runs, 0, sizeof *runs);
  runs->blocks.fd_direct = runs->infos.fd_direct = -1;
  HPCDB_TRY(dist_value_path(d, "cct.db", path));
  uint32_t c0 = bounds[d->rank], c1 = bounds[d->rank + 1];
  dist_direct_open(&runs->blocks, d->fd_cct, path, "cct.db", start[c0], start[c1]);
  dist_direct_open(&runs->infos, d->fd_cct, path, "cct.db", HPCTK4_CCT_HEAD + HPCTK4_CCT_CI * (uint64_t)c0,
                   HPCTK4_CCT_HEAD + HPCTK4_CCT_CI * (uint64_t)c1);
  return 0;
}

static int write_cct(dist_run *d, uint32_t n_ctxs) {
  uint32_t *bounds = malloc(((size_t)d->size + 1) * sizeof *bounds);
  uint64_t *start = block_starts(d, n_ctxs);
  summary_part s = {0};
  loop_lex_summary loops = {0};
  loops.all_stats = d->opt->all_stats;
  s.metrics = malloc(((size_t)UINT16_MAX + 1) * sizeof *s.metrics);
  s.values = malloc(((size_t)UINT16_MAX + 1) * sizeof *s.values);
  int rc = summary_maker_init(&s.maker, d->opt->all_stats, d->global.exp->n_metrics);
  if (rc == 0 && (!bounds || !start || !s.metrics || !s.values)) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  rc = dist_agree(d, rc);
  if (rc == 0) {
    cut_blocks(start, n_ctxs, (uint32_t)d->size, bounds);
    rc = exchange_loops(d, bounds, &loops);
  }
  if (rc == 0) {
    s.maker.loops = &loops;
    cct_runs runs;
    rc = dist_agree(d, open_runs(d, bounds, start, &runs));
    if (rc == 0) rc = exchange(d, bounds, start, &runs, &s);
    if (rc == 0) rc = dist_direct_finish(&runs.blocks);
    if (rc == 0) rc = dist_direct_finish(&runs.infos);
    dist_direct_close(&runs.blocks); /* after a failure: what was staged is not written */
    dist_direct_close(&runs.infos);
    rc = dist_agree(d, rc);
  }
  if (rc == 0) rc = dist_agree(d, write_summary(d, &s));
  if (rc == 0 && d->rank == 0) { /* the header; the {CI}s and blocks are in place */
    uint8_t head[HPCTK4_CCT_HEAD];
    hpctk4_cct_header(head, n_ctxs);
    rc = dist_pwrite(d->fd_cct, "cct.db", 0, head, sizeof head);
    if (rc == 0) rc = dist_pwrite(d->fd_cct, "cct.db", (start[n_ctxs] + 7) / 8 * 8, "__ctx.db", 8);
  }
  summary_maker_free(&s.maker);
  loop_lex_summary_free(&loops);
  free(s.metrics);
  free(s.values);
  dist_msg_free(&s.vals);
  dist_msg_free(&s.idx);
  free(start);
  free(bounds);
  return dist_agree(d, rc);
}

int dist_write_values(dist_run *d) {
  HPCDB_TRY(write_blocks(d));
  uint64_t max[1] = {0}; /* the largest context id with a value, + 1 */
  for (uint32_t c = 0; c < d->n_ids; c++)
    if (d->count[c]) max[0] = c + 1ull;
  uint32_t n_ctxs = d->cct_ctxs;
  HPCDB_TRY(dist_allreduce(d, max, 1, HPCDB_REDUCE_MAX));
  if (max[0] > n_ctxs) n_ctxs = (uint32_t)max[0];
  if (n_ctxs > d->n_ids)
    return dist_agree(d, hpcdb_fail(HPCDB_EIO, "%u contexts, beyond the tree's %u", n_ctxs, d->n_ids));
  HPCDB_TRY(dist_allreduce(d, d->count, n_ctxs, HPCDB_REDUCE_SUM));
  HPCDB_TRY(dist_allreduce(d, d->mask, (uint64_t)n_ctxs * d->mask_words, HPCDB_REDUCE_BOR));
  HPCDB_TRY(write_cct(d, n_ctxs));
  free(d->count); /* what only the values needed: rank 0 writes meta.db next */
  free(d->mask);
  free(d->enc);
  free(d->loops);
  free(d->loop_profile);
  d->count = d->mask = NULL;
  d->enc = NULL;
  d->loops = NULL;
  d->loop_profile = NULL;
  d->n_loops = d->cap_loops = d->cap_loop_profile = d->enc_cap = 0;
  for (uint64_t i = 0; i < d->n_csr; i++) { /* the profiles' sizes stay */
    free(d->csr[i].ctx_ids);
    free(d->csr[i].ctx_starts);
    d->csr[i].ctx_ids = NULL;
    d->csr[i].ctx_starts = NULL;
  }
  return 0;
}
