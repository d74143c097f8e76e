/* SPDX-License-Identifier: BSD-3-Clause */
/* One source handle per path: the query, the trace set and the comparison
 * made from one hpcdb_source share its experiment (the database is held
 * once) and outlive the caller's reference; a v4.0 database and a Cube file
 * are compared lazily through the source (per-profile figures per node, on
 * demand) and give the figures a comparison of the files loaded whole gives. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/query.h"
#include "hpcdb/trace_query.h"
#include "testlib.h"

static int close_to(double a, double b) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return fabs(a - b) <= 1e-9 * fmax(1, fmax(fabs(a), fabs(b)));
}

/* The lazy comparison (A against itself, per-profile figures asked for
 * every node) against the loaded one, node for node. */
static void same_as_loaded(hpcdb_comparison *lazy, const char *path) {
  hpcdb_experiment *whole = NULL;
  CHECK_RC(hpcdb_read(&whole, path));
  if (!whole) return;
  const hpcdb_experiment *runs[2] = {whole, whole};
  hpcdb_compare_options o = {.metrics = (const char *const[]){whole->metrics[lazy->metric[0]].name, NULL}};
  hpcdb_comparison *loaded = NULL;
  CHECK_RC(hpcdb_compare(&loaded, runs, 2, &o));
  uint32_t n = lazy->al->n_nodes, *all = malloc(((size_t)n + 1) * sizeof *all), differ = 0;
  for (uint32_t k = 0; k < n; k++) all[k] = k;
  CHECK(isnan(lazy->pmax[0])); /* not read before asked for */
  CHECK_RC(hpcdb_compare_profiles(lazy, all, n));
  CHECK(loaded && loaded->al->n_nodes == n);
  for (size_t c = 0; loaded && loaded->al->n_nodes == n && c < 2 * (size_t)n; c++)
    differ += !close_to(lazy->inc[c], loaded->inc[c]) || !close_to(lazy->exc[c], loaded->exc[c]) ||
              !close_to(lazy->pmean[c], loaded->pmean[c]) || !close_to(lazy->pmax[c], loaded->pmax[c]);
  if (differ) fprintf(stderr, "%s: %u of %u cells differ from the loaded comparison\n", path, differ, 2 * n);
  CHECK(differ == 0);
  free(all);
  hpcdb_comparison_free(loaded);
  hpcdb_experiment_free(whole);
}

static void one_path(const char *rel, int lazy, int traces) {
  const char *path = testlib_sample(rel);
  hpcdb_source *src = NULL;
  CHECK_RC(hpcdb_source_open(&src, path, NULL));
  if (!src) return;
  CHECK(hpcdb_source_is_lazy(src) == lazy);
  CHECK(!strcmp(hpcdb_source_path(src), path));
  const hpcdb_experiment *exp = hpcdb_source_experiment(src);

  hpcdb_query *q = NULL;
  CHECK_RC(hpcdb_query_on(&q, src));
  hpcdb_trace_set *t = NULL;
  if (traces) CHECK_RC(hpcdb_trace_open_source(&t, src, NULL));
  hpcdb_source *pair[2] = {src, src};
  hpcdb_compare_options o = {.profiles_on_demand = 1};
  hpcdb_comparison *cmp = NULL;
  CHECK_RC(hpcdb_compare_sources(&cmp, pair, 2, &o));
  hpcdb_source_close(src); /* the objects hold their own references */

  /* one experiment: the database is held once */
  CHECK(q && hpcdb_query_experiment(q) == exp && hpcdb_query_source(q) == src);
  CHECK(!traces || (t && hpcdb_trace_experiment(t) == exp));
  CHECK(cmp && cmp->al->runs[0] == exp && cmp->al->runs[1] == exp);

  hpcdb_qcolumn col;
  double total = 0;
  CHECK_RC(hpcdb_query_default_column(q, &col));
  CHECK_RC(hpcdb_query_total(q, col, &total));
  CHECK(total != 0);
  if (cmp) {
    CHECK(!strcmp(exp->metrics[cmp->metric[0]].name, hpcdb_query_column_name(q, col)));
    CHECK(close_to(cmp->inc[0], total));
    if (lazy) same_as_loaded(cmp, path);
  }
  hpcdb_comparison_free(cmp);
  hpcdb_trace_close(t);
  hpcdb_query_close(q);
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("skipped: no sample data (HPCDB_SAMPLE_DATA)\n");
    return 77;
  }
  one_path("hpctoolkit-v4/ping-pong-mpi", 1, 1);
  one_path("hpctoolkit-v4/cpi-mpi", 1, 0);
  one_path("cube/time.p4.cubex", 1, 0);
  one_path("cube/scorep-cpi.cubex", 1, 0);
  one_path("hpctoolkit-legacy/cpi-mpi", 0, 0);

  /* the CSV export through a source gives the rows of the loaded model */
  hpcdb_source *src = NULL;
  CHECK_RC(hpcdb_source_open(&src, testlib_sample("cube/time.p4.cubex"), NULL));
  hpcdb_experiment *whole = NULL;
  CHECK_RC(hpcdb_read(&whole, testlib_sample("cube/time.p4.cubex")));
  if (src && whole) {
    char *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    FILE *fa = open_memstream(&a, &na), *fb = open_memstream(&b, &nb);
    CHECK_RC(hpcdb_export_csv_source(fa, src));
    CHECK_RC(hpcdb_export_csv(fb, whole));
    fclose(fa);
    fclose(fb);
    CHECK(na == nb && na > 0 && !memcmp(a, b, na));
    free(a);
    free(b);
  }
  hpcdb_experiment_free(whole);
  hpcdb_source_close(src);
  return TEST_END();
}
