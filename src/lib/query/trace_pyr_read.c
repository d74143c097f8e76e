/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading the pyramid through bounded windows. A mapped cache file lets the
 * kernel map whole page-cache folios (up to 2 MB) around every read, ahead
 * of where a query would let them go: a summary walking a thousand rows at
 * once held nearly the whole pyramid (685 MB on a 3 GB trace). So a thread
 * holding many readers at once copies into windows of bounded size; one
 * holding a few (a tile's cell row, the statistics) reads through the
 * mapping, letting the pages go every few MB (below): it saves the copy
 * and the calls, a fifth of a whole-run tile's time. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/mapped_file.h"
#include "query/trace_internal.h"

#define MIN_WINDOW 64u
#define MAX_WINDOW (64u << 10)
#define FIRST_READ 16u /* items */
/* At most this many readers per thread read through the mapping, each
 * letting go of the whole pyramid's pages once its windows have spanned
 * MAPPED_HOLD bytes: one madvise (a TLB flush on every core) per 4 MB
 * rather than one per window. The pages another reader was reading are
 * mapped again at its next read. What a query holds of the cache file:
 * 2 threads x 4 readers x (4 MB + a folio of up to 2 MB per window). */
#define MAPPED_READERS 4u
#define MAPPED_WINDOW (16u << 10) /* items */
#define MAPPED_HOLD (4u << 20)

/* The bytes of a copied window for `readers` readers of one thread within the budget. */
static uint32_t window_bytes(uint64_t readers) {
  uint64_t b = TRACE_PYR_BUDGET / (3 * (readers ? readers : 1));
  b = b < MIN_WINDOW ? MIN_WINDOW : b > MAX_WINDOW ? MAX_WINDOW : b;
  return (uint32_t)(b / 8 * 8);
}

void trace_pyr_reader_init(trace_pyr_reader *r, const hpcdb_trace_set *t, uint32_t main_level, uint32_t readers) {
  memset(r, 0, sizeof *r);
  trace_pyr_reader_restart(r, t, main_level, readers);
}

/* The pyramid's pages out of the resident set. */
static void let_go(trace_pyr_reader *r) {
  const trace_pyramid *y = &r->t->pyr;
  uint64_t end = y->file_at[TRACE_PYR_ENT] + 8 * y->n_entries;
  mapped_file_release(&r->t->cache_map, y->file_at[TRACE_PYR_OFF], end - y->file_at[TRACE_PYR_OFF]);
  r->mapped_bytes = 0;
}

void trace_pyr_reader_restart(trace_pyr_reader *r, const hpcdb_trace_set *t, uint32_t main_level, uint32_t readers) {
  if (r->mapped_bytes && !(readers <= MAPPED_READERS && t == r->t)) let_go(r);
  for (uint32_t L = 0; L < TRACE_MAX_LEVELS; L++)
    for (int a = 0; a < 3; a++) {
      trace_pyr_window *w = &r->w[L][a];
      *w = (trace_pyr_window){NULL, 0, 0, w->buf, w->buf_items, 0};
    }
  uint32_t bytes = window_bytes(readers);
  r->rc = 0;
  r->t = t;
  r->mapped = readers <= MAPPED_READERS && t->pyr.in_file && t->cache_map.data;
  r->main_level = main_level == HPCDB_TILE_FINE ? 0 : main_level;
  r->cap_main = bytes / 8 ? bytes / 8 : 1;
  r->cap_other = r->cap_main / 8 ? r->cap_main / 8 : 1;
}

void trace_pyr_reader_free(trace_pyr_reader *r) {
  if (r->mapped_bytes) let_go(r);
  for (uint32_t L = 0; L < TRACE_MAX_LEVELS; L++)
    for (int a = 0; a < 3; a++) free(r->w[L][a].buf);
  memset(r, 0, sizeof *r);
}

static uint64_t array_items(const trace_pyramid *y, int array) {
  return array == TRACE_PYR_ENT ? y->n_entries : y->n_slots;
}

static int fail(trace_pyr_reader *r, int rc) {
  if (r->rc == 0) r->rc = rc;
  return rc;
}

const uint8_t *trace_pyr_fill(trace_pyr_reader *r, uint32_t level, int array, uint64_t i) {
  const hpcdb_trace_set *t = r->t;
  const trace_pyramid *y = &t->pyr;
  trace_pyr_window *w = &r->w[level][array];
  uint64_t count = array_items(y, array);
  if (i >= count) {
    fail(r, hpcdb_fail(HPCDB_ECORRUPT, "the trace index%s%s is damaged: item %llu of a pyramid of %llu; delete it",
                       t->cache_path ? " " : "", t->cache_path ? t->cache_path : "", (unsigned long long)i,
                       (unsigned long long)count));
    return NULL;
  }
  if (!y->in_file) { /* in memory: the window is the whole array */
    const uint8_t *base[3] = {y->off, y->ts, y->ent};
    *w = (trace_pyr_window){base[array], 0, count, w->buf, w->buf_items, 0};
    return w->items + 8 * i;
  }
  if (r->mapped) { /* the window moves on in the mapping */
    if (r->mapped_bytes >= MAPPED_HOLD) let_go(r);
    w->first = i;
    w->n = count - i < MAPPED_WINDOW ? count - i : MAPPED_WINDOW;
    w->items = t->cache_map.data + y->file_at[array] + 8 * i;
    r->mapped_bytes += 8 * w->n;
    return w->items;
  }
  uint32_t cap = level == r->main_level ? r->cap_main : r->cap_other;
  int onward = w->n && i == w->first + w->n; /* reading on from the window: read more at once */
  uint32_t size = !onward ? FIRST_READ : w->size < cap / 2 ? 2 * w->size : cap;
  if (size > cap) size = cap;
  uint64_t n = count - i < size ? count - i : size;
  w->n = 0; /* until the read succeeds */
  if (w->buf_items < cap) {
    free(w->buf);
    w->buf_items = (w->buf = malloc(8 * (size_t)cap)) ? cap : 0;
    if (!w->buf) {
      fail(r, hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace query"));
      return NULL;
    }
  }
  w->size = size;
  int rc = read_at(t->cache_map.fd, w->buf, 8 * n, y->file_at[array] + 8 * i, t->cache_path);
  if (rc < 0) {
    fail(r, rc);
    return NULL;
  }
  w->items = w->buf;
  w->first = i;
  w->n = n;
  return w->buf;
}
