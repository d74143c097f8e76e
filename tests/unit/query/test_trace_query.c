/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace query on a small experiment built in memory, every answer
 * worked out by hand: tiles (one and several rows per cell, depths, the
 * idle rule, the last element lasting no time, the context filter),
 * statistics, the calling path, filters, GPU idleness, and bad traces and
 * requests. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/trace_query.h"
#include "testlib.h"

/* ids: entry 1 > f 2 > line 3; entry > g 4; entry > kernel 5 */
static uint32_t E, F, L, G, K;

static hpcdb_experiment *build(void) {
  hpcdb_experiment *exp;
  uint32_t fn_f, fn_g, fn_k, kinds[3];
  CHECK_RC(hpcdb_experiment_new(&exp));
  hpcdb_function f = {"f", HPCDB_NONE, 0, HPCDB_NONE, 0, 0}, g = f, k = f;
  g.name = "g", k.name = "kernel";
  CHECK_RC(hpcdb_add_function(exp, &f, &fn_f));
  CHECK_RC(hpcdb_add_function(exp, &g, &fn_g));
  CHECK_RC(hpcdb_add_function(exp, &k, &fn_k));
  hpcdb_context c = {0};
  c.function = c.file = c.module = HPCDB_NONE;
  c.id = 1, c.kind = HPCDB_CTX_ENTRY, c.entry_point = HPCDB_ENTRY_MAIN, c.name = "main thread";
  CHECK_RC(hpcdb_add_context(exp, &c, 0, &E));
  c.kind = HPCDB_CTX_NORMAL, c.name = NULL, c.relation = HPCDB_REL_CALL;
  c.id = 2, c.function = fn_f;
  CHECK_RC(hpcdb_add_context(exp, &c, E, &F));
  c.id = 3, c.function = HPCDB_NONE, c.relation = HPCDB_REL_LEXICAL, c.lexical_type = HPCDB_LEX_LINE, c.line = 7;
  CHECK_RC(hpcdb_add_context(exp, &c, F, &L));
  c.relation = HPCDB_REL_CALL, c.lexical_type = HPCDB_LEX_FUNCTION;
  c.id = 4, c.function = fn_g;
  CHECK_RC(hpcdb_add_context(exp, &c, E, &G));
  c.id = 5, c.function = fn_k;
  CHECK_RC(hpcdb_add_context(exp, &c, E, &K));
  const char *names[3] = {"RANK", "THREAD", "GPUSTREAM"};
  for (int i = 0; i < 3; i++) CHECK_RC(hpcdb_add_kind_name(exp, names[i], &kinds[i]));
  for (uint32_t p = 0; p < 3; p++) {
    hpcdb_id ids[2] = {{(uint16_t)kinds[0], 0, 0, 0}, {(uint16_t)kinds[p == 2 ? 2 : 1], 0, p == 2 ? 0 : p, 0}};
    CHECK_RC(hpcdb_add_profile(exp, 0, 1, ids, 2, NULL));
  }
  /* p0: line [100,200), g [200,260), idle [260,300), line at 300 (lasts nothing)
   * p1: g [150,400)   p2: kernels of 1 ns at 100 and 350, idle between */
  const uint64_t t0[] = {100, 200, 260, 300}, t1[] = {150, 400}, t2[] = {100, 101, 350, 351};
  const uint32_t c0[] = {3, 4, 0, 3}, c1[] = {4, 4}, c2[] = {5, 0, 5, 0};
  CHECK_RC(hpcdb_add_trace(exp, 0, 4, t0, c0, NULL));
  CHECK_RC(hpcdb_add_trace(exp, 1, 2, t1, c1, NULL));
  CHECK_RC(hpcdb_add_trace(exp, 2, 4, t2, c2, NULL));
  return exp;
}

static void cell_is(const hpcdb_tile_cell *c, uint32_t ctx, uint32_t n, uint64_t ns, uint64_t total) {
  CHECK(c->ctx == ctx && c->n_ctx == n && c->ctx_ns == ns && c->total_ns == total);
  if (!(c->ctx == ctx && c->n_ctx == n && c->ctx_ns == ns && c->total_ns == total))
    fprintf(stderr, "  cell: got ctx %u n %u %llu/%llu, want ctx %u n %u %llu/%llu\n", c->ctx, c->n_ctx,
            (unsigned long long)c->ctx_ns, (unsigned long long)c->total_ns, ctx, n, (unsigned long long)ns,
            (unsigned long long)total);
}

static void test_tiles(hpcdb_trace_set *t) {
  hpcdb_tile_cell cells[9];
  uint32_t h;
  hpcdb_tile_request r = {0, 3, 100, 400, 3, 3, HPCDB_TRACE_LEAF, NULL, NULL};
  CHECK_RC(hpcdb_trace_tile(t, NULL, &r, cells, &h));
  CHECK(h == 3);
  cell_is(&cells[0], L, 1, 100, 100);
  cell_is(&cells[1], G, 2, 60, 100);
  cell_is(&cells[2], HPCDB_TRACE_EMPTY, 0, 0, 0); /* the last element lasts no time */
  cell_is(&cells[3], G, 1, 50, 50);
  cell_is(&cells[5], G, 1, 100, 100);
  cell_is(&cells[6], K, 2, 1, 100); /* 1 ns of kernel beats 99 ns idle */
  cell_is(&cells[7], 0, 1, 100, 100);
  cell_is(&cells[8], K, 2, 1, 51); /* the kernel at 350, idle [300, 350), nothing after 351 */
  r.depth = 1;
  CHECK_RC(hpcdb_trace_tile(t, NULL, &r, cells, &h));
  cell_is(&cells[0], F, 1, 100, 100);
  r.depth = 0;
  CHECK_RC(hpcdb_trace_tile(t, NULL, &r, cells, &h));
  cell_is(&cells[1], E, 2, 60, 100);
  cell_is(&cells[6], E, 2, 1, 100);
  /* every profile in one cell row */
  r.depth = HPCDB_TRACE_LEAF, r.height = 1;
  CHECK_RC(hpcdb_trace_tile(t, NULL, &r, cells, &h));
  CHECK(h == 1);
  cell_is(&cells[0], L, 4, 100, 250);
  cell_is(&cells[1], G, 2, 160, 300);
  cell_is(&cells[2], G, 3, 100, 151);
  /* only g kept: the line is grey */
  uint8_t keep[8] = {0};
  keep[G] = 1;
  hpcdb_trace_filter f = {.ctx_keep = keep};
  r.height = 3;
  CHECK_RC(hpcdb_trace_tile(t, &f, &r, cells, &h));
  cell_is(&cells[0], HPCDB_TRACE_GREY, 1, 100, 100);
  cell_is(&cells[1], G, 2, 60, 100);
  /* a row list: profile 2 alone */
  uint32_t rows[] = {2};
  hpcdb_trace_filter only = {.rows = rows, .n_rows = 1};
  hpcdb_tile_request one = {0, 1, 100, 400, 3, 5, HPCDB_TRACE_LEAF, NULL, NULL};
  CHECK_RC(hpcdb_trace_tile(t, &only, &one, cells, &h));
  CHECK(h == 1);
  cell_is(&cells[2], K, 2, 1, 51);
  /* bad requests */
  hpcdb_tile_request narrow = {0, 3, 100, 102, 3, 3, 0, NULL, NULL}, past = {2, 2, 100, 400, 3, 3, 0, NULL, NULL};
  CHECK(hpcdb_trace_tile(t, NULL, &narrow, cells, &h) == HPCDB_EINVAL);
  CHECK(hpcdb_trace_tile(t, NULL, &past, cells, &h) == HPCDB_EINVAL);
}

static void test_stats_and_path(hpcdb_trace_set *t) {
  hpcdb_trace_share *sh;
  uint32_t n, ctx, path[8], len;
  uint64_t total;
  CHECK_RC(hpcdb_trace_stats(t, NULL, 100, 400, HPCDB_TRACE_LEAF, &sh, &n, &total));
  CHECK(total == 701 && n == 4);
  if (n == 4) {
    CHECK(sh[0].ctx == G && sh[0].ns == 310);
    CHECK(sh[1].ctx == 0 && sh[1].ns == 289);
    CHECK(sh[2].ctx == L && sh[2].ns == 100);
    CHECK(sh[3].ctx == K && sh[3].ns == 2);
  }
  free(sh);
  CHECK_RC(hpcdb_trace_stats(t, NULL, 0, 100, 0, &sh, &n, &total));
  CHECK(n == 0 && total == 0);
  free(sh);
  CHECK_RC(hpcdb_trace_path_at(t, 0, 250, &ctx, path, 8, &len));
  CHECK(ctx == G && len == 2 && path[0] == E && path[1] == G);
  CHECK_RC(hpcdb_trace_path_at(t, 0, 1000, &ctx, path, 8, &len));
  CHECK(ctx == L && len == 3 && path[0] == E && path[1] == F && path[2] == L);
  CHECK_RC(hpcdb_trace_path_at(t, 2, 200, &ctx, path, 8, &len));
  CHECK(ctx == 0 && len == 0);
  CHECK(hpcdb_trace_path_at(t, 0, 99, &ctx, path, 8, &len) == HPCDB_EINVAL);
  CHECK(hpcdb_trace_path_at(t, 3, 200, &ctx, path, 8, &len) == HPCDB_EINVAL);
}

static void test_filters(hpcdb_trace_set *t, const hpcdb_experiment *exp) {
  uint32_t *rows, n;
  CHECK_RC(hpcdb_trace_rows_matching(t, exp, "GPUSTREAM", &rows, &n));
  CHECK(n == 1 && rows[0] == 2);
  free(rows);
  CHECK_RC(hpcdb_trace_rows_matching(t, exp, "rank=0 THREAD=1-5", &rows, &n));
  CHECK(n == 1 && rows[0] == 1);
  free(rows);
  CHECK(hpcdb_trace_rows_matching(t, exp, "RANK=", &rows, &n) == HPCDB_EINVAL);
  CHECK(hpcdb_trace_rows_matching(t, exp, "RANK=5-2", &rows, &n) == HPCDB_EINVAL);
  uint32_t order[] = {2, 1, 0};
  CHECK_RC(hpcdb_trace_rows_by_identity(t, exp, order, 3));
  CHECK(order[0] == 0 && order[1] == 1 && order[2] == 2);
  uint8_t *keep;
  CHECK_RC(hpcdb_trace_contexts_matching(exp, "[gk]*", &keep));
  CHECK(keep[0] && !keep[E] && !keep[F] && keep[G] && keep[K]);
  free(keep);
}

static void test_bad_traces(void) {
  hpcdb_experiment *exp = build();
  hpcdb_trace_set *t;
  const uint64_t ts[] = {10, 5};
  const uint32_t ok[] = {3, 3}, unknown[] = {3, 99};
  CHECK_RC(hpcdb_add_trace(exp, 1, 2, ts, ok, NULL));
  CHECK(hpcdb_trace_open(&t, exp, NULL, NULL) == HPCDB_ECORRUPT && strstr(hpcdb_last_error(), "time-order"));
  hpcdb_experiment_free(exp);
  exp = build();
  const uint64_t up[] = {5, 10};
  CHECK_RC(hpcdb_add_trace(exp, 1, 2, up, unknown, NULL));
  CHECK(hpcdb_trace_open(&t, exp, NULL, NULL) == HPCDB_ECORRUPT && strstr(hpcdb_last_error(), "99"));
  hpcdb_experiment_free(exp);
  CHECK_RC(hpcdb_experiment_new(&exp));
  CHECK(hpcdb_trace_open(&t, exp, NULL, NULL) == HPCDB_EINVAL && t == NULL);
  hpcdb_experiment_free(exp);
}

/* The cancel hook: asked between rows; once it says stop, the query ends with HPCDB_ECANCELED. */
static int stop_after(void *user) { /* asked by the tile's two threads at once */
  return atomic_fetch_sub((atomic_int *)user, 1) <= 0;
}

static void test_cancel(hpcdb_trace_set *t) {
  hpcdb_tile_cell cells[9];
  uint32_t h, n;
  uint64_t total;
  hpcdb_trace_share *sh = NULL;
  hpcdb_tile_request r = {0, 3, 100, 400, 3, 3, HPCDB_TRACE_LEAF, NULL, NULL};
  atomic_int left = 100;
  hpcdb_trace_filter f = {.cancelled = stop_after, .cancel_user = &left};
  CHECK_RC(hpcdb_trace_tile(t, &f, &r, cells, &h)); /* not asked to stop */
  CHECK(left < 100);
  left = 1;
  CHECK(hpcdb_trace_tile(t, &f, &r, cells, &h) == HPCDB_ECANCELED);
  left = 0;
  CHECK(hpcdb_trace_stats(t, &f, 100, 400, HPCDB_TRACE_LEAF, &sh, &n, &total) == HPCDB_ECANCELED);
  CHECK(sh == NULL && n == 0);
}

/* p2 (RANK 0 GPUSTREAM 0) is idle in [101, 350); its host p0 (RANK 0 THREAD 0, not THREAD 1) is in f's
 * line until 200, in g in [200, 260), idle until 300, and has nothing after 300 (its last element). */
static void test_gpu_idleness(hpcdb_trace_set *t, const hpcdb_experiment *exp) {
  uint8_t *waits = calloc(exp->n_contexts, 1);
  hpcdb_trace_gpu_idle *g;
  uint32_t n;
  waits[G] = 1;
  CHECK_RC(hpcdb_trace_gpu_idleness(t, NULL, waits, 0, 1000, &g, &n));
  CHECK(n == 1 && g[0].row == 2 && g[0].host == 0 && g[0].span_ns == 251 && g[0].idle_ns == 249 &&
        g[0].idle_wait_ns == 60);
  free(g);
  CHECK_RC(hpcdb_trace_gpu_idleness(t, NULL, waits, 150, 250, &g, &n));
  CHECK(n == 1 && g[0].span_ns == 100 && g[0].idle_ns == 100 && g[0].idle_wait_ns == 50);
  free(g);
  waits[G] = 0, waits[F] = 1; /* f's line scope L waits through its ancestor */
  CHECK_RC(hpcdb_trace_gpu_idleness(t, NULL, waits, 0, 1000, &g, &n));
  CHECK(n == 1 && g[0].idle_wait_ns == 99);
  free(g);
  const uint32_t threads[] = {0, 1}; /* no stream among the rows */
  hpcdb_trace_filter f = {threads, 2, NULL, NULL, NULL};
  CHECK_RC(hpcdb_trace_gpu_idleness(t, &f, waits, 0, 1000, &g, &n));
  CHECK(n == 0);
  free(g);
  CHECK(hpcdb_trace_gpu_idleness(t, NULL, waits, 300, 200, &g, &n) == HPCDB_EINVAL && g == NULL);
  free(waits);
}

int main(void) {
  hpcdb_experiment *exp = build();
  hpcdb_trace_set *t;
  CHECK_RC(hpcdb_trace_open(&t, exp, NULL, NULL));
  hpcdb_trace_info i;
  hpcdb_trace_get_info(t, &i);
  CHECK(i.n_rows == 3 && i.n_events == 10 && i.t_min == 100 && i.t_max == 400 && !i.in_place);
  test_tiles(t);
  test_stats_and_path(t);
  test_filters(t, exp);
  test_cancel(t);
  test_gpu_idleness(t, exp);
  hpcdb_trace_close(t);
  hpcdb_experiment_free(exp);
  test_bad_traces();
  return TEST_END();
}
