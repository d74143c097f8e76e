/* The values: profile.db's thread blocks, cct.db and the summary profile,
 * each rank writing its part at offsets agreed by prefix sums over the ranks.
 *
 * profile.db: the thread blocks follow the 48-byte header in profile order,
 * each at a 4-byte boundary (every block's size is a multiple of 4), so a
 * rank's blocks start at 48 + the bytes of the lower ranks' blocks.
 *
 * cct.db: contexts are cut into one range per rank, of about equal values
 * (the counts per context summed over the ranks). Every rank sends each
 * range's values to its rank (18-byte records, its profiles in order), which
 * takes them sender by sender: a context's values arrive in profile order,
 * the order in which one process gathers them, so the blocks and the summary
 * (summary_make, adding in that order) are the same to the bit. The blocks
 * follow the {CI} entries each at a 4-byte boundary: a rank's part starts at
 * the 4-aligned end of the lower ranks' parts. The summary's values follow
 * the thread blocks in profile.db, its context index after them, in context
 * order: rank by rank again. */
#include <stdlib.h>
#include <string.h>

#include "analysis/dist.h"
#include "common/bytes.h"
#include "common/error.h"

#define RECORD 18                      /* ctx u32, profile u32, metric u16, value f64 */
#define CCT_CHUNK ((uint64_t)1 << 20)  /* values encoded at once */

static uint64_t align4(uint64_t x) { return (x + 3) / 4 * 4; }

/* The thread blocks at their offsets; what the tail and the exchange need is kept. */
static int write_blocks(dist_run *d) {
  uint64_t local[3] = {d->n_csr, 0, 0}, total[3];
  d->block_values = malloc((d->n_csr ? d->n_csr : 1) * sizeof *d->block_values);
  d->block_ctxs = malloc((d->n_csr ? d->n_csr : 1) * sizeof *d->block_ctxs);
  int rc = d->block_values && d->block_ctxs ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint64_t i = 0; i < d->n_csr && rc == 0; i++) {
    uint64_t size = hpctk4_value_block_size(&d->csr[i]);
    if (size == UINT64_MAX) rc = hpcdb_fail(HPCDB_ENOMEM, "a value block too large");
    local[2] += size;
    d->block_values[i] = d->csr[i].n_values;
    d->block_ctxs[i] = d->csr[i].n_ctxs;
  }
  HPCDB_TRY(dist_agree(d, rc));
  memcpy(total, local, sizeof total);
  HPCDB_TRY(dist_allreduce(d, total, 3, HPCDB_REDUCE_SUM));
  HPCDB_TRY(dist_exscan(d, local, 3));
  d->profile_base = local[0];
  d->n_profiles = total[0];
  d->thread_end = 48 + total[2];
  if (d->n_profiles == 0 && d->rank == 0) /* every rank knows; rank 0 can say how many files there were */
    rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: none of the %zu measurement files could be read", d->measurements,
                    d->n_files_total);
  HPCDB_TRY(dist_agree(d, rc));
  uint64_t at = 48 + local[2];
  uint8_t *buf = NULL;
  uint64_t cap = 0;
  for (uint64_t i = 0; i < d->n_csr && rc == 0; i++) {
    uint64_t size = hpctk4_value_block_size(&d->csr[i]);
    if (size > cap) {
      free(buf);
      cap = size;
      if (!(buf = malloc(cap ? cap : 1))) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for a value block");
    }
    if (rc == 0) hpctk4_value_block_encode(&d->csr[i], buf);
    if (rc == 0) rc = dist_pwrite(d->fd_prof, "profile.db", at, buf, size);
    at += size;
  }
  free(buf);
  if (rc == 0) rc = dist_checkpoint(d, "write");
  return dist_agree(d, rc);
}

/* bounds[r]..bounds[r + 1]: rank r's contexts, about total / size values each. */
static void context_ranges(const dist_run *d, const uint64_t *count, uint32_t n_ctxs, uint32_t *bounds) {
  uint64_t total = 0, done = 0;
  for (uint32_t c = 0; c < n_ctxs; c++) total += count[c];
  uint32_t c = 0;
  bounds[0] = 0;
  for (int r = 1; r < d->size; r++) {
    uint64_t goal = (uint64_t)((unsigned __int128)total * (unsigned)r / (unsigned)d->size);
    while (c < n_ctxs && done < goal) done += count[c++];
    bounds[r] = c;
  }
  bounds[d->size] = n_ctxs;
}

/* This rank's values cut by destination: each range's records in profile order. */
static int pack(dist_run *d, const uint32_t *bounds, uint8_t **out, uint64_t *counts) {
  memset(counts, 0, (size_t)d->size * sizeof *counts);
  uint64_t total = 0;
  for (uint64_t i = 0; i < d->n_csr; i++) {
    const hpcdb_profile *p = &d->csr[i];
    int r = 0;
    for (uint32_t k = 0; k < p->n_ctxs; k++) {
      while (p->ctx_ids[k] >= bounds[r + 1]) r++;
      counts[r] += RECORD * (p->ctx_starts[k + 1] - p->ctx_starts[k]);
    }
  }
  uint64_t *at = malloc((size_t)d->size * sizeof *at);
  if (!at) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (int r = 0; r < d->size; r++) {
    at[r] = total;
    total += counts[r];
  }
  if (total > SIZE_MAX || !(*out = malloc(total ? (size_t)total : 1))) {
    free(at);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %llu bytes of values to send", (unsigned long long)total);
  }
  for (uint64_t i = 0; i < d->n_csr; i++) {
    const hpcdb_profile *p = &d->csr[i];
    uint32_t profile = (uint32_t)(d->profile_base + i + 1);
    int r = 0;
    for (uint32_t k = 0; k < p->n_ctxs; k++) {
      while (p->ctx_ids[k] >= bounds[r + 1]) r++;
      for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++) {
        uint8_t *q = *out + at[r];
        wr_le32(q, p->ctx_ids[k]);
        wr_le32(q + 4, profile);
        wr_le16(q + 8, p->metric_ids[v]);
        wr_le_f64(q + 10, p->values[v]);
        at[r] += RECORD;
      }
    }
  }
  free(at);
  return 0;
}

/* The received records by context (c0 + k), sender by sender: profile order. */
static int unpack(const uint8_t *in, uint64_t n, uint32_t c0, uint32_t c1, const uint64_t *count,
                  hpctk4_cct_entry **out) {
  uint64_t total = 0;
  for (uint32_t c = c0; c < c1; c++) total += count[c];
  if (n != RECORD * total) return hpcdb_fail(HPCDB_EIO, "received %llu bytes of values, expected %llu",
                                             (unsigned long long)n, (unsigned long long)(RECORD * total));
  uint64_t *fill = malloc(((size_t)(c1 - c0) + 1) * sizeof *fill);
  *out = malloc((total ? total : 1) * sizeof **out);
  if (!fill || !*out) {
    free(fill);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %llu values", (unsigned long long)total);
  }
  uint64_t at = 0;
  for (uint32_t c = c0; c < c1; c++) {
    fill[c - c0] = at;
    at += count[c];
  }
  int rc = 0;
  for (uint64_t i = 0; i < total && rc == 0; i++) {
    const uint8_t *q = in + RECORD * i;
    uint32_t c = rd_le32(q);
    if (c < c0 || c >= c1 || fill[c - c0] >= (c + 1 < c1 ? fill[c + 1 - c0] : total))
      rc = hpcdb_fail(HPCDB_EIO, "received a value of context %u, not expected here", c);
    else
      (*out)[fill[c - c0]++] = (hpctk4_cct_entry){rd_le32(q + 4), rd_le16(q + 8), rd_le_f64(q + 10)};
  }
  free(fill);
  return rc;
}

/* Where each context's block goes relative to this rank's part: at a 4-byte
 * boundary, 12 bytes a value and 10 a distinct metric. */
static int block_starts(const hpctk4_cct_entry *e, const uint64_t *count, uint32_t n, uint64_t *start, uint64_t *len) {
  uint32_t *seen = calloc((size_t)UINT16_MAX + 1, sizeof *seen);
  if (!seen) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  uint64_t pos = 0, at = 0;
  for (uint32_t k = 0; k < n; k++) {
    uint64_t metrics = 0;
    for (uint64_t v = at; v < at + count[k]; v++)
      if (seen[e[v].metric] != k + 1) {
        seen[e[v].metric] = k + 1;
        metrics++;
      }
    start[k] = align4(pos);
    pos = start[k] + 12 * count[k] + 10 * metrics;
    at += count[k];
  }
  free(seen);
  *len = pos;
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

static int summarize(summary_part *s, uint32_t c, const hpctk4_cct_entry *e, uint64_t n) {
  int64_t k = summary_make(&s->maker, c, e, n, s->metrics, s->values);
  if (k < 0) return (int)k;
  if (k == 0) return 0;
  msg_u32(&s->idx, c);
  msg_u64(&s->idx, s->n_values); /* made global when the lower ranks' count is known */
  for (int64_t i = 0; i < k; i++) {
    msg_u16(&s->vals, s->metrics[i]);
    msg_f64(&s->vals, s->values[i]);
  }
  s->n_values += (uint64_t)k;
  s->n_ctxs++;
  return msg_status(&s->vals) < 0 ? HPCDB_ENOMEM : msg_status(&s->idx);
}

/* Encodes and writes contexts c0.. (count[k] values each) chunk by chunk at
 * base, their {CI}s in place, and makes the summary on the way. */
static int write_range(dist_run *d, const hpctk4_cct_entry *e, const uint64_t *count, uint32_t c0, uint32_t n,
                       const uint64_t *start, uint64_t base, summary_part *s) {
  uint8_t *infos = malloc(((size_t)n + 1) * HPCTK4_CCT_CI);
  if (!infos) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int rc = 0;
  uint64_t at = 0;
  for (uint32_t a = 0; a < n && rc == 0;) {
    uint32_t z = a + 1;
    uint64_t values = count[a];
    while (z < n && values + count[z] <= CCT_CHUNK) values += count[z++];
    wbuf out = {0};
    rc = hpctk4_cct_encode(e + at, count + a, z - a, &out, infos);
    for (uint32_t k = a; k < z && rc == 0; k++) {
      uint8_t *ci = infos + HPCTK4_CCT_CI * (uint64_t)(k - a);
      wr_le64(ci + 0x08, rd_le64(ci + 0x08) + base + start[a]);
      wr_le64(ci + 0x18, rd_le64(ci + 0x18) + base + start[a]);
    }
    if (rc == 0) rc = dist_pwrite(d->fd_cct, "cct.db", base + start[a], out.data, out.len);
    if (rc == 0)
      rc = dist_pwrite(d->fd_cct, "cct.db", HPCTK4_CCT_HEAD + HPCTK4_CCT_CI * (uint64_t)(c0 + a), infos,
                       HPCTK4_CCT_CI * (uint64_t)(z - a));
    wbuf_free(&out);
    for (uint32_t k = a; k < z && rc == 0; at += count[k++])
      if (count[k]) rc = summarize(s, c0 + k, e + at, count[k]);
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
  int rc = dist_pwrite(d->fd_prof, "profile.db", d->summary.p_values + 10 * local[0], s->vals.data, s->vals.len);
  if (rc == 0) rc = dist_pwrite(d->fd_prof, "profile.db", d->summary.p_idx + 12 * local[1], s->idx.data, s->idx.len);
  return rc;
}

/* cct.db's blocks of this rank's range and the summary of its contexts. */
static int write_cct(dist_run *d, const uint64_t *count, uint32_t n_ctxs, const uint32_t *bounds,
                     const hpctk4_cct_entry *e) {
  uint32_t c0 = bounds[d->rank], n = bounds[d->rank + 1] - c0;
  uint64_t *start = malloc(((size_t)n + 1) * sizeof *start), len = 0;
  summary_part s = {0};
  int rc = start ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0) rc = block_starts(e, count + c0, n, start, &len);
  rc = dist_agree(d, rc);
  uint64_t offset = align4(len), end[1];
  if (rc == 0) rc = dist_exscan(d, &offset, 1);
  uint64_t base = HPCTK4_CCT_HEAD + HPCTK4_CCT_CI * (uint64_t)n_ctxs + offset;
  if (rc == 0) {
    s.metrics = malloc(((size_t)UINT16_MAX + 1) * sizeof *s.metrics);
    s.values = malloc(((size_t)UINT16_MAX + 1) * sizeof *s.values);
    rc = summary_maker_init(&s.maker, d->opt->all_stats, d->exp->n_metrics);
    if (rc == 0 && (!s.metrics || !s.values)) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    if (rc == 0) rc = write_range(d, e, count + c0, c0, n, start, base, &s);
    rc = dist_agree(d, rc);
  }
  end[0] = n > 0 && c0 + n == n_ctxs ? base + len : 0; /* the last context's rank knows the end */
  if (rc == 0) rc = dist_allreduce(d, end, 1, HPCDB_REDUCE_MAX);
  d->cct_end = end[0];
  if (rc == 0) rc = dist_agree(d, write_summary(d, &s));
  summary_maker_free(&s.maker);
  free(s.metrics);
  free(s.values);
  msg_free(&s.vals);
  msg_free(&s.idx);
  free(start);
  return rc;
}

/* Every profile's values of each range sent to the range's rank. */
static int exchange(dist_run *d, const uint32_t *bounds, const uint64_t *count, hpctk4_cct_entry **e) {
  uint64_t *counts = calloc(2 * (size_t)d->size, sizeof *counts);
  uint8_t *out = NULL;
  void *in = NULL;
  int rc = counts ? pack(d, bounds, &out, counts) : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint64_t i = 0; i < d->n_csr; i++) analysis_csr_free(&d->csr[i]); /* in profile.db and in out now */
  d->n_csr = 0;
  rc = dist_agree(d, rc);
  if (rc == 0) rc = dist_alltoallv(d, out, counts, &in, counts + d->size);
  free(out);
  uint64_t n = 0;
  for (int r = 0; r < d->size && rc == 0; r++) n += counts[d->size + r];
  if (rc == 0) rc = unpack(in, n, bounds[d->rank], bounds[d->rank + 1], count, e);
  free(in);
  free(counts);
  return dist_agree(d, rc);
}

int dist_write_values(dist_run *d) {
  HPCDB_TRY(write_blocks(d));
  uint64_t max[1] = {0}; /* the largest context id with a value, + 1 */
  for (uint64_t i = 0; i < d->n_csr; i++)
    if (d->csr[i].n_ctxs && d->csr[i].ctx_ids[d->csr[i].n_ctxs - 1] + 1 > max[0])
      max[0] = d->csr[i].ctx_ids[d->csr[i].n_ctxs - 1] + 1ull;
  uint32_t n_ctxs;
  int rc = hpctk4_cct_context_count(d->exp, &n_ctxs);
  HPCDB_TRY(dist_agree(d, rc));
  HPCDB_TRY(dist_allreduce(d, max, 1, HPCDB_REDUCE_MAX));
  if (max[0] > n_ctxs) n_ctxs = (uint32_t)max[0];
  uint64_t *count = calloc(n_ctxs ? n_ctxs : 1, sizeof *count);
  uint32_t *bounds = malloc(((size_t)d->size + 1) * sizeof *bounds);
  hpctk4_cct_entry *e = NULL;
  rc = count && bounds ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u contexts", n_ctxs);
  for (uint64_t i = 0; i < d->n_csr && rc == 0; i++)
    for (uint32_t k = 0; k < d->csr[i].n_ctxs; k++)
      count[d->csr[i].ctx_ids[k]] += d->csr[i].ctx_starts[k + 1] - d->csr[i].ctx_starts[k];
  rc = dist_agree(d, rc);
  if (rc == 0) rc = dist_allreduce(d, count, n_ctxs, HPCDB_REDUCE_SUM);
  if (rc == 0) {
    context_ranges(d, count, n_ctxs, bounds);
    rc = exchange(d, bounds, count, &e);
  }
  if (rc == 0) rc = write_cct(d, count, n_ctxs, bounds, e);
  if (rc == 0 && d->rank == 0) { /* the header, the {CI}s and blocks are in place */
    uint8_t head[HPCTK4_CCT_HEAD];
    hpctk4_cct_header(head, n_ctxs);
    rc = dist_pwrite(d->fd_cct, "cct.db", 0, head, sizeof head);
    if (rc == 0) rc = dist_pwrite(d->fd_cct, "cct.db", (d->cct_end + 7) / 8 * 8, "__ctx.db", 8);
  }
  free(e);
  free(count);
  free(bounds);
  return dist_agree(d, rc);
}
