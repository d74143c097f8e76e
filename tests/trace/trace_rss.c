/* SPDX-License-Identifier: BSD-3-Clause */
/* What the trace queries hold in memory: opens DB's trace (the index built
 * into CACHE_DIR, then read from it), runs a whole-run summary and tile, a
 * zoomed-in tile and the whole run's statistics, and samples, between the
 * columns (the filter's cancel hook), the resident pages of the index's
 * cache file and of trace.db in this process (/proc/self/smaps). Fails when
 * a peak passes its bound.
 * Usage: trace_rss DB CACHE_DIR MAX_INDEX_KB MAX_TRACE_KB */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/trace_query.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long peak_index_kb, peak_trace_kb, samples;

static int ends_with(const char *s, const char *end) {
  size_t n = strlen(s), m = strlen(end);
  return n >= m && !strcmp(s + n - m, end);
}

/* The resident KB of the mappings of the cache file and of trace.db. */
static void sample(void) {
  FILE *f = fopen("/proc/self/smaps", "r");
  char line[4096], path[4096] = "";
  long index_kb = 0, trace_kb = 0, kb;
  unsigned long lo, hi;
  while (f && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) { /* a mapping's first line: its file last */
      char *p = strchr(line, '/');
      snprintf(path, sizeof path, "%s", p ? p : "");
    } else if (sscanf(line, "Rss: %ld kB", &kb) == 1) {
      if (ends_with(path, ".idx")) index_kb += kb;
      if (ends_with(path, "/trace.db")) trace_kb += kb;
    }
  }
  if (f) fclose(f);
  if (index_kb > peak_index_kb) peak_index_kb = index_kb;
  if (trace_kb > peak_trace_kb) peak_trace_kb = trace_kb;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* A sample every 2 ms at most: reading smaps takes about a millisecond. */
static int sampling_hook(void *user) {
  static double last;
  (void)user;
  pthread_mutex_lock(&lock);
  double now = now_ms();
  if (now - last >= 2) {
    sample();
    samples++;
    last = now_ms();
  }
  pthread_mutex_unlock(&lock);
  return 0;
}

static int die(const char *what) {
  fprintf(stderr, "trace_rss: %s: %s\n", what, hpcdb_last_error());
  return 2;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: trace_rss DB CACHE_DIR MAX_INDEX_KB MAX_TRACE_KB\n");
    return 2;
  }
  long max_index = atol(argv[3]), max_trace = atol(argv[4]);
  hpcdb_experiment *exp;
  hpcdb_db *db;
  if (hpcdb_hpctk4_read_lazy(&exp, &db, argv[1]) < 0) return die("read");
  hpcdb_db_close(db);
  hpcdb_trace_options o = {.cache_dir = argv[2]};
  hpcdb_trace_set *t;
  for (int pass = 0; pass < 2; pass++) { /* built into the cache, then read from it */
    if (hpcdb_trace_open(&t, exp, argv[1], &o) < 0) return die("open");
    if (pass == 0) hpcdb_trace_close(t);
  }
  hpcdb_trace_info i;
  hpcdb_trace_get_info(t, &i);
  if (!i.index_from_cache) return die("the index was not read from the cache");
  hpcdb_trace_filter filter = {.cancelled = sampling_hook};
  enum { W = 1000, H = 200, TOP = 4 };
  hpcdb_tile_cell *cells = malloc((size_t)W * H * sizeof *cells);
  hpcdb_trace_share *top = malloc((size_t)W * TOP * sizeof *top), *shares;
  uint32_t *n_top = malloc(W * sizeof *n_top), hh, n;
  uint64_t *totals = malloc(W * sizeof *totals), total, span = i.t_max + 1 - i.t_min;
  if (!cells || !top || !n_top || !totals) return die("memory");
  hpcdb_tile_request whole = {0, i.n_rows, i.t_min, i.t_max + 1, W, H, 3, NULL, NULL};
  hpcdb_tile_request summary = {0, i.n_rows, i.t_min, i.t_max + 1, W, 1, 3, NULL, NULL};
  hpcdb_tile_request zoomed = {0, i.n_rows, i.t_min + span / 2, i.t_min + span / 2 + span / 100, W, H, 3, NULL, NULL};
  long worst_index = 0, worst_trace = 0;
  for (int q = 0; q < 4; q++) {
    static const char *what[] = {"summary of the whole run", "tile of the whole run", "tile of 1/100 of the run",
                                 "statistics of the whole run"};
    peak_index_kb = peak_trace_kb = 0;
    int rc = q == 0   ? hpcdb_trace_summary(t, &filter, &summary, TOP, top, n_top, totals)
             : q == 1 ? hpcdb_trace_tile(t, &filter, &whole, cells, &hh)
             : q == 2 ? hpcdb_trace_tile(t, &filter, &zoomed, cells, &hh)
                      : hpcdb_trace_stats(t, &filter, i.t_min, i.t_max, 3, &shares, &n, &total);
    if (rc < 0) return die(what[q]);
    if (q == 3) free(shares);
    printf("%s: peak resident index %ld KB, trace.db %ld KB\n", what[q], peak_index_kb, peak_trace_kb);
    if (peak_index_kb > worst_index) worst_index = peak_index_kb;
    if (peak_trace_kb > worst_trace) worst_trace = peak_trace_kb;
  }
  printf("%ld samples; peak resident: index %ld KB (bound %ld), trace.db %ld KB (bound %ld)\n", samples,
         worst_index, max_index, worst_trace, max_trace);
  free(cells);
  free(top);
  free(n_top);
  free(totals);
  hpcdb_trace_close(t);
  hpcdb_experiment_free(exp);
  return samples > 0 && worst_index <= max_index && worst_trace <= max_trace ? 0 : 1;
}
