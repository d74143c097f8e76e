/* SPDX-License-Identifier: BSD-3-Clause */
/* Times the trace query on one database: opening (index built, or read from
 * the cache), tiles of the whole run and of zoomed-in windows, the window
 * statistics, the GPU idleness. Prints one line per measurement (milliseconds, wall clock).
 * Usage: bench_trace [--no-cache] DB [WIDTH HEIGHT] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/trace_query.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* This process's CPU time: on a shared, loaded machine the wall clock also
 * counts the time others' processes held the cores. */
static double cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* A line of /proc/self/status in MB (Linux), or -1. */
static long status_mb(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, key, strlen(key))) kb = atol(line + strlen(key));
  if (f) fclose(f);
  return kb < 0 ? -1 : kb / 1024;
}
/* The resident set now, in MB. */
static long rss_mb(void) { return status_mb("VmRSS:"); }
/* Where the memory is: "RSS 12 MB (file 3, anon 9; peak 40 MB)". */
static const char *rss_text(void) {
  static char s[128];
  snprintf(s, sizeof s, "RSS %ld MB (file %ld, anon %ld; peak %ld MB)", rss_mb(), status_mb("RssFile:"),
           status_mb("RssAnon:"), status_mb("VmHWM:"));
  return s;
}

static int die(const char *what) {
  fprintf(stderr, "bench_trace: %s: %s\n", what, hpcdb_last_error());
  return 2;
}

int main(int argc, char **argv) {
  int a = 1;
  hpcdb_trace_options o = {0};
  if (a < argc && !strcmp(argv[a], "--no-cache")) o.flags = HPCDB_TRACE_NO_CACHE, a++;
  if (a >= argc) return 2;
  const char *db_path = argv[a];
  uint32_t w = a + 2 < argc ? (uint32_t)atoi(argv[a + 1]) : 2000, h = a + 2 < argc ? (uint32_t)atoi(argv[a + 2]) : 1000;
  hpcdb_experiment *exp;
  hpcdb_db *db;
  hpcdb_trace_set *t;
  double t0 = now_ms();
  if (hpcdb_hpctk4_read_lazy(&exp, &db, db_path) < 0) return die("read");
  hpcdb_db_close(db);
  double t1 = now_ms(), c1 = cpu_ms();
  if (hpcdb_trace_open(&t, exp, db_path, &o) < 0) return die("open");
  double t2 = now_ms(), c2 = cpu_ms();
  hpcdb_trace_info i;
  hpcdb_trace_get_info(t, &i);
  printf("model (meta.db, profile.db headers): %.1f ms\n", t1 - t0);
  printf("trace open, index %s: %.1f ms (%.1f ms CPU) (%u rows, %llu events), %s\n",
         i.index_from_cache ? "from the cache" : "built", t2 - t1, c2 - c1, i.n_rows, (unsigned long long)i.n_events,
         rss_text());
  if (!i.index_from_cache) { /* what hpcdb view adds after building the index */
    double k0 = now_ms(), kc = cpu_ms();
    hpcdb_trace_keep_first_tile(t);
    printf("first tile kept (as hpcdb view does after the index is built): %.1f ms (%.1f ms CPU), %s\n",
           now_ms() - k0, cpu_ms() - kc, rss_text());
  }
  hpcdb_tile_cell *cells = malloc((size_t)w * h * sizeof *cells);
  uint32_t hh, *rows = malloc(i.n_rows * sizeof *rows);
  uint8_t *keep_all = malloc(exp->n_contexts ? exp->n_contexts : 1);
  if (!cells || !rows || !keep_all) return die("memory");
  for (uint32_t r = 0; r < i.n_rows; r++) rows[r] = r;
  memset(keep_all, 1, exp->n_contexts);
  /* the rows in the page's order; the same with a context filter that keeps every context: computed, never kept */
  hpcdb_trace_filter page = {rows, i.n_rows, NULL, NULL, NULL}, computed = {rows, i.n_rows, keep_all, NULL, NULL};
  if (hpcdb_trace_rows_by_identity(t, exp, rows, i.n_rows) < 0) return die("rows");
  uint64_t span = i.t_max - i.t_min + 1;
  for (uint64_t zoom = 1; zoom <= 1000000; zoom *= 100) {
    uint64_t len = span / zoom < w ? w : span / zoom, start = i.t_min + (span - len) / 2;
    for (int kept = zoom == 1; kept >= 0; kept--) {
      hpcdb_tile_scale sc;
      hpcdb_tile_request r = {0, i.n_rows, start, start + len, w, h, 3, NULL, &sc};
      double s = now_ms(), c = cpu_ms();
      if (hpcdb_trace_tile(t, kept ? &page : &computed, &r, cells, &hh) < 0) return die("tile");
      printf("tile %ux%u of 1/%llu of the run (%llu ns)%s, depth 3: %.1f ms (%.1f ms CPU; %u coarse rows), %s\n", w,
             hh, (unsigned long long)zoom, (unsigned long long)len, kept ? " as the page asks it (kept)" : "",
             now_ms() - s, cpu_ms() - c, sc.coarse_rows, rss_text());
    }
  }
  enum { TOP = 8 };
  hpcdb_tile_scale scale;
  hpcdb_tile_request whole = {0, i.n_rows, i.t_min, i.t_max + 1, w, 1, 3, NULL, &scale};
  hpcdb_trace_share *top = malloc((size_t)w * TOP * sizeof *top);
  uint32_t *n_top = malloc(w * sizeof *n_top);
  uint64_t *totals = malloc(w * sizeof *totals);
  double s = now_ms(), c = cpu_ms();
  if (!top || !n_top || !totals || hpcdb_trace_summary(t, NULL, &whole, TOP, top, n_top, totals) < 0) return die("summary");
  printf("summary of the whole run, %u columns, depth 3: %.1f ms (%.1f ms CPU; %u rows of buckets of %llu-%llu events), "
         "%s\n", w, now_ms() - s, cpu_ms() - c, scale.coarse_rows, (unsigned long long)scale.events_min,
         (unsigned long long)scale.events_max, rss_text());
  free(top);
  free(n_top);
  free(totals);
  hpcdb_trace_share *sh;
  uint32_t n;
  uint64_t total;
  s = now_ms(), c = cpu_ms();
  if (hpcdb_trace_stats(t, NULL, i.t_min, i.t_max, 3, &sh, &n, &total) < 0) return die("stats");
  printf("statistics of the whole run, depth 3: %.1f ms (%.1f ms CPU, %u contexts), %s\n",
         now_ms() - s, cpu_ms() - c, n, rss_text());
  free(sh);
  uint8_t *waits;
  hpcdb_trace_gpu_idle *g;
  if (hpcdb_trace_contexts_matching(exp, "MPI_Wait", &waits) < 0) return die("contexts");
  s = now_ms(), c = cpu_ms();
  if (hpcdb_trace_gpu_idleness(t, NULL, waits, i.t_min, i.t_max + 1, &g, &n) < 0) return die("gpu idleness");
  printf("GPU idleness of the whole run (host waits in MPI_Wait): %.1f ms (%.1f ms CPU, %u streams), RSS %ld MB (peak %ld MB)\n",
         now_ms() - s, cpu_ms() - c, n, rss_mb(), status_mb("VmHWM:"));
  free(g);
  free(waits);
  free(cells);
  free(rows);
  free(keep_all);
  hpcdb_trace_close(t);
  hpcdb_experiment_free(exp);
  return 0;
}
