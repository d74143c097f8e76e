/* SPDX-License-Identifier: BSD-3-Clause */
/* The query layer on a small known tree: values, sorted and paged children,
 * the aggregated views, formulas, the spread over profiles, search, hot
 * path, source lines, and the refusals of bad arguments. */
#include <math.h>
#include <string.h>

#include "fixture.h"
#include "hpcdb/query.h"
#include "testlib.h"

static int near(double a, double b) { return fabs(a - b) <= 1e-12 * (fabs(a) + fabs(b) + 1); }

static hpcdb_qnode named(hpcdb_query *q, hpcdb_qview v, const char *name) {
  char buf[128];
  for (hpcdb_qnode n = 0; n < hpcdb_query_n_nodes(q, v); n++)
    if (hpcdb_query_name(q, v, n, buf, sizeof buf) && !strcmp(buf, name)) return n;
  return HPCDB_NONE;
}

int main(void) {
  hpcdb_experiment *e = fixture();
  hpcdb_query *q;
  CHECK_RC(hpcdb_query_from_experiment(&q, e));
  hpcdb_qcolumn time, cyc, ratio, again;
  CHECK_RC(hpcdb_query_column(q, "time (sec)", &time));
  CHECK_RC(hpcdb_query_column(q, "cycles", &cyc));
  CHECK_RC(hpcdb_query_column(q, "$1 / $0", &ratio));
  CHECK_RC(hpcdb_query_column(q, "time (sec)", &again));
  CHECK(again == time);
  CHECK(hpcdb_query_column_seconds(q, time) == 1 && hpcdb_query_column_seconds(q, cyc) == 0);
  hpcdb_qcolumn def;
  CHECK_RC(hpcdb_query_default_column(q, &def));
  CHECK(def == time);
  CHECK(hpcdb_query_column(q, "$0 +", &again) == HPCDB_EINVAL);
  CHECK(hpcdb_query_column(q, "", &again) == HPCDB_EINVAL);

  double total, inc, exc;
  CHECK_RC(hpcdb_query_total(q, time, &total));
  CHECK(near(total, 10));
  hpcdb_qnode work = named(q, HPCDB_QVIEW_TOP_DOWN, "work"), mainf = named(q, HPCDB_QVIEW_TOP_DOWN, "main");
  CHECK_RC(hpcdb_query_value(q, HPCDB_QVIEW_TOP_DOWN, time, work, &inc, &exc));
  CHECK(near(inc, 8) && near(exc, 2));
  CHECK_RC(hpcdb_query_value(q, HPCDB_QVIEW_TOP_DOWN, ratio, work, &inc, &exc));
  CHECK(near(inc, 10) && near(exc, 10));
  CHECK(hpcdb_query_value(q, HPCDB_QVIEW_TOP_DOWN, time, 999, &inc, &exc) == HPCDB_EINVAL);
  CHECK(hpcdb_query_value(q, HPCDB_QVIEW_TOP_DOWN, 99, work, &inc, &exc) == HPCDB_EINVAL);

  /* children of main: work (8) then io (1); ascending and paged */
  hpcdb_qnode kids[4];
  uint32_t n, all;
  hpcdb_qsort by_inc = {time, 0, 0}, by_asc = {time, 0, 1}, bad = {77, 0, 0};
  CHECK_RC(hpcdb_query_children(q, HPCDB_QVIEW_TOP_DOWN, mainf, &by_inc, 0, 4, kids, &n, &all));
  CHECK(n == 2 && all == 2 && kids[0] == work);
  CHECK_RC(hpcdb_query_children(q, HPCDB_QVIEW_TOP_DOWN, mainf, &by_asc, 0, 4, kids, &n, &all));
  CHECK(n == 2 && kids[1] == work);
  CHECK_RC(hpcdb_query_children(q, HPCDB_QVIEW_TOP_DOWN, mainf, &by_inc, 1, 1, kids, &n, &all));
  CHECK(n == 1 && all == 2 && kids[0] == named(q, HPCDB_QVIEW_TOP_DOWN, "io"));
  CHECK_RC(hpcdb_query_children(q, HPCDB_QVIEW_TOP_DOWN, mainf, &by_inc, 5, 1, kids, &n, &all));
  CHECK(n == 0 && all == 2);
  CHECK(hpcdb_query_children(q, HPCDB_QVIEW_TOP_DOWN, mainf, &bad, 0, 1, kids, &n, &all) == HPCDB_EINVAL);
  hpcdb_qnode parent;
  CHECK_RC(hpcdb_query_parent(q, HPCDB_QVIEW_TOP_DOWN, work, &parent));
  CHECK(parent == mainf);

  /* bottom-up: kernel (exclusive 6) first, called from work */
  hpcdb_qsort by_exc = {time, 1, 0};
  CHECK_RC(hpcdb_query_children(q, HPCDB_QVIEW_BOTTOM_UP, 0, &by_exc, 0, 4, kids, &n, &all));
  CHECK(all == 4 && n == 4);
  char name[64];
  hpcdb_query_name(q, HPCDB_QVIEW_BOTTOM_UP, kids[0], name, sizeof name);
  CHECK(!strcmp(name, "kernel"));
  CHECK_RC(hpcdb_query_value(q, HPCDB_QVIEW_BOTTOM_UP, time, kids[0], &inc, &exc));
  CHECK(near(inc, 6) && near(exc, 6));
  hpcdb_qnode callers[2];
  CHECK_RC(hpcdb_query_children(q, HPCDB_QVIEW_BOTTOM_UP, kids[0], &by_exc, 0, 2, callers, &n, &all));
  hpcdb_query_name(q, HPCDB_QVIEW_BOTTOM_UP, callers[0], name, sizeof name);
  CHECK(n == 1 && !strcmp(name, "work"));
  /* flat: one module (unknown) > one file > all four functions */
  CHECK_RC(hpcdb_query_children(q, HPCDB_QVIEW_FLAT, 0, &by_exc, 0, 4, kids, &n, &all));
  CHECK(all == 1);
  CHECK_RC(hpcdb_query_value(q, HPCDB_QVIEW_FLAT, time, kids[0], &inc, &exc));
  CHECK(near(exc, 10));
  CHECK(near(inc, 10)); /* a module: its outermost frame's inclusive (main's) */
  CHECK_RC(hpcdb_query_n_children(q, HPCDB_QVIEW_FLAT, kids[0], &n));
  CHECK(n == 1); /* load module > file > function */
  CHECK_RC(hpcdb_query_children(q, HPCDB_QVIEW_FLAT, kids[0], &by_exc, 0, 4, kids, &n, &all));
  hpcdb_query_name(q, HPCDB_QVIEW_FLAT, kids[0], name, sizeof name);
  CHECK(n == 1 && !strcmp(name, "app.c"));
  CHECK_RC(hpcdb_query_n_children(q, HPCDB_QVIEW_FLAT, kids[0], &n));
  CHECK(n == 4);

  /* kernel's exclusive time over the three threads: 1, 2, 3 */
  hpcdb_qspread s;
  hpcdb_qnode kernel = named(q, HPCDB_QVIEW_TOP_DOWN, "kernel");
  CHECK_RC(hpcdb_query_spread(q, time, kernel, 1, &s));
  CHECK(s.n_profiles == 3 && s.min == 1 && s.max == 3 && s.median == 2 && near(s.mean, 2) && near(s.imbalance, 0.5));
  CHECK(s.n_points == 3 && s.point_value[0] == 1 && s.point_profile[2] == 3); /* profile 3: the third thread */
  CHECK(s.bins[0] == 1 && s.bins[HPCDB_QSPREAD_BINS - 1] == 1);
  CHECK_RC(hpcdb_query_spread(q, ratio, kernel, 0, &s));
  CHECK(near(s.min, 10) && near(s.max, 10));
  CHECK(hpcdb_query_spread(q, time, 999, 0, &s) == HPCDB_EINVAL);

  hpcdb_qnode hits[8];
  CHECK_RC(hpcdb_query_search(q, "^(work|io)$", 0, 8, hits, &n, &all));
  CHECK(n == 2 && all == 2);
  CHECK_RC(hpcdb_query_search(q, "o", 1, 1, hits, &n, &all));
  CHECK(n == 1 && all == 3); /* <program root>, work, io */
  CHECK(hpcdb_query_search(q, "(", 0, 8, hits, &n, &all) == HPCDB_EINVAL);

  hpcdb_qnode path[8];
  CHECK_RC(hpcdb_query_hot_path(q, time, 0, path, 8, &n));
  CHECK(n == 5 && path[3] == work && path[4] == kernel);

  uint32_t file, line;
  CHECK_RC(hpcdb_query_location(q, kernel, &file, &line));
  CHECK(file == 0 && line == 42);
  hpcdb_qline lines[4];
  CHECK_RC(hpcdb_query_lines(q, time, file, lines, 4, &n));
  CHECK(n == 2 && lines[0].line == 7 && near(lines[0].exclusive, 1) && lines[1].line == 42 &&
        near(lines[1].exclusive, 8));
  CHECK(near(lines[0].inclusive, 1) && near(lines[1].inclusive, 14)); /* work (8) and kernel (6) below it: both count */
  CHECK(hpcdb_query_lines(q, time, 9, lines, 4, &n) == HPCDB_EINVAL);

  /* one profile's own tree: the third thread (profile 3) */
  hpcdb_qcolumn t3, r3;
  CHECK_RC(hpcdb_query_profile_column(q, "time (sec)", 3, &t3));
  CHECK_RC(hpcdb_query_profile_column(q, "$1 / $0", 3, &r3));
  CHECK(t3 != time);
  CHECK_RC(hpcdb_query_value(q, HPCDB_QVIEW_TOP_DOWN, t3, kernel, &inc, &exc));
  CHECK(near(inc, 3) && near(exc, 3));
  CHECK_RC(hpcdb_query_total(q, t3, &total));
  CHECK(near(total, 5.5));
  CHECK_RC(hpcdb_query_value(q, HPCDB_QVIEW_TOP_DOWN, r3, work, &inc, &exc));
  CHECK(near(inc, 10));
  CHECK(hpcdb_query_profile_column(q, "time (sec)", 4, &again) == HPCDB_EINVAL);

  /* a group of profiles summed (the first and third threads: kernel 1 + 3), a formula over it too */
  const uint32_t two[2] = {1, 3}, past[1] = {4};
  hpcdb_qcolumn g, gr;
  CHECK_RC(hpcdb_query_profiles_column(q, "time (sec)", two, 2, &g));
  CHECK_RC(hpcdb_query_profiles_column(q, "$1 / $0", two, 2, &gr));
  CHECK(g != time && g != t3);
  CHECK_RC(hpcdb_query_value(q, HPCDB_QVIEW_TOP_DOWN, g, kernel, &inc, &exc));
  CHECK(near(inc, 4) && near(exc, 4));
  CHECK_RC(hpcdb_query_value(q, HPCDB_QVIEW_TOP_DOWN, gr, work, &inc, &exc));
  CHECK(near(inc, 10));
  CHECK_RC(hpcdb_query_profiles_column(q, "time (sec)", two, 2, &again));
  CHECK(again == g);
  CHECK(hpcdb_query_profiles_column(q, "time (sec)", two, 0, &again) == HPCDB_EINVAL);
  CHECK(hpcdb_query_profiles_column(q, "time (sec)", past, 1, &again) == HPCDB_EINVAL);

  /* every profile's value of a node, not summarised */
  double each[3];
  uint32_t which[3];
  CHECK_RC(hpcdb_query_node_profiles(q, time, kernel, 1, each, which));
  CHECK(each[0] == 1 && each[1] == 2 && each[2] == 3 && which[0] == 1 && which[2] == 3);
  CHECK(hpcdb_query_node_profiles(q, time, 999, 1, each, NULL) == HPCDB_EINVAL);

  /* more columns than are kept: values are recomputed, still right */
  char f[32];
  for (int k = 0; k < 20; k++) {
    hpcdb_qcolumn c;
    snprintf(f, sizeof f, "$0 * %d", k);
    CHECK_RC(hpcdb_query_column(q, f, &c));
    CHECK_RC(hpcdb_query_total(q, c, &total));
    CHECK(near(total, 10.0 * k));
  }
  CHECK_RC(hpcdb_query_value(q, HPCDB_QVIEW_TOP_DOWN, ratio, work, &inc, &exc));
  CHECK(near(inc, 10));
  hpcdb_query_close(q);
  hpcdb_experiment_free(e);
  return TEST_END();
}
