/* SPDX-License-Identifier: BSD-3-Clause */
/* The index, built in one pass over every element: each line is checked
 * (timestamps never decrease, every context id is in the tree) and split
 * into 2^k time buckets of about BUCKET_EVENTS elements, recording where
 * each bucket's elements begin, and the pyramid's level 0 is accumulated
 * (trace_pyramid.c builds the levels above at each line's end). Locating a
 * time then reads one directory entry and searches a bucket, instead of a
 * binary search over the whole line in the mapping.
 *
 * The pass runs at near the speed of reading the bytes: one tight loop per
 * line with the checks folded into a flag (a line found bad is read again
 * to name its first bad element), and two threads, each on half of the
 * elements (lines split where the element count halves). In place, the
 * elements are read with pread into a buffer per thread, so that no page of
 * trace.db enters the resident set whatever the file's size. */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/mapped_file.h"
#include "common/worker.h"
#include "query/trace_internal.h"

#define BUCKET_EVENTS 32
#define MAX_LOG_BUCKETS 24
#define READ_EVERY 0x4000        /* elements (192 KB in place) */
#define PARALLEL_FROM (1u << 16) /* elements: below, one thread */

static int by_profile(const void *a, const void *b) {
  const trace_line *x = a, *y = b;
  if (x->profile != y->profile) return x->profile < y->profile ? -1 : 1;
  return x->raw_off < y->raw_off ? -1 : x->raw_off > y->raw_off;
}

void trace_sort_lines(hpcdb_trace_set *t) { qsort(t->lines, t->n_lines, sizeof *t->lines, by_profile); }

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

/* A line the pass found bad, read again element by element: the error for
 * its first bad element. */
static int name_the_fault(const hpcdb_trace_set *t, const trace_line *l, uint32_t row) {
  const char *where = t->trace_path ? t->trace_path : "trace";
  uint64_t prev = 0;
  for (uint64_t k = 0; k < l->n; k++) {
    uint64_t ts = line_ts(l, k);
    uint32_t id = line_ctx(l, k);
    if (ts < prev)
      return hpcdb_fail_at(HPCDB_ECORRUPT, where, "trace line", l->raw ? l->raw_off + 12 * k : k, "time-order",
                           "profile %u (row %u): element %llu at %llu ns comes after one at %llu ns", l->profile, row,
                           (unsigned long long)k, (unsigned long long)ts, (unsigned long long)prev);
    if (trace_ctx_index(t, id) == HPCDB_NONE)
      return hpcdb_fail_at(HPCDB_ECORRUPT, where, "trace line", l->raw ? l->raw_off + 12 * k + 8 : k, "context-id",
                           "profile %u: element %llu names context %u, which the tree does not have", l->profile,
                           (unsigned long long)k, id);
    prev = ts;
  }
  return hpcdb_fail(HPCDB_ECORRUPT, "profile %u: the trace line changed while it was read", l->profile);
}

/* What one thread's share of the pass needs: the slot of each context id
 * (slot[n_ids]: any id past the table; unknown ids get n_contexts). */
typedef struct progress {
  const hpcdb_trace_options *o;
  atomic_uint_fast64_t done;
  uint64_t total;
} progress;

static void report(progress *g, uint64_t more) {
  if (g->o && g->o->progress) g->o->progress(g->o->progress_user, atomic_fetch_add(&g->done, more) + more, g->total);
}

typedef struct half {
  hpcdb_trace_set *t;
  const uint32_t *slot;
  progress *g;
  uint32_t first, end; /* lines [first, end) */
  trace_pyr_build acc;
  uint8_t *buf; /* READ_EVERY elements of trace.db */
  int rc;
  char error[1024];
} half;

/* One line, checked and indexed. `raw` is a constant where this is inlined:
 * the loop is compiled once for elements in trace.db and once for the
 * model's arrays. In place, the elements are read READ_EVERY at a time into
 * the thread's buffer (one copy, as `cat` makes, and no page mapped into the
 * process: mapping them cost a page fault per 64 KB and an madvise to let
 * them go). Processing element k adds element k-1's time (it ends at k's
 * timestamp) to the current level-0 bucket, which is complete once element
 * (j+1)*E0 is processed. */
static inline __attribute__((always_inline)) int index_line(half *h, trace_line *l, uint32_t row, const int raw) {
  hpcdb_trace_set *t = h->t;
  trace_pyr_build *a = &h->acc;
  const uint64_t n = l->n, nb = (uint64_t)1 << l->log_buckets, E0 = (uint64_t)1 << TRACE_LOG_E0;
  const uint32_t *slot = h->slot, n_ids = t->n_ids, unknown = t->exp->n_contexts;
  uint32_t *dir = t->dir + l->dir_off, *touched = a->touched;
  uint64_t *ns = a->ns;
  const uint8_t *p = h->buf; /* element k at p + 12 * (k - base) */
  uint64_t b = 0, base = 0, read_end = 0, flush_at = E0, bucket = 0;
  uint32_t bad = 0;
  l->lo = l->hi = 0;
  if (n) {
    uint8_t hi[8];
    if (raw && (h->rc = read_at(t->fd, hi, 8, l->raw_off + 12 * (n - 1), t->trace_path)) < 0) return h->rc;
    if (raw && (h->rc = read_at(t->fd, h->buf, 8, l->raw_off, t->trace_path)) < 0) return h->rc;
    l->lo = raw ? rd_le64(p) : l->ts[0];
    l->hi = raw ? rd_le64(hi) : l->ts[n - 1];
  }
  uint64_t next = l->lo, prev_ts = l->lo, first_ts = l->lo; /* first_ts: the current level-0 bucket's */
  uint32_t prev = unknown, nt = 0;
  for (uint64_t k = 0; k < n;) {
    if (k == read_end) {
      if (bad) break;
      if (k) report(h->g, k - base);
      base = k;
      read_end = n - k < READ_EVERY ? n : k + READ_EVERY;
      if (raw && (h->rc = read_at(t->fd, h->buf, 12 * (read_end - k), l->raw_off + 12 * k, t->trace_path)) < 0)
        return h->rc;
    }
    uint64_t stop = read_end < flush_at + 1 ? read_end : flush_at + 1;
    /* the hot loop: elements up to the next time bucket, level-0 bucket or read */
    for (; k < stop; k++) {
      uint64_t ts = raw ? rd_le64(p + 12 * (k - base)) : l->ts[k];
      uint32_t id = raw ? rd_le32(p + 12 * (k - base) + 8) : l->ctx[k];
      uint32_t s = slot[id < n_ids ? id : n_ids];
      bad |= (ts < prev_ts) | (s == unknown);
      uint64_t dt = ts - prev_ts; /* the previous element's time, in its bucket */
      touched[nt] = prev;
      nt += (ns[prev] == 0) & (dt != 0);
      ns[prev] += dt;
      prev_ts = ts;
      prev = s;
      if (ts >= next) break;
    }
    if (k < stop) { /* element k starts a new time bucket (rarely more than one) */
      while (b < nb && prev_ts >= next) {
        dir[b++] = (uint32_t)k;
        next = b < nb ? bucket_start(l->lo, l->hi, nb, b) : UINT64_MAX;
      }
      k++;
    }
    if (k == flush_at + 1) { /* element flush_at is in: level-0 bucket `bucket` is complete */
      a->n_touched = nt;
      if ((h->rc = trace_pyr_flush(t, l, a, bucket++, first_ts)) < 0) return h->rc;
      nt = 0;
      first_ts = prev_ts; /* element flush_at's: the next bucket's first */
      flush_at += E0;
    }
  }
  a->n_touched = nt;
  if (bad) {
    for (uint32_t i = 0; i < nt; i++) ns[touched[i]] = 0;
    a->n_touched = 0;
    return name_the_fault(t, l, row);
  }
  if (n) report(h->g, n - base);
  while (b <= nb) dir[b++] = (uint32_t)n;
  return trace_pyr_end_line(t, l, a, first_ts);
}

static int index_line_raw(half *h, trace_line *l, uint32_t row) { return index_line(h, l, row, 1); }
static int index_line_model(half *h, trace_line *l, uint32_t row) { return index_line(h, l, row, 0); }

static void *run_half(void *arg) {
  half *h = arg;
  h->rc = trace_pyr_begin(h->t, &h->acc);
  if (h->rc == 0 && !(h->buf = malloc(12 * READ_EVERY)))
    h->rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for the trace index");
  for (uint32_t i = h->first; h->rc == 0 && i < h->end; i++) {
    trace_line *l = &h->t->lines[i];
    h->rc = l->raw ? index_line_raw(h, l, i) : index_line_model(h, l, i);
  }
  free(h->buf);
  h->buf = NULL;
  if (h->rc < 0) snprintf(h->error, sizeof h->error, "%s", hpcdb_last_error());
  return NULL;
}

/* Sizes each line's directory and pyramid; the lines where the elements halve. */
static int lay_out(hpcdb_trace_set *t, uint32_t *mid, uint64_t *n_events) {
  uint64_t total = 0, events = 0, seen = 0;
  for (uint32_t i = 0; i < t->n_lines; i++) {
    trace_line *l = &t->lines[i];
    if (l->n >= UINT32_MAX)
      return hpcdb_fail(HPCDB_EUNSUPPORTED, "profile %u: a trace line of %llu elements (at most 2^32 - 2)", l->profile,
                        (unsigned long long)l->n);
    l->log_buckets = log_buckets_for(l->n);
    l->dir_off = total;
    total += ((uint64_t)1 << l->log_buckets) + 1;
    events += l->n;
  }
  *mid = t->n_lines;
  *n_events = events;
  if (events >= PARALLEL_FROM)
    for (uint32_t i = 0; i < t->n_lines && *mid == t->n_lines; i++)
      if ((seen += t->lines[i].n) >= events / 2) *mid = i + 1;
  free(t->dir);
  t->dir = malloc(total * sizeof *t->dir);
  if (!t->dir)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace index of %llu entries", (unsigned long long)total);
  t->n_dir = total;
  return trace_pyr_lay_out(t);
}

int trace_index_build(hpcdb_trace_set *t, const hpcdb_trace_options *o, int to_cache) {
  uint32_t mid = 0;
  progress g = {o, 0, 0};
  trace_sort_lines(t);
  HPCDB_TRY(lay_out(t, &mid, &g.total));
  if (!to_cache || trace_cache_begin(t, o) < 0) HPCDB_TRY(trace_pyr_sink_temp(t));
  uint32_t *slot = malloc(((uint64_t)t->n_ids + 1) * sizeof *slot);
  if (!slot) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the trace index");
  for (uint32_t id = 0; id < t->n_ids; id++)
    slot[id] = t->idx_of_id[id] == HPCDB_NONE ? t->exp->n_contexts : t->idx_of_id[id];
  slot[t->n_ids] = t->exp->n_contexts;
  if (t->fd >= 0) (void)posix_fadvise(t->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  half h[2] = {{t, slot, &g, 0, mid, {0}, NULL, 0, ""}, {t, slot, &g, mid, t->n_lines, {0}, NULL, 0, ""}};
  worker_thread helper;
  int helped = mid < t->n_lines && worker_start(&helper, 1, run_half, &h[1]);
  run_half(&h[0]);
  if (helped) worker_join(&helper);
  else if (mid < t->n_lines && h[0].rc == 0) run_half(&h[1]);
  int rc = h[0].rc < 0   ? hpcdb_fail(h[0].rc, "%s", h[0].error)
           : h[1].rc < 0 ? hpcdb_fail(h[1].rc, "%s", h[1].error)
                         : 0;
  trace_pyr_free(&h[0].acc);
  trace_pyr_free(&h[1].acc);
  free(slot);
  t->pyr.n_entries = atomic_load(&t->pyr.sink_next);
  if (t->writer) return trace_cache_finish(t, rc); /* the pyramid then read from the cache file */
  return rc == 0 ? trace_pyr_load_sink(t) : rc;
}
