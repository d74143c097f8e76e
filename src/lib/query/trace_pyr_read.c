/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading the pyramid through bounded windows. A mapped cache file let the
 * kernel map whole page-cache folios (up to 2 MB) around every read, ahead
 * of where a query would let them go: a summary walking a thousand rows at
 * once held nearly the whole pyramid (685 MB on a 3 GB trace). Copies into
 * windows keep what a query holds to its readers' buffers. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/mapped_file.h"
#include "query/trace_internal.h"

#define MIN_WINDOW 64u
#define MAX_WINDOW (64u << 10)
#define FIRST_READ 16u /* items */

uint32_t trace_pyr_window_bytes(uint64_t readers) {
  uint64_t b = TRACE_PYR_BUDGET / (3 * (readers ? readers : 1));
  b = b < MIN_WINDOW ? MIN_WINDOW : b > MAX_WINDOW ? MAX_WINDOW : b;
  return (uint32_t)(b / 8 * 8);
}

void trace_pyr_reader_init(trace_pyr_reader *r, const hpcdb_trace_set *t, uint32_t main_level, uint32_t bytes) {
  memset(r, 0, sizeof *r);
  r->t = t;
  r->main_level = main_level == HPCDB_TILE_FINE ? 0 : main_level;
  r->cap_main = bytes / 8 ? bytes / 8 : 1;
  r->cap_other = r->cap_main / 8 ? r->cap_main / 8 : 1;
}

void trace_pyr_reader_free(trace_pyr_reader *r) {
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
    *w = (trace_pyr_window){base[array], 0, count, NULL, 0};
    return w->items + 8 * i;
  }
  uint32_t cap = level == r->main_level ? r->cap_main : r->cap_other;
  int onward = w->n && i == w->first + w->n; /* reading on from the window: read more at once */
  uint32_t size = !onward ? FIRST_READ : w->size < cap / 2 ? 2 * w->size : cap;
  if (size > cap) size = cap;
  uint64_t n = count - i < size ? count - i : size;
  w->n = 0; /* until the read succeeds */
  if (!w->buf && !(w->buf = malloc(8 * (size_t)cap))) {
    fail(r, hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace query"));
    return NULL;
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
