/* The index, built in one pass over every element: each line is checked
 * (timestamps never decrease, every context id is in the tree) and split
 * into 2^k time buckets of about BUCKET_EVENTS elements, recording where
 * each bucket's elements begin; every TRACE_BLOCK_BUCKETS buckets make a
 * block with the time of each context in it (trace_blocks.c). Locating a
 * time then reads one directory entry and searches a bucket, instead of a
 * binary search over the whole line in the mapping. In place, the pages read are let go behind the pass
 * so that the resident set stays small whatever the file's size. */
#include <stdlib.h>

#include "common/error.h"
#include "query/trace_internal.h"

#define BUCKET_EVENTS 32
#define MAX_LOG_BUCKETS 24

static int by_profile(const void *a, const void *b) {
  const trace_line *x = a, *y = b;
  if (x->profile != y->profile) return x->profile < y->profile ? -1 : 1;
  return x->raw_off < y->raw_off ? -1 : x->raw_off > y->raw_off;
}

void trace_sort_lines(hpcdb_trace_set *t) {
  qsort(t->lines, t->n_lines, sizeof *t->lines, by_profile);
}

static uint32_t log_buckets_for(uint64_t n) {
  uint32_t k = 0;
  while (k < MAX_LOG_BUCKETS && ((uint64_t)BUCKET_EVENTS << (k + 1)) <= n) k++;
  return k;
}

/* The first timestamp of bucket b of [lo, hi] split in nb: the smallest t
 * with floor((t - lo) * nb / (hi - lo + 1)) >= b. */
static uint64_t bucket_start(uint64_t lo, uint64_t hi, uint64_t nb, uint64_t b) {
  unsigned __int128 span = (unsigned __int128)(hi - lo) + 1;
  return lo + (uint64_t)((span * b + nb - 1) / nb);
}

static int check_and_index(hpcdb_trace_set *t, trace_line *l, uint32_t row, trace_blocks_acc *acc) {
  const char *where = t->trace_path ? t->trace_path : "trace";
  uint64_t nb = (uint64_t)1 << l->log_buckets, b = 0, next = 0, prev = 0;
  uint32_t *dir = t->dir + l->dir_off;
  if (l->n) {
    l->lo = line_ts(l, 0);
    l->hi = line_ts(l, l->n - 1);
  }
  next = bucket_start(l->lo, l->hi, nb, 0);
  for (uint64_t k = 0; k < l->n; k++) {
    uint64_t ts = line_ts(l, k);
    uint32_t id = line_ctx(l, k);
    if (ts < prev)
      return hpcdb_fail_at(HPCDB_ECORRUPT, where, "trace line", l->raw ? l->raw_off + 12 * k : k, "time-order",
                           "profile %u (row %u): element %llu at %llu ns comes after one at %llu ns", l->profile,
                           row, (unsigned long long)k, (unsigned long long)ts, (unsigned long long)prev);
    uint32_t idx = trace_ctx_index(t, id);
    if (idx == HPCDB_NONE)
      return hpcdb_fail_at(HPCDB_ECORRUPT, where, "trace line", l->raw ? l->raw_off + 12 * k + 8 : k,
                           "context-id", "profile %u: element %llu names context %u, which the tree does not have",
                           l->profile, (unsigned long long)k, id);
    prev = ts;
    while (b < nb && ts >= next) {
      dir[b++] = (uint32_t)k;
      next = b < nb ? bucket_start(l->lo, l->hi, nb, b) : UINT64_MAX;
    }
    HPCDB_TRY(trace_blocks_element(t, acc, l, k, ts, idx, b - 1));
    if (l->raw && (k & 0xffff) == 0xffff) mapped_file_release(&t->map, l->raw_off + 12 * (k - 0xffff), 12 * 0x10000);
  }
  while (b <= nb) dir[b++] = (uint32_t)l->n;
  HPCDB_TRY(trace_blocks_end_line(t, acc, l));
  if (l->raw) mapped_file_release(&t->map, l->raw_off + 12 * (l->n & ~(uint64_t)0xffff), 12 * 0x10000);
  return 0;
}

int trace_index_build(hpcdb_trace_set *t) {
  uint64_t total = 0, blocks = 0;
  trace_sort_lines(t);
  for (uint32_t i = 0; i < t->n_lines; i++) {
    trace_line *l = &t->lines[i];
    if (l->n >= UINT32_MAX)
      return hpcdb_fail(HPCDB_EUNSUPPORTED, "profile %u: a trace line of %llu elements (at most 2^32 - 2)",
                        l->profile, (unsigned long long)l->n);
    l->log_buckets = log_buckets_for(l->n);
    l->dir_off = total;
    total += ((uint64_t)1 << l->log_buckets) + 1;
    l->blk_off = blocks;
    blocks += line_blocks(l) + 1;
  }
  free(t->dir);
  free(t->blk);
  t->dir = malloc(total * sizeof *t->dir);
  t->blk = malloc(blocks * sizeof *t->blk);
  if (!t->dir || !t->blk)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace index of %llu entries", (unsigned long long)total);
  t->n_dir = total;
  t->n_blk = blocks;
  t->n_hist = 0;
  if (t->map.data) mapped_file_advise_sequential(&t->map);
  trace_blocks_acc acc;
  int rc = trace_blocks_begin(t, &acc);
  for (uint32_t i = 0; rc == 0 && i < t->n_lines; i++) rc = check_and_index(t, &t->lines[i], i, &acc);
  trace_blocks_free(&acc);
  return rc;
}
