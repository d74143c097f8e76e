/* SPDX-License-Identifier: BSD-3-Clause */
/* The exported page's pieces: the page's files by name, the nodes a
 * snapshot keeps (best first: the root, then nothing heavier left out;
 * every ancestor kept; all of them when the limit allows, for every metric
 * kept), and JSON text that cannot end a <script> element. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "core/json_out.h"
#include "hpcdb/hpcdb.h"
#include "hpcdb/page.h"
#include "hpcdb/query.h"
#include "page/snapshot.h"
#include "testlib.h"

static void check_assets(void) {
  const unsigned char *data;
  size_t len;
  CHECK_RC(hpcdb_page_asset("index.html", &data, &len));
  CHECK(len > 0 && data[len] == 0 && strstr((const char *)data, "<body>"));
  CHECK_RC(hpcdb_page_asset("compare/main.js", &data, &len));
  CHECK(hpcdb_page_asset("../index.html", &data, &len) == HPCDB_EINVAL);
  CHECK(hpcdb_page_asset("", &data, &len) == HPCDB_EINVAL);
  CHECK(hpcdb_page_asset(NULL, &data, &len) == HPCDB_EINVAL);
}

static void check_script_string(void) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  json_script_string(f, "a</script><b>&\"\\\n");
  fclose(f);
  CHECK(!strcmp(text, "\"a\\u003c/script\\u003e\\u003cb\\u003e\\u0026\\\"\\\\\\n\""));
  free(text);
}

static double inclusive(hpcdb_query *q, hpcdb_qview v, hpcdb_qcolumn c, hpcdb_qnode n) {
  double inc = 0, exc;
  hpcdb_query_value(q, v, c, n, &inc, &exc);
  return inc;
}

/* Every node the viewer lists under a kept node (its non-zero children). */
static void listed(hpcdb_query *q, hpcdb_qview v, hpcdb_qcolumn c, hpcdb_qnode n, hpcdb_qnode **out, uint32_t *count) {
  uint32_t kids = 0, got = 0, total = 0;
  hpcdb_query_n_children(q, v, n, &kids);
  hpcdb_qsort s = {c, 0, 0};
  *out = malloc(((size_t)kids + 1) * sizeof **out);
  hpcdb_query_children(q, v, n, &s, 0, kids, *out, &got, &total);
  *count = got;
}

static int kept_before(const snapshot_view *v, hpcdb_qnode n, uint32_t before) {
  for (uint32_t k = 0; k < before; k++)
    if (v->node[k] == n) return 1;
  return 0;
}

/* With every metric: what the viewer lists sorted by each one (children of listed nodes) is kept. */
static void check_all_metrics(hpcdb_query *q, hpcdb_qview v) {
  const hpcdb_experiment *e = hpcdb_query_experiment(q);
  hpcdb_qcolumn *cols = malloc(((size_t)e->n_metrics + 1) * sizeof *cols);
  uint32_t n_cols = 0;
  for (uint32_t m = 0; m < e->n_metrics; m++)
    if (e->metrics[m].name && hpcdb_query_column(q, e->metrics[m].name, &cols[n_cols]) == 0) n_cols++;
  snapshot_view all;
  CHECK_RC(snapshot_select(q, v, cols, n_cols, SNAPSHOT_NODES, &all));
  uint32_t missing = 0, *todo = malloc(((size_t)all.kept + 1) * sizeof *todo);
  for (uint32_t c = 0; c < n_cols; c++) {
    uint32_t n_todo = 0;
    todo[n_todo++] = 0;
    while (n_todo > 0) {
      hpcdb_qnode *kids, node = todo[--n_todo];
      uint32_t n;
      listed(q, v, cols[c], node, &kids, &n);
      for (uint32_t i = 0; i < n; i++) {
        if (kept_before(&all, kids[i], all.kept)) todo[n_todo++] = kids[i];
        else missing++;
      }
      free(kids);
    }
  }
  CHECK(all.whole == (missing == 0) && (all.whole || all.kept == SNAPSHOT_NODES));
  free(todo);
  snapshot_view_free(&all);
  free(cols);
}

static void check_select(const char *rel) {
  hpcdb_query *q;
  CHECK_RC(hpcdb_query_open(&q, testlib_sample(rel)));
  hpcdb_qcolumn c;
  CHECK_RC(hpcdb_query_default_column(q, &c));
  for (int view = 0; view < 3; view++) {
    hpcdb_qview v = (hpcdb_qview)view;
    snapshot_view all, few;
    CHECK_RC(snapshot_select(q, v, &c, 1, SNAPSHOT_NODES, &all));
    CHECK(all.whole && all.kept > 1 && all.node[0] == 0 && all.parent[0] == HPCDB_NONE);
    /* whole: exactly the nodes reached through listed children */
    uint32_t reached = 0;
    for (uint32_t k = 0; k < all.kept; k++) {
      hpcdb_qnode *kids;
      uint32_t n;
      listed(q, v, c, all.node[k], &kids, &n);
      reached += n;
      free(kids);
    }
    CHECK(reached + 1 == all.kept);
    check_all_metrics(q, v);
    CHECK_RC(snapshot_select(q, v, &c, 1, 10, &few));
    CHECK(all.kept > 10 ? few.kept == 10 && !few.whole : few.kept == all.kept && few.whole);
    double lightest = INFINITY;
    for (uint32_t k = 1; k < few.kept; k++) {
      CHECK(kept_before(&few, few.parent[k], k)); /* its parent first */
      double w = inclusive(q, v, c, few.node[k]);
      if (w < lightest) lightest = w;
    }
    for (uint32_t k = 0; k < few.kept; k++) { /* nothing left out under a kept node is heavier than a kept one */
      hpcdb_qnode *kids;
      uint32_t n;
      listed(q, v, c, few.node[k], &kids, &n);
      for (uint32_t i = 0; i < n; i++)
        if (!kept_before(&few, kids[i], few.kept)) CHECK(inclusive(q, v, c, kids[i]) <= lightest);
      free(kids);
    }
    snapshot_view_free(&all);
    snapshot_view_free(&few);
  }
  hpcdb_query_close(q);
}

/* A source that counts the metric columns the query layer reads from it
 * (each a pass over every profile's values), answering from a query over the
 * same experiment. */
typedef struct counting {
  hpcdb_query *inner;
  const hpcdb_experiment *exp;
  uint32_t reads;
} counting;

static int counted_column(void *impl, uint32_t metric, double *inc, double *exc, unsigned *have) {
  counting *c = impl;
  hpcdb_qcolumn col;
  c->reads++;
  HPCDB_TRY(hpcdb_query_column(c->inner, c->exp->metrics[metric].name, &col));
  for (uint32_t i = 0; i < c->exp->n_contexts; i++)
    HPCDB_TRY(hpcdb_query_value(c->inner, HPCDB_QVIEW_TOP_DOWN, col, i, &inc[i], &exc[i]));
  *have = HPCDB_QHAVE_INCLUSIVE | HPCDB_QHAVE_EXCLUSIVE;
  return 0;
}

/* The page's snapshot reads each metric's values a bounded number of times
 * (per view, choosing and writing), not once per node: with 44 metrics, more
 * than the query layer holds at once, node by node read each again per node. */
static void check_linear(const char *rel) {
  hpcdb_experiment *exp;
  CHECK_RC(hpcdb_read(&exp, testlib_sample(rel)));
  counting c = {NULL, exp, 0};
  CHECK_RC(hpcdb_query_from_experiment(&c.inner, exp));
  static const hpcdb_qsource_ops ops = {HPCDB_QSOURCE_OPS_VERSION, "counting", counted_column, NULL, NULL, NULL};
  hpcdb_qsource src = {&ops, &c, exp, 0, NULL};
  hpcdb_query *q;
  CHECK_RC(hpcdb_query_from_source(&q, &src));
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CHECK_RC(page_snapshot_write(f, q, rel, NULL));
  fclose(f);
  CHECK(len > 0 && strstr(text, "\"whole\":true"));
  printf("%s: %u metrics, %u contexts, %u column reads\n", rel, exp->n_metrics, exp->n_contexts, c.reads);
  CHECK(c.reads <= 8 * exp->n_metrics);
  free(text);
  hpcdb_query_close(q);
  hpcdb_query_close(c.inner);
  hpcdb_experiment_free(exp);
}

int main(void) {
  check_assets();
  check_script_string();
  if (!testlib_have_samples()) {
    printf("sample data not found: the snapshot's checks skipped\n");
    return TEST_END();
  }
  check_select("hpctoolkit-v4/cpi-mpi");
  check_select("hpctoolkit-v4/lmp-openmp");
  check_select("hpctoolkit-v4/hpcviewer-issue-328"); /* 44 metrics, the default not the first */
  check_select("cube/scorep-cpi.cubex");
  check_linear("hpctoolkit-v4/hpcviewer-issue-328");
  return TEST_END();
}
