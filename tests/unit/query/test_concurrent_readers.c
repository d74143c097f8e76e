/* SPDX-License-Identifier: BSD-3-Clause */
/* One query used by several threads at once (hpcdb view's connections):
 * each thread registers columns (the summary, every profile's own, a group,
 * a formula: more than the query holds, so columns are dropped and computed
 * again while others read them), and asks totals, sorted children in the
 * three views, values, names and locations; every answer equals the one a
 * query used by one thread gives. Run under ASan and ThreadSanitizer
 * builds, this is the check that the caches are shared safely. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/query.h"
#include "testlib.h"

#define THREADS 4
#define ROUNDS 6
#define MAX_COLS 24
#define PAGE 16

typedef struct answer { /* compared with memcmp: zeroed first, no padding between the fields */
  double total;
  double value[3][PAGE];     /* the inclusive values of */
  hpcdb_qnode kids[3][PAGE]; /* the first page of the root's children per view, sorted by inclusive value, */
  uint32_t n[3];             /* how many */
  char name[3][64];          /* the first child's name */
} answer;

typedef struct spec {
  const char *metric;
  uint32_t profile; /* HPCDB_NONE: the whole program */
  const uint32_t *set;
  uint32_t n_set;
} spec;

static spec specs[MAX_COLS];
static uint32_t n_specs;
static answer want[MAX_COLS];
static const uint32_t rank0[] = {2, 4, 6, 10}; /* cpi-mpi's RANK 0 THREAD 0-3 */

static int column_of(hpcdb_query *q, const spec *s, hpcdb_qcolumn *c) {
  if (s->set) return hpcdb_query_profiles_column(q, s->metric, s->set, s->n_set, c);
  return hpcdb_query_profile_column(q, s->metric, s->profile, c);
}

static int ask(hpcdb_query *q, const spec *s, answer *a) {
  hpcdb_qcolumn c;
  memset(a, 0, sizeof *a);
  if (column_of(q, s, &c) < 0 || hpcdb_query_total(q, c, &a->total) < 0) return -1;
  for (int v = 0; v < 3; v++) {
    hpcdb_qsort sort = {c, 0, 0};
    uint32_t total, got;
    if (hpcdb_query_children(q, (hpcdb_qview)v, 0, &sort, 0, PAGE, a->kids[v], &got, &total) < 0) return -1;
    a->n[v] = got;
    for (uint32_t k = 0; k < got; k++) {
      double exc;
      if (hpcdb_query_value(q, (hpcdb_qview)v, c, a->kids[v][k], &a->value[v][k], &exc) < 0) return -1;
    }
    if (got) hpcdb_query_name(q, (hpcdb_qview)v, a->kids[v][0], a->name[v], sizeof a->name[v]);
    uint32_t file, line;
    if (got && hpcdb_query_view_location(q, (hpcdb_qview)v, a->kids[v][0], &file, &line) < 0) return -1;
  }
  return 0;
}

typedef struct worker {
  hpcdb_query *q;
  unsigned id;
  unsigned wrong, failed;
} worker;

static void *work(void *arg) {
  worker *w = arg;
  for (unsigned r = 0; r < ROUNDS; r++)
    for (uint32_t i = 0; i < n_specs; i++) {
      uint32_t k = (i * (w->id + 1) + w->id + r) % n_specs; /* each thread in its own order */
      answer a;
      if (ask(w->q, &specs[k], &a) < 0) {
        w->failed++;
        continue;
      }
      if (memcmp(&a, &want[k], sizeof a) != 0) w->wrong++;
    }
  return NULL;
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("skipped: no sample data (HPCDB_SAMPLE_DATA)\n");
    return 77;
  }
  const char *path = testlib_sample("hpctoolkit-v4/cpi-mpi");
  hpcdb_source *src = NULL;
  CHECK_RC(hpcdb_source_open(&src, path, NULL));
  if (!src) return TEST_END();
  const hpcdb_experiment *e = hpcdb_source_experiment(src);
  const char *metric = e->metrics[0].name;
  specs[n_specs++] = (spec){metric, HPCDB_NONE, NULL, 0};
  specs[n_specs++] = (spec){"$0 * 2 + 1", HPCDB_NONE, NULL, 0};
  specs[n_specs++] = (spec){metric, HPCDB_NONE, rank0, 4};
  for (uint32_t p = 0; p < e->n_profiles && n_specs < MAX_COLS; p++) specs[n_specs++] = (spec){metric, p, NULL, 0};
  CHECK(n_specs > 16); /* more columns than a query holds (8) and sorts than it keeps (16) */

  hpcdb_query *one = NULL, *shared = NULL;
  CHECK_RC(hpcdb_query_on(&one, src));
  CHECK_RC(hpcdb_query_on(&shared, src));
  for (uint32_t i = 0; one && i < n_specs; i++) CHECK_RC(ask(one, &specs[i], &want[i]));
  CHECK(want[0].total > 0 && want[0].n[0] > 0 && want[0].n[1] > 0 && want[0].n[2] > 0);

  worker w[THREADS];
  for (unsigned k = 0; k < THREADS; k++) w[k] = (worker){shared, k, 0, 0};
  CHECK(shared && testlib_run_threads(THREADS, work, w, sizeof *w) == 0);
  for (unsigned k = 0; shared && k < THREADS; k++) {
    if (w[k].wrong || w[k].failed)
      fprintf(stderr, "thread %u: %u answers differ, %u failed\n", k, w[k].wrong, w[k].failed);
    CHECK(w[k].wrong == 0 && w[k].failed == 0);
  }
  hpcdb_query_close(one);
  hpcdb_query_close(shared);
  hpcdb_source_close(src);
  return TEST_END();
}
