/* SPDX-License-Identifier: BSD-3-Clause */
/* One comparison used by several threads at once (hpcdb view's comparison
 * requests): each thread asks for the per-profile figures of every aligned
 * node, in its own order and in pieces that overlap the others', then reads
 * them with the summary's changes and the per-function rows; every figure
 * equals the one a comparison used by one thread gives. Run under a
 * ThreadSanitizer build, this is the check that the figures are filled safely
 * (a cell is read without the lock and stored once under it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/compare.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

#define THREADS 4
#define PIECE 7
#define TOP 8

typedef struct worker {
  hpcdb_comparison *c;
  const hpcdb_comparison *want;
  unsigned id;
  unsigned wrong, failed;
} worker;

static int same_figures(const hpcdb_comparison *a, const hpcdb_comparison *b, uint32_t node) {
  for (int stat = 0; stat < 3; stat++) {
    hpcdb_delta x, y;
    hpcdb_compare_delta(a, node, 1, 1, stat, &x);
    hpcdb_compare_delta(b, node, 1, 1, stat, &y);
    if (memcmp(&x.a, &y.a, sizeof x.a) || memcmp(&x.b, &y.b, sizeof x.b)) return 0; /* NaN equal to NaN */
  }
  return 1;
}

static int same_changes(const hpcdb_comparison *a, const hpcdb_comparison *b) {
  uint32_t x[TOP], y[TOP];
  for (int worse = 0; worse < 2; worse++) {
    uint32_t n = hpcdb_compare_changes(a, 1, 0.01, worse, x, TOP);
    if (n != hpcdb_compare_changes(b, 1, 0.01, worse, y, TOP) || memcmp(x, y, (n < TOP ? n : TOP) * sizeof *x))
      return 0;
  }
  return 1;
}

static int same_functions(const hpcdb_comparison *a, const hpcdb_comparison *b) {
  hpcdb_compare_functions x, y;
  if (hpcdb_compare_by_function(a, &x) < 0) return 0;
  if (hpcdb_compare_by_function(b, &y) < 0) {
    hpcdb_compare_functions_free(&x);
    return 0;
  }
  int same = x.n == y.n && !memcmp(x.node, y.node, x.n * sizeof *x.node) &&
             !memcmp(x.inc, y.inc, (size_t)x.n * 2 * sizeof *x.inc) &&
             !memcmp(x.exc, y.exc, (size_t)x.n * 2 * sizeof *x.exc);
  hpcdb_compare_functions_free(&x);
  hpcdb_compare_functions_free(&y);
  return same;
}

static void *work(void *arg) {
  worker *w = arg;
  uint32_t n = w->c->al->n_nodes, piece[PIECE];
  for (uint32_t start = 0; start < n; start += PIECE) {
    uint32_t m = 0;
    for (uint32_t i = start; i < n && m < PIECE; i++) /* each thread in its own order */
      piece[m++] = (uint32_t)(((uint64_t)i * (2 * w->id + 1) + w->id * 13) % n);
    if (hpcdb_compare_profiles(w->c, piece, m) < 0) {
      w->failed++;
      continue;
    }
    for (uint32_t k = 0; k < m; k++) w->wrong += !same_figures(w->c, w->want, piece[k]);
  }
  w->wrong += (unsigned)!same_changes(w->c, w->want) + (unsigned)!same_functions(w->c, w->want);
  return NULL;
}

static int open_pair(hpcdb_source **srcs) {
  const char *paths[2] = {"hpctoolkit-v4/cpi-mpi", "hpctoolkit-legacy/cpi-mpi"};
  for (int d = 0; d < 2; d++)
    if (hpcdb_source_open(&srcs[d], testlib_sample(paths[d]), NULL) < 0) return -1;
  return 0;
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("skipped: no sample data (HPCDB_SAMPLE_DATA)\n");
    return 77;
  }
  hpcdb_source *srcs[2] = {NULL, NULL};
  CHECK_RC(open_pair(srcs));
  hpcdb_compare_options o = HPCDB_COMPARE_OPTIONS_INIT;
  o.profiles_on_demand = 1;
  hpcdb_comparison *one = NULL, *shared = NULL;
  CHECK_RC(hpcdb_compare_sources(&one, srcs, 2, &o));
  CHECK_RC(hpcdb_compare_sources(&shared, srcs, 2, &o));
  if (!one || !shared) return TEST_END();
  uint32_t n = one->al->n_nodes, *all = malloc(n * sizeof *all);
  for (uint32_t k = 0; all && k < n; k++) all[k] = k;
  CHECK(all != NULL);
  CHECK(isnan(shared->pmax[1 * 2]) || isnan(shared->pmax[2 * 2])); /* run A's figures wait for the threads */
  CHECK_RC(hpcdb_compare_profiles(one, all, n));
  CHECK(one->n_profiles[0] > 1 && !isnan(one->pmax[0]) && one->pmax[0] > 0);

  worker w[THREADS];
  for (unsigned k = 0; k < THREADS; k++) w[k] = (worker){shared, one, k, 0, 0};
  CHECK(testlib_run_threads(THREADS, work, w, sizeof *w) == 0);
  for (unsigned k = 0; k < THREADS; k++) {
    if (w[k].wrong || w[k].failed)
      fprintf(stderr, "thread %u: %u answers differ, %u failed\n", k, w[k].wrong, w[k].failed);
    CHECK(w[k].wrong == 0 && w[k].failed == 0);
  }
  free(all);
  hpcdb_comparison_free(one);
  hpcdb_comparison_free(shared);
  hpcdb_source_close(srcs[0]);
  hpcdb_source_close(srcs[1]);
  return TEST_END();
}
