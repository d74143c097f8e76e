/* SPDX-License-Identifier: BSD-3-Clause */
/* Tiles and their summary: per cell, the time each context (at the asked
 * depth) covers, summed over the cell's rows. A fine row keeps a cursor on
 * the element in effect at the current column's start and adds its
 * elements clipped to each column (whole buckets where a column holds
 * them); a coarse row keeps a cursor on its level's buckets and adds the
 * whole buckets starting in each column (hpcdb_tile_scale). A tile's cell
 * rows are shared out in chunks to a thread per core; a summary's rows are
 * split in two halves, one on a helper thread. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/failpoint.h"
#include "common/pool.h"
#include "common/worker.h"
#include "query/trace_internal.h"

/* What finishing a cell keeps of its slots so far: the best in registers. */
typedef struct cell_pick {
  uint64_t total, best_ns, idle_ns;
  uint32_t best, n;
} cell_pick;

/* Slot s's time taken into the cell and cleared; the best chosen without
 * branches: which context wins is data a branch predictor cannot learn. */
static inline void pick(cell_pick *k, uint64_t *ns, uint32_t s, uint32_t idle_slot) {
  uint64_t v = ns[s];
  ns[s] = 0;
  k->total += v;
  k->n++;
  int idle = s == idle_slot; /* idle wins only a cell where nothing ran */
  k->idle_ns = idle ? v : k->idle_ns;
  int better = (idle == 0) & ((v > k->best_ns) | ((v == k->best_ns) & (s < k->best)));
  k->best = better ? s : k->best;
  k->best_ns = better ? v : k->best_ns;
}

/* The cell from the accumulated times (the touched slots, then those only
 * in mask); the accumulator is cleared. */
static void finish(trace_acc *a, hpcdb_tile_cell *cell) {
  cell_pick k = {0, 0, 0, HPCDB_NONE, 0};
  uint64_t *ns = a->ns, m = a->mask;
  const uint32_t *touched = a->touched, idle_slot = a->idle_slot;
  for (uint32_t i = 0; i < a->n_touched; i++) {
    m &= ~(1ull << (touched[i] & 63)); /* small: every slot < 64; else m is 0 */
    pick(&k, ns, touched[i], idle_slot);
  }
  for (; m; m &= m - 1) pick(&k, ns, (uint32_t)__builtin_ctzll(m), idle_slot);
  if (k.best == HPCDB_NONE && k.n) k.best = idle_slot, k.best_ns = k.idle_ns;
  cell->n_ctx = k.n;
  cell->total_ns = k.total;
  cell->ctx_ns = k.best_ns;
  cell->ctx = k.best == HPCDB_NONE     ? HPCDB_TRACE_EMPTY
              : k.best == a->grey_slot ? HPCDB_TRACE_GREY
                                       : a->key_of_slot[k.best];
  a->n_touched = 0;
  a->mask = 0;
}

/* Elements a fine row's cursor leaves behind before their pages are let go
 * (48 KB: a thousand rows hold under 50 MB). */
#define RELEASE_BEHIND 0x1000

/* One row's cursor: fine, the element in effect at the column's start
 * (UINT64_MAX: before the first), first_el the first element not yet let
 * go; coarse, the next bucket of its level. */
typedef struct row_cursor {
  const trace_line *l;
  uint32_t level;
  uint64_t cur, first_el;
  trace_pyr_reader r;
} row_cursor;

/* Whether finding the first element at or after ts read l's elements (a
 * time outside the line is answered from its ends): only then has it
 * pages to let go (an madvise of nothing still flushes every core's TLB). */
static int searched(const trace_line *l, uint64_t ts) { return l->n && ts > l->lo && ts <= l->hi; }

/* The first element of l at or after ts (l->n when none); the pages the
 * search mapped are let go unless `keep`. */
static uint64_t first_at(const hpcdb_trace_set *t, const trace_line *l, uint64_t ts, int keep) {
  uint64_t k = ts ? trace_locate(t, l, ts - 1) : UINT64_MAX;
  if (!keep && searched(l, ts)) trace_release_near(t, l, k, k);
  return k + 1; /* UINT64_MAX + 1: 0 */
}

static void cursor_start(const hpcdb_trace_set *t, row_cursor *rc, const trace_line *l, uint32_t level, uint64_t t0,
                         uint32_t readers) {
  rc->l = l;
  rc->level = level;
  trace_pyr_reader_restart(&rc->r, t, level, readers);
  if (level == HPCDB_TILE_FINE) {
    rc->cur = trace_locate(t, l, t0);
    rc->first_el = rc->cur == UINT64_MAX ? 0 : rc->cur;
    return;
  }
  /* the first bucket starting at or after t0: the one holding its first element */
  uint64_t e = (uint64_t)1 << trace_level_log(level);
  rc->cur = (first_at(t, l, t0, 0) + e - 1) / e;
}

/* Adds row rc's share of the column [a, b). */
static int cursor_column(const hpcdb_trace_set *t, row_cursor *rc, uint64_t a, uint64_t b, trace_acc *ac) {
  const trace_line *l = rc->l;
  if (rc->level != HPCDB_TILE_FINE) {
    uint64_t nb = trace_level_buckets(l->n, rc->level);
    for (; rc->cur < nb && trace_slot_ts(&rc->r, l, rc->level, rc->cur) < b; rc->cur++)
      HPCDB_TRY(trace_add_bucket(&rc->r, l, rc->level, rc->cur, ac));
    return rc->r.rc;
  }
  uint64_t k = rc->cur;
  int done = 0, err = 0;
  if (k == UINT64_MAX) {
    if (l->n == 0 || l->lo >= b) return 0;
    k = 0;
  }
  rc->cur = trace_sum_span(&rc->r, l, k, a, b, ac, &done, &err);
  if (rc->cur - rc->first_el >= RELEASE_BEHIND) { /* let go behind the cursor */
    trace_release(t, l, rc->first_el, rc->cur);
    rc->first_el = rc->cur;
  }
  return err;
}

/* The row is done; its reader's buffers are kept for the next row. */
static void cursor_end(const hpcdb_trace_set *t, row_cursor *rc) {
  if (rc->level == HPCDB_TILE_FINE && rc->cur != UINT64_MAX) {
    trace_release_near(t, rc->l, rc->first_el, rc->cur + 1); /* and the folios the last reads mapped */
  }
}

/* One thread's share: cell rows [r0, r1) of h over the selected rows
 * [first, first + count), each finished into cells or (summary) appended
 * whole to the column's list. */
typedef struct tile_job {
  const hpcdb_trace_set *t;
  const hpcdb_trace_filter *filter;
  const hpcdb_tile_request *req;
  const uint64_t *col;  /* column c covers [col[c], col[c + 1]) */
  const uint8_t *level; /* per selected row of the request */
  const uint32_t *keys;
  uint32_t first, count, h, r0, r1;
  hpcdb_tile_cell *cells;  /* a tile */
  hpcdb_trace_share *list; /* a summary: per column, every slot with time (n_ctx + 1 each) */
  uint32_t *n_list;
  int rc;
  char error[1024];
} tile_job;

/* A summary walks its rows a group at a time, each group's times added to
 * the column's list of the groups before: what a query maps of trace.db
 * (a folio per row's cursor) and reads of the pyramid at once is bounded. */
#define SUMMARY_GROUP 16
/* Columns between two looks at whether the query was cancelled (every
 * column when the test's delay point slows each down). */
#define CANCEL_EVERY 16

static void emit(tile_job *j, trace_acc *a, uint32_t r, uint32_t c) {
  if (j->cells) {
    finish(a, &j->cells[(uint64_t)r * j->req->width + c]);
    return;
  }
  hpcdb_trace_share *out = j->list + (uint64_t)c * (j->t->exp->n_contexts + 1);
  trace_acc_settle(a);
  for (uint32_t i = 0; i < a->n_touched; i++) { /* by key, grey as n_contexts */
    out[i] = (hpcdb_trace_share){a->key_of_slot[a->touched[i]], a->ns[a->touched[i]]};
    a->ns[a->touched[i]] = 0;
  }
  j->n_list[c] = a->n_touched;
  a->n_touched = 0;
}

static int tile_rows(tile_job *j, trace_acc *a) {
  const hpcdb_trace_set *t = j->t;
  const hpcdb_tile_request *req = j->req;
  uint32_t most = 0; /* the most rows in one cell row */
  for (uint32_t r = j->r0; r < j->r1; r++) {
    uint32_t m = (uint32_t)((uint64_t)j->count * (r + 1) / j->h - (uint64_t)j->count * r / j->h);
    if (m > most) most = m;
  }
  uint32_t group = !j->cells && most > SUMMARY_GROUP ? SUMMARY_GROUP : most; /* a cell's rows: all at once */
  row_cursor *cur = calloc(group ? group : 1, sizeof *cur);
  int rc = cur ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory for a tile");
  const uint64_t per = (uint64_t)t->exp->n_contexts + 1;
  const int slowed = failpoint_delays("trace-column");
  for (uint32_t r = j->r0; rc == 0 && r < j->r1; r++) {
    uint32_t m0 = (uint32_t)((uint64_t)j->count * r / j->h), m1 = (uint32_t)((uint64_t)j->count * (r + 1) / j->h);
    for (uint32_t g0 = m0; rc == 0 && g0 < m1; g0 += group) {
      uint32_t g1 = m1 - g0 < group ? m1 : g0 + group;
      for (uint32_t m = g0; m < g1; m++) {
        uint32_t sel = j->first + m;
        cursor_start(t, &cur[m - g0], &t->lines[trace_sel_row(j->filter, sel)], j->level[sel - req->first], req->t0,
                     group);
      }
      for (uint32_t c = 0; rc == 0 && c < req->width; c++) {
        if (slowed) failpoint_delay("trace-column");
        if ((slowed || c % CANCEL_EVERY == 0) && (rc = trace_check_cancel(j->filter)) < 0) break;
        for (uint32_t k = 0; g0 > m0 && k < j->n_list[c]; k++) /* the groups before */
          trace_acc_add(a, a->slot_of_key[j->list[c * per + k].ctx], j->list[c * per + k].ns);
        for (uint32_t i = 0; rc == 0 && i < g1 - g0; i++) rc = cursor_column(t, &cur[i], j->col[c], j->col[c + 1], a);
        emit(j, a, r, c);
      }
      for (uint32_t i = 0; i < g1 - g0; i++) cursor_end(t, &cur[i]);
    }
  }
  for (uint32_t i = 0; cur && i < group; i++) trace_pyr_reader_free(&cur[i].r);
  free(cur);
  return rc;
}

/* Job j's rows with acc (NULL: an accumulator of its own); rc and error kept in j. */
static void tile_rows_into(tile_job *j, trace_acc *acc) {
  trace_acc own;
  int rc = acc ? tile_rows(j, acc) : trace_acc_init(j->t, &own, j->keys);
  if (!acc && rc == 0) {
    rc = tile_rows(j, &own);
    trace_acc_free(&own);
  }
  if ((j->rc = rc) < 0) snprintf(j->error, sizeof j->error, "%s", hpcdb_last_error());
}

static void *run_tile_rows(void *arg) {
  tile_rows_into(arg, NULL);
  return NULL;
}

/* The elements of l with a timestamp in [t0, t1). */
static uint64_t events_in(const hpcdb_trace_set *t, const trace_line *l, uint64_t t0, uint64_t t1) {
  uint64_t a = first_at(t, l, t0, 1), b = first_at(t, l, t1, 1);
  if (searched(l, t0) || searched(l, t1)) trace_release_near(t, l, a ? a - 1 : 0, b); /* one madvise for both */
  return b - a;
}

/* Each row's level (hpcdb_tile_scale's rule) into level[], and the scale. */
static void choose_levels(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const hpcdb_tile_request *req,
                          uint8_t *level, hpcdb_tile_scale *s) {
  *s = (hpcdb_tile_scale){0, HPCDB_TILE_FINE, 0, 0, 0, 0};
  for (uint32_t m = 0; m < req->count; m++) {
    const trace_line *l = &t->lines[trace_sel_row(filter, req->first + m)];
    uint64_t n = events_in(t, l, req->t0, req->t1);
    uint32_t L = HPCDB_TILE_FINE;
    for (uint32_t k = 0; k < l->n_levels && ((uint64_t)req->width << trace_level_log(k)) <= n; k++) L = k;
    level[m] = (uint8_t)L;
    if (L == HPCDB_TILE_FINE) continue;
    uint64_t e = (uint64_t)1 << trace_level_log(L);
    uint64_t ns = (uint64_t)((unsigned __int128)(req->t1 - req->t0) * e / n);
    if (s->coarse_rows++ == 0 || L < s->level_min) s->level_min = L, s->events_min = e;
    if (L >= s->level_max || s->coarse_rows == 1) s->level_max = L, s->events_max = e;
    if (ns > s->bucket_ns) s->bucket_ns = ns;
  }
}

/* The shared part of a tile and a summary: checks, keys, columns, levels;
 * then `work` runs the n jobs. */
static int run(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const hpcdb_tile_request *req, tile_job *job,
               unsigned n, void (*work)(tile_job *, unsigned)) {
  HPCDB_TRY(trace_check_unchanged(t));
  HPCDB_TRY(trace_check_rows(t, filter, req->first, req->count));
  if (req->width == 0 || (job[0].cells && req->height == 0) || req->t1 <= req->t0 || req->t1 - req->t0 < req->width)
    return hpcdb_fail(HPCDB_EINVAL,
                      "a tile needs a width and height of at least 1 and at least 1 ns per column "
                      "(asked: %u x %u over [%llu, %llu))",
                      req->width, req->height, (unsigned long long)req->t0, (unsigned long long)req->t1);
  uint32_t *keys = NULL;
  uint64_t *col = malloc(((uint64_t)req->width + 1) * sizeof *col);
  uint8_t *level = req->row_level ? req->row_level : malloc(req->count ? req->count : 1);
  int rc = col && level ? trace_keys(t, req->depth, filter ? filter->ctx_keep : NULL, &keys)
                        : hpcdb_fail(HPCDB_ENOMEM, "out of memory for a tile");
  for (uint64_t c = 0; rc == 0 && c <= req->width; c++)
    col[c] = req->t0 + (uint64_t)(((unsigned __int128)(req->t1 - req->t0) * c) / req->width);
  if (rc == 0) {
    hpcdb_tile_scale scale;
    choose_levels(t, filter, req, level, &scale);
    if (req->scale) *req->scale = scale;
    for (unsigned i = 0; i < n; i++) {
      job[i].t = t, job[i].filter = filter, job[i].req = req, job[i].col = col, job[i].level = level;
      job[i].keys = keys, job[i].rc = 0, job[i].error[0] = 0;
    }
    work(job, n);
    for (unsigned i = 0; rc == 0 && i < n; i++)
      if (job[i].rc < 0) rc = hpcdb_fail(job[i].rc, "%s", job[i].error);
  }
  free(keys);
  free(col);
  if (level != req->row_level) free(level);
  return rc;
}

/* A tile's cell rows, taken CELL_ROWS_AT_ONCE at a time by whichever thread
 * is free (a thread the system cannot start leaves its share to the others). */
#define CELL_ROWS_AT_ONCE 16
#define TILE_THREADS_MAX 16

typedef struct tile_queue {
  tile_job *job;
  atomic_uint next;
} tile_queue;

static void take_cell_rows(void *arg, unsigned th) {
  tile_queue *q = arg;
  tile_job *j = &q->job[th];
  trace_acc acc; /* the thread's, over all its chunks */
  int rc = trace_acc_init(j->t, &acc, j->keys);
  if (rc < 0) {
    j->rc = rc;
    snprintf(j->error, sizeof j->error, "%s", hpcdb_last_error());
    return;
  }
  for (unsigned r0; j->rc == 0 && (r0 = atomic_fetch_add(&q->next, CELL_ROWS_AT_ONCE)) < j->h;) {
    j->r0 = r0;
    j->r1 = j->h - r0 < CELL_ROWS_AT_ONCE ? j->h : r0 + CELL_ROWS_AT_ONCE;
    tile_rows_into(j, &acc);
  }
  trace_acc_free(&acc);
}

static void share_cell_rows(tile_job *job, unsigned n) {
  tile_queue q = {job, 0};
  for (unsigned i = 0; i < n; i++) job[i].first = job[0].req->first, job[i].count = job[0].req->count;
  pool_run(n, take_cell_rows, &q);
}

/* Threads for a tile of h cell rows: one per core, each with a chunk to take. */
static unsigned tile_threads(uint32_t h) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  unsigned n = cores < 1 ? 1 : cores > TILE_THREADS_MAX ? TILE_THREADS_MAX : (unsigned)cores;
  unsigned chunks = (h + CELL_ROWS_AT_ONCE - 1) / CELL_ROWS_AT_ONCE;
  return chunks == 0 ? 1 : chunks < n ? chunks : n;
}

int hpcdb_trace_tile(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const hpcdb_tile_request *req,
                     hpcdb_tile_cell *cells, uint32_t *out_height) {
  *out_height = 0;
  uint32_t h = req->count < req->height ? req->count : req->height;
  HPCDB_TRY(trace_check_unchanged(t));
  if (trace_tile_kept(t, filter, req, h, cells)) {
    *out_height = h;
    return 0;
  }
  hpcdb_tile_scale scale; /* the request with its outs, for the tile to be kept */
  hpcdb_tile_request r = *req;
  r.scale = &scale;
  r.row_level = req->row_level ? req->row_level : malloc(req->count ? req->count : 1);
  if (!r.row_level) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a tile");
  tile_job job[TILE_THREADS_MAX];
  unsigned n = tile_threads(h);
  for (unsigned i = 0; i < n; i++) job[i] = (tile_job){.h = h, .cells = cells};
  int rc = run(t, filter, &r, job, n, share_cell_rows);
  if (rc == 0) {
    if (req->scale) *req->scale = scale;
    trace_tile_keep(t, filter, &r, h, &scale, r.row_level, cells);
    *out_height = h;
  }
  if (r.row_level != req->row_level) free(r.row_level);
  return rc;
}

/* A summary: one cell row per job, each over half of the rows, the second
 * half on a helper thread. */
static void halves_of_rows(tile_job *job, unsigned n) {
  (void)n; /* always 2 */
  uint32_t count = job[0].req->count, half = count / 2;
  job[0].first = job[0].req->first, job[0].count = half;
  job[1].first = job[0].req->first + half, job[1].count = count - half;
  for (int i = 0; i < 2; i++) job[i].h = 1, job[i].r0 = 0, job[i].r1 = job[i].count ? 1 : 0;
  if (half == 0) job[0].r1 = 0;
  worker_thread helper;
  int second = job[1].r0 < job[1].r1;
  int helped = second && worker_start(&helper, 1, run_tile_rows, &job[1]);
  run_tile_rows(&job[0]);
  if (helped) worker_join(&helper);
  else if (second && job[0].rc == 0) run_tile_rows(&job[1]);
}

static int by_time(const void *x, const void *y) {
  const hpcdb_trace_share *a = x, *b = y;
  if (a->ns != b->ns) return a->ns > b->ns ? -1 : 1;
  return a->ctx < b->ctx ? -1 : a->ctx > b->ctx;
}

int hpcdb_trace_summary(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const hpcdb_tile_request *req,
                        uint32_t top, hpcdb_trace_share *shares, uint32_t *n, uint64_t *total_ns) {
  uint64_t per = (uint64_t)t->exp->n_contexts + 1, w = req->width, cells;
  tile_job job[2] = {{0}, {0}};
  for (int i = 0; i < 2; i++) {
    job[i].list = mul_ok(w, per, &cells) ? malloc((cells ? cells : 1) * sizeof *job[i].list) : NULL;
    job[i].n_list = calloc(w ? w : 1, sizeof *job[i].n_list);
  }
  int rc = job[0].list && job[1].list && job[0].n_list && job[1].n_list
               ? run(t, filter, req, job, 2, halves_of_rows)
               : hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace summary");
  hpcdb_trace_share *merged = rc == 0 ? malloc(per * sizeof *merged) : NULL;
  uint64_t *ns = rc == 0 ? calloc(per, sizeof *ns) : NULL;
  if (rc == 0 && (!merged || !ns)) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace summary");
  for (uint64_t c = 0; rc == 0 && c < w; c++) {
    uint32_t m = 0;
    total_ns[c] = 0;
    for (int i = 0; i < 2; i++)
      for (uint32_t k = 0; k < job[i].n_list[c]; k++) {
        const hpcdb_trace_share *s = &job[i].list[c * per + k];
        if (ns[s->ctx] == 0) merged[m++].ctx = s->ctx;
        ns[s->ctx] += s->ns;
        total_ns[c] += s->ns;
      }
    for (uint32_t k = 0; k < m; k++) {
      merged[k].ns = ns[merged[k].ctx];
      ns[merged[k].ctx] = 0;
      if (merged[k].ctx == per - 1) merged[k].ctx = HPCDB_TRACE_GREY;
    }
    qsort(merged, m, sizeof *merged, by_time);
    n[c] = m < top ? m : top;
    memcpy(shares + c * top, merged, n[c] * sizeof *merged);
  }
  for (int i = 0; i < 2; i++) free(job[i].list), free(job[i].n_list);
  free(merged);
  free(ns);
  return rc;
}
